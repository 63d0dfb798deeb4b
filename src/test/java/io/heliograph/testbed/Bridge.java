package io.heliograph.testbed;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** One OVS bridge (an OpenFlow switch) of an {@link OvsInstance}. */
public final class Bridge {

    private final OvsInstance ovs;
    private final String name;
    private final long datapathId;
    private final List<String> protocols;
    private int nextPort = 1;

    Bridge(OvsInstance ovs, String name, long datapathId, List<String> protocols) {
        this.ovs = ovs;
        this.name = name;
        this.datapathId = datapathId;
        this.protocols = List.copyOf(protocols);
    }

    public String name() {
        return name;
    }

    public long datapathId() {
        return datapathId;
    }

    /** The datapath id as the controller prints it: 00:00:00:00:00:00:00:01. */
    public String dpid() {
        String hex = String.format("%016x", datapathId);
        return String.join(":", hex.split("(?<=\\G..)"));
    }

    public List<String> protocols() {
        return protocols;
    }

    public OvsInstance ovs() {
        return ovs;
    }

    /** The highest protocol the bridge speaks, as ovs-ofctl's -O argument. */
    public String protocol() {
        return protocols.get(protocols.size() - 1);
    }

    /** Adds an existing device as the next OpenFlow port and returns its port number. */
    public synchronized int addPort(String device) {
        int port = nextPort++;
        ovs.vsctl("add-port", name, device, "--", "set", "interface", device, "ofport_request=" + port);
        return port;
    }

    /** Adds an existing device as OpenFlow port {@code port} (above the ports numbered in order, to stay apart). */
    public synchronized void addPort(String device, int port) {
        ovs.vsctl("add-port", name, device, "--", "set", "interface", device, "ofport_request=" + port);
    }

    /** Takes a device off the bridge (it stays, down to no bridge): a host moved to another switch. */
    public void removePort(String device) {
        ovs.vsctl("del-port", name, device);
    }

    /**
     * Sets the controller targets, e.g. "tcp:127.0.0.1:6653" or "ssl:127.0.0.1:6654"; several for a
     * cluster ("tcp:127.0.0.1:6653", "tcp:127.0.0.1:6654", ...): the switch connects to all of them.
     */
    public void setController(String... targets) {
        String[] args = new String[targets.length + 2];
        args[0] = "set-controller";
        args[1] = name;
        System.arraycopy(targets, 0, args, 2, targets.length);
        ovs.vsctl(args);
    }

    public void deleteController() {
        ovs.vsctl("del-controller", name);
    }

    /**
     * The role each of this bridge's controllers has now as OVS reports it, by target: "master",
     * "slave" or "other" (OVS's name for EQUAL, also what a controller that never asked has); "" while
     * OVS has not filled the column in. Like {@code is_connected}, the column lags: poll it.
     */
    public Map<String, String> controllerRoles() {
        List<String> uuids = controllerUuids();
        Map<String, String> roles = new TreeMap<>();
        if (uuids.isEmpty()) {
            return roles;
        }
        List<String> argv = new ArrayList<>(List.of("--format=csv", "--data=bare", "--no-headings",
                "--columns=target,role", "list", "controller"));
        argv.addAll(uuids);
        for (String line : ovs.vsctl(argv.toArray(String[]::new)).stdout().lines().toList()) {
            if (line.isBlank()) {
                continue;
            }
            int comma = line.lastIndexOf(',');
            if (comma < 0) {
                throw new IllegalStateException("not a target,role line of ovs-vsctl list controller: " + line);
            }
            roles.put(unquote(line.substring(0, comma)), unquote(line.substring(comma + 1)));
        }
        return roles;
    }

    private List<String> controllerUuids() {
        // "[4c2f...-..., 9a1b...-...]" or "[]"
        String uuids = ovs.vsctl("get", "bridge", name, "controller").stdout().strip();
        return Arrays.stream(uuids.replaceAll("[\\[\\]]", "").split(",\\s*")).map(String::strip)
                .filter(u -> !u.isEmpty()).toList();
    }

    private static String unquote(String csvField) {
        String field = csvField.strip();
        return field.length() >= 2 && field.startsWith("\"") && field.endsWith("\"")
                ? field.substring(1, field.length() - 1).replace("\"\"", "\"") : field;
    }

    /** Whether OVS reports a live connection to (one of) the bridge's controllers now. */
    public boolean isConnected() {
        for (String uuid : controllerUuids()) {
            if (ovs.vsctl("get", "controller", uuid, "is_connected").stdout().strip().equals("true")) {
                return true;
            }
        }
        return false;
    }

    /** Waits until OVS reports the controller connection (the column lags: poll, don't read once). */
    public void awaitConnected(Duration timeout) {
        Poll.until("bridge " + name + " connected to its controller", timeout, this::isConnected);
    }

    public List<FlowEntry> dumpFlows() {
        String out = ovs.ofctl("-O", protocol(), "dump-flows", name).stdout();
        return FlowEntry.parseDump(out);
    }

    /** Deletes the flows that match {@code match} non-strictly (every flow at least as specific). */
    public void deleteFlows(String match) {
        ovs.ofctl("-O", protocol(), "del-flows", name, match);
    }

    /** One port's counters as the switch counts them ({@code ovs-ofctl dump-ports}). */
    public PortCounters portCounters(String port) {
        return PortCounters.parse(ofctl("dump-ports", port));
    }

    public String ofctl(String command, String... args) {
        String[] argv = new String[args.length + 4];
        argv[0] = "-O";
        argv[1] = protocol();
        argv[2] = command;
        argv[3] = name;
        System.arraycopy(args, 0, argv, 4, args.length);
        return ovs.ofctl(argv).stdout();
    }

    @Override
    public String toString() {
        return name + " (dpid " + String.format("%016x", datapathId) + ", " + Arrays.toString(protocols.toArray()) + ")";
    }
}
