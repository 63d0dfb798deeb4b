package io.heliograph.testbed;

import java.security.SecureRandom;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The switches' path to a controller in the root namespace: a veth pair between the root namespace
 * and the switch namespace with a /30 of its own from 198.18.0.0/15 (the block set aside for
 * network device testing), the controller's end at .1 and the switches' at .2.
 */
final class ControlLink implements AutoCloseable {

    private static final SecureRandom RANDOM = new SecureRandom();
    /**
     * Every /30 this JVM took (by network address), never handed out twice: testbeds of two classes
     * running at once would otherwise both find a block free before either has added its address.
     */
    private static final Set<String> TAKEN = ConcurrentHashMap.newKeySet();
    private static final String SWITCH_SIDE = "ctl";

    private final String rootDevice;
    private final String controllerAddress;

    private ControlLink(String rootDevice, String controllerAddress) {
        this.rootDevice = rootDevice;
        this.controllerAddress = controllerAddress;
    }

    static ControlLink create(String rootDevice, String switchNamespace) {
        Command.of("ip", "link", "add", rootDevice, "type", "veth", "peer", "name", SWITCH_SIDE,
                "netns", switchNamespace).check();
        try {
            String inUse = Command.of("ip", "-4", "-o", "addr", "show").check().stdout();
            int[] subnet = null;
            for (int attempt = 0; attempt < 100 && subnet == null; attempt++) {
                int index = RANDOM.nextInt(1 << 15);          // 2^17 addresses in /30 blocks
                int[] candidate = {198, 18 + (index >> 14), (index >> 6) & 0xff, (index & 0x3f) << 2};
                boolean demos = candidate[1] == 18 && candidate[2] == 255;  // 198.18.255.0/24: deploy/lib's demos
                if (!demos && !inUse.contains(" " + address(candidate, 1) + "/")
                        && !inUse.contains(" " + address(candidate, 2) + "/") && TAKEN.add(address(candidate, 0))) {
                    subnet = candidate;
                }
            }
            if (subnet == null) {
                throw new IllegalStateException("no free /30 in 198.18.0.0/15 for the control link");
            }
            ControlLink link = new ControlLink(rootDevice, address(subnet, 1));
            Command.of("ip", "addr", "add", address(subnet, 1) + "/30", "dev", rootDevice).check();
            Command.of("ip", "link", "set", rootDevice, "up").check();
            Command.of("ip", "-n", switchNamespace, "addr", "add", address(subnet, 2) + "/30", "dev", SWITCH_SIDE).check();
            Command.of("ip", "-n", switchNamespace, "link", "set", SWITCH_SIDE, "up").check();
            // the controller's end must answer before the first switch tries to connect
            Poll.until("control link " + rootDevice + " up", java.time.Duration.ofSeconds(10),
                    () -> Command.inNamespace(switchNamespace, "ping", "-c", "1", "-W", "1", link.controllerAddress)
                            .run().succeeded());
            return link;
        } catch (RuntimeException | AssertionError e) {
            Links.deleteIfPresent(rootDevice);
            throw e;
        }
    }

    private static String address(int[] subnet, int host) {
        return subnet[0] + "." + subnet[1] + "." + subnet[2] + "." + (subnet[3] + host);
    }

    /** Where switches connect to reach a controller listening on all addresses of the root namespace. */
    String controllerAddress() {
        return controllerAddress;
    }

    @Override
    public void close() {
        Links.deleteIfPresent(rootDevice);
    }
}
