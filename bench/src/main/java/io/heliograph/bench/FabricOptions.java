package io.heliograph.bench;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Set;

/**
 * The command line of the fabric mode, {@code heliograph bench --topology SPEC [flags]}. The
 * connection flags are cbench's, checked the same way ({@link BenchOptions#parse}); anything wrong
 * is a {@link BenchOptions.UsageException} naming the flag.
 *
 * @param fabric          the emulated switches and cables
 * @param host            controller host (-c)
 * @param port            controller port (-p)
 * @param version         OpenFlow version (-V)
 * @param dpidOffset      datapath id of the first switch (-o)
 * @param health          the controller's health URL, polled for its switch count; null: not polled
 * @param durationSeconds how long to run once started; 0: until killed
 * @param help            print the usage and exit (-h)
 */
record FabricOptions(Fabric fabric, String host, int port, OpenFlowVersion version, long dpidOffset, URI health,
                     int durationSeconds, boolean help) {

    static final String TOPOLOGY = "--topology";
    private static final Set<String> FLAGS = Set.of(TOPOLOGY, "-s", "--switches", "-c", "--controller", "-p", "--port",
            "-V", "--of-version", "-o", "--dpid-offset", "--health", "--duration");

    static final String USAGE = String.join("\n",
            "Usage: heliograph bench --topology fattree:K | --topology fattree -s N  [flags]",
            "",
            "Emulates a fabric of switches for a controller's link discovery: every switch connects at",
            "once, answers the handshake with its ports (FEATURES, PORT_DESC, port statistics), and an LLDP",
            "PACKET_OUT it gets out of a cabled port comes back to the controller as a PACKET_IN at the",
            "peer switch's port, as over a real cable (host ports swallow it). Prints when every switch",
            "was connected, asked for its features, counted by the controller's health and first probed,",
            "and when every cable had carried a probe both ways; then a status line every second.",
            "",
            "  --topology fattree:K       a k-ary fat tree: 5k\u00b2/4 switches of k ports, k\u00b3/2 cables",
            "                             (k=16: 320 switches, k=20: 500, k=28: 980)",
            "  --topology fattree -s N    the largest fat tree with at most N switches",
            "  -c, --controller HOST      controller host (default " + BenchOptions.DEFAULT_HOST + ")",
            "  -p, --port N               controller port (default " + BenchOptions.DEFAULT_PORT + ")",
            "  -V, --of-version V         OpenFlow version, 1.0 or 1.3 (default 1.3)",
            "  -o, --dpid-offset N        datapath id of the first switch (default 1)",
            "  --health URL               the controller's health resource, e.g.",
            "                             http://localhost:8080/api/v1/health, polled for its switch count",
            "  --duration S               stop after S seconds (default 0: run until killed)",
            "  -h, --help                 this text");

    static FabricOptions parse(String... args) throws BenchOptions.UsageException {
        String topology = null;
        Integer switches = null;
        String host = BenchOptions.DEFAULT_HOST;
        int port = BenchOptions.DEFAULT_PORT;
        OpenFlowVersion version = OpenFlowVersion.OF_13;
        long dpidOffset = 1;
        URI health = null;
        int duration = 0;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            } else if (arg.length() > 2 && arg.charAt(0) == '-' && arg.charAt(1) != '-') {
                name = arg.substring(0, 2);
                value = arg.substring(2);
            }
            if (name.equals("-h") || name.equals("--help")) {
                return new FabricOptions(null, host, port, version, dpidOffset, null, 0, true);
            }
            if (!name.startsWith("-")) {
                throw new BenchOptions.UsageException("unexpected argument '" + arg + "' (flags start with -; try -h)");
            }
            if (!FLAGS.contains(name)) {
                throw new BenchOptions.UsageException("unknown flag '" + name + "' in the fabric mode"
                        + " (it takes --topology, -s, -c, -p, -V, -o, --health, --duration; try -h)");
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    throw new BenchOptions.UsageException(name + " needs a value");
                }
                value = args[++i];
            }
            switch (name) {
                case TOPOLOGY -> topology = value;
                case "-s", "--switches" -> switches = BenchOptions.parse("-s", value).switches();
                case "-c", "--controller" -> host = BenchOptions.parse("-c", value).host();
                case "-p", "--port" -> port = BenchOptions.parse("-p", value).port();
                case "-V", "--of-version" -> version = BenchOptions.parse("-V", value).version();
                case "-o", "--dpid-offset" -> dpidOffset = BenchOptions.parse("-o", value).dpidOffset();
                case "--health" -> health = healthUri(value);
                case "--duration" -> duration = seconds(value);
                default -> throw new IllegalStateException("a flag without a setter: " + name);
            }
        }
        if (topology == null) {
            throw new BenchOptions.UsageException(TOPOLOGY + " needs a value: fattree:K or fattree with -s N");
        }
        Fabric fabric;
        try {
            if (switches != null && !topology.trim().equalsIgnoreCase("fattree")) {
                throw new IllegalArgumentException("-s " + switches + " goes with --topology fattree (which picks the"
                        + " largest fat tree of at most N switches), not with '" + topology + "'");
            }
            if (switches == null && topology.trim().equalsIgnoreCase("fattree")) {
                throw new IllegalArgumentException("--topology fattree needs -s N (the most switches), or name k:"
                        + " fattree:K");
            }
            fabric = Fabric.parse(topology, switches == null ? 0 : switches);
        } catch (IllegalArgumentException e) {
            throw new BenchOptions.UsageException(e.getMessage());
        }
        return new FabricOptions(fabric, host, port, version, dpidOffset, health, duration, false);
    }

    /** The options each emulated switch is made with: quiet switches that never send packet-ins of their own. */
    BenchOptions switchOptions() {
        return new BenchOptions(host, port, fabric.switches(), 2, 1000, 1, false, 1, 0, 0, false, dpidOffset,
                version, SwitchBehaviour.DEFAULT, false);
    }

    private static URI healthUri(String value) throws BenchOptions.UsageException {
        try {
            URI uri = new URI(value.trim());
            if (!"http".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new BenchOptions.UsageException("--health needs an http:// URL such as"
                        + " http://localhost:8080/api/v1/health, got '" + value + "'");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new BenchOptions.UsageException("--health needs a URL, got '" + value + "': " + e.getReason());
        }
    }

    private static int seconds(String value) throws BenchOptions.UsageException {
        try {
            int s = Integer.parseInt(value.trim());
            if (s >= 0) {
                return s;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new BenchOptions.UsageException("--duration needs a number of seconds (0 or more), got '" + value + "'");
    }
}
