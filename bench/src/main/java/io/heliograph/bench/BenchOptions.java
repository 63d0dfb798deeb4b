package io.heliograph.bench;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The load generator's command line, cbench's flags with cbench's defaults (except the port:
 * 6653, the IANA OpenFlow port Heliograph listens on, where cbench used the older 6633). Flags
 * are parsed like getopt: {@code -s 16}, {@code -s16}, grouped flags ({@code -tL}) and the long
 * names ({@code --switches=16}). Anything wrong is a {@link UsageException} naming the flag.
 *
 * @param host          controller host (-c)
 * @param port          controller port (-p)
 * @param switches      emulated switches (-s)
 * @param loops         tests in the run (-l)
 * @param msPerTest     length of one test (-m)
 * @param macsPerSwitch distinct source MACs each switch cycles through (-M)
 * @param throughput    throughput mode (-t) instead of latency mode
 * @param warmup        first tests left out of the result (-w)
 * @param cooldown      last tests left out of the result (-C)
 * @param delayMs       wait after the FEATURES_REPLY before sending packet-ins (-D)
 * @param learnDstMacs  teach the controller the destination MAC first (-L)
 * @param dpidOffset    datapath id of the first switch (-o)
 * @param version       OpenFlow version (-V)
 * @param behaviour     how the switches treat statistics and role requests (--stats..., --role...)
 * @param help          print the usage and exit (-h)
 */
public record BenchOptions(String host, int port, int switches, int loops, int msPerTest, int macsPerSwitch,
                           boolean throughput, int warmup, int cooldown, int delayMs, boolean learnDstMacs,
                           long dpidOffset, OpenFlowVersion version, SwitchBehaviour behaviour, boolean help) {

    public static final String DEFAULT_HOST = "localhost";
    public static final int DEFAULT_PORT = 6653;

    public static final String USAGE = String.join("\n",
            "Usage: heliograph bench [flags]            (cbench-compatible load generator)",
            "       heliograph bench --responder [-p PORT]  (trivial responder: the generator's ceiling)",
            "       heliograph bench --topology fattree:K [flags]  (a fabric of switches for link discovery;",
            "                                               --topology fattree:4 -h says more)",
            "",
            "Emulates OpenFlow switches that send packet-ins to a controller and counts its responses",
            "(FLOW_MODs that add or modify, PACKET_OUTs that are not LLDP), like cbench.",
            "",
            "  -c, --controller HOST      controller host (default " + DEFAULT_HOST + ")",
            "  -p, --port N               controller port (default " + DEFAULT_PORT + ")",
            "  -s, --switches N           emulated switches (default 16)",
            "  -l, --loops N              tests per run (default 16)",
            "  -m, --ms-per-test N        test length in ms (default 1000)",
            "  -M, --mac-addresses N      unique source MACs per switch (default 100000)",
            "  -t, --throughput           throughput mode: keep the controller's socket buffers full",
            "                             (default: latency mode, one packet-in in flight per switch)",
            "  -w, --warmup N             first tests left out of the result (default 1)",
            "  -C, --cooldown N           last tests left out of the result (default 0)",
            "  -D, --delay MS             wait after the FEATURES_REPLY before testing (default 0)",
            "  -L, --learn-dst-macs[=B]   send a gratuitous ARP from the destination MAC before each",
            "                             test, so a learning switch installs flows (default on;",
            "                             -L0, -Loff or --learn-dst-macs=false turn it off)",
            "  -o, --dpid-offset N        datapath id of the first switch (default 1)",
            "  -V, --of-version V         OpenFlow version, 1.0 or 1.3 (default 1.0)",
            "  -h, --help                 this text",
            "",
            "Switch behaviours (a controller must serve switches that answer no optional request):",
            "  --stats MODE               statistics (multipart) requests of the --stats-types: answer",
            "                             (default), error (BAD_REQUEST/BAD_STAT, 1.3's BAD_MULTIPART)",
            "                             or ignore (never answered)",
            "  --stats-types LIST         the types --stats and --stats-delay apply to: all (default:",
            "                             every type but desc), all,desc, or names separated by commas:",
            "                             desc, flow, aggregate, table, port, queue, group, group-desc,",
            "                             group-features, meter, meter-config, meter-features,",
            "                             table-features. Other types are answered at once. The",
            "                             handshake is always answered: FEATURES, and on 1.3 port-desc",
            "  --stats-delay MS           send those answers or errors MS late (default 0), without",
            "                             holding anything else back (e.g. 20000)",
            "  --role MODE                role requests (1.3 ROLE_REQUEST, 1.0 Nicira NXT_ROLE_REQUEST):",
            "                             answer (default; 1.3 grants the role asked, 1.0 has no Nicira",
            "                             extension and answers BAD_VENDOR), error (1.3: ROLE_REQUEST_FAILED/",
            "                             UNSUP; 1.0: BAD_VENDOR) or ignore",
            "  --role-delay MS            send the answer or error to a role request MS late (default 0)",
            "",
            "Output: the settings on stderr; on stdout one line per test and the final",
            "RESULT: <n> switches <k> tests min/max/avg/stdev = a/b/c/d responses/s; then on stderr",
            "what the controller asked (statistics and role requests, and how they were treated) and,",
            "in latency mode, the longest wait for an answer to a packet-in and how many waited over",
            "1 s (unanswered).");

    /** One flag: its short name (none: {@link #LONG_ONLY}), long name, and whether it takes a value. */
    private record Flag(char letter, String name, Arity arity) {
    }

    private static final char LONG_ONLY = 0;

    private enum Arity { NONE, REQUIRED, OPTIONAL }

    private static final List<Flag> FLAGS = List.of(
            new Flag('c', "controller", Arity.REQUIRED),
            new Flag('p', "port", Arity.REQUIRED),
            new Flag('s', "switches", Arity.REQUIRED),
            new Flag('l', "loops", Arity.REQUIRED),
            new Flag('m', "ms-per-test", Arity.REQUIRED),
            new Flag('M', "mac-addresses", Arity.REQUIRED),
            new Flag('t', "throughput", Arity.NONE),
            new Flag('w', "warmup", Arity.REQUIRED),
            new Flag('C', "cooldown", Arity.REQUIRED),
            new Flag('D', "delay", Arity.REQUIRED),
            new Flag('L', "learn-dst-macs", Arity.OPTIONAL),
            new Flag('o', "dpid-offset", Arity.REQUIRED),
            new Flag('V', "of-version", Arity.REQUIRED),
            new Flag('h', "help", Arity.NONE),
            new Flag(LONG_ONLY, "stats", Arity.REQUIRED),
            new Flag(LONG_ONLY, "stats-types", Arity.REQUIRED),
            new Flag(LONG_ONLY, "stats-delay", Arity.REQUIRED),
            new Flag(LONG_ONLY, "role", Arity.REQUIRED),
            new Flag(LONG_ONLY, "role-delay", Arity.REQUIRED));

    public BenchOptions {
        if (warmup + cooldown >= loops) {
            throw new IllegalArgumentException("warmup + cooldown must be less than loops");
        }
    }

    public static BenchOptions parse(String... args) throws UsageException {
        Builder b = new Builder();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.startsWith("--") && arg.length() > 2) {
                int eq = arg.indexOf('=');
                String name = eq > 0 ? arg.substring(2, eq) : arg.substring(2);
                String inline = eq > 0 ? arg.substring(eq + 1) : null;
                Flag flag = FLAGS.stream().filter(f -> f.name.equals(name)).findFirst()
                        .orElseThrow(() -> new UsageException("unknown flag '" + (eq > 0 ? arg.substring(0, eq) : arg)
                                + "'"));
                String shown = "--" + name;
                String value = switch (flag.arity) {
                    case NONE -> {
                        if (inline != null) {
                            throw new UsageException(shown + " takes no value, got '" + inline + "'");
                        }
                        yield null;
                    }
                    case OPTIONAL -> inline;
                    case REQUIRED -> inline != null ? inline : valueAfter(args, i++, shown);
                };
                b.set(flag.name, shown, value);
            } else if (arg.startsWith("-") && arg.length() > 1) {
                for (int j = 1; j < arg.length(); j++) {
                    char letter = arg.charAt(j);
                    Flag flag = FLAGS.stream().filter(f -> f.letter == letter && letter != LONG_ONLY).findFirst()
                            .orElseThrow(() -> new UsageException("unknown flag '-" + letter + "'"));
                    String shown = "-" + letter;
                    String rest = arg.substring(j + 1);
                    if (flag.arity == Arity.NONE) {
                        b.set(flag.name, shown, null);
                        continue;
                    }
                    String value = !rest.isEmpty() ? rest
                            : flag.arity == Arity.REQUIRED ? valueAfter(args, i++, shown) : null;
                    b.set(flag.name, shown, value);
                    break;
                }
            } else {
                throw new UsageException("unexpected argument '" + arg + "' (flags start with -; try -h)");
            }
        }
        if (b.warmup + b.cooldown >= b.loops) {
            throw new UsageException("-w " + b.warmup + " plus -C " + b.cooldown + " must be less than -l " + b.loops
                    + ": no test would be left to count");
        }
        if (b.stats == SwitchBehaviour.Reply.IGNORE && b.statsDelayMs > 0) {
            throw new UsageException("--stats-delay " + b.statsDelayMs + " goes with --stats answer or error: an ignored"
                    + " request is never answered");
        }
        if (b.role == SwitchBehaviour.Reply.IGNORE && b.roleDelayMs > 0) {
            throw new UsageException("--role-delay " + b.roleDelayMs + " goes with --role answer or error: an ignored"
                    + " request is never answered");
        }
        SwitchBehaviour behaviour = new SwitchBehaviour(b.stats, b.statsTypes, b.statsDelayMs, b.role, b.roleDelayMs);
        return new BenchOptions(b.host, b.port, b.switches, b.loops, b.msPerTest, b.macs, b.throughput, b.warmup,
                b.cooldown, b.delayMs, b.learn, b.dpidOffset, b.version, behaviour, b.help);
    }

    /** cbench's settings block, printed before the run. */
    public String describe() {
        return String.join("\n",
                "heliograph bench: controller benchmarking tool (cbench-compatible)",
                "   running in mode " + (throughput ? "'throughput'" : "'latency'"),
                "   connecting to controller at " + host + ":" + port + " ",
                "   faking " + switches + " switches offset " + dpidOffset + " :: " + loops + " tests each; "
                        + msPerTest + " ms per test",
                "   with " + macsPerSwitch + " unique source MACs per switch",
                "   " + (learnDstMacs ? "learning" : "NOT learning") + " destination mac addresses before the test",
                "   starting test with " + delayMs + " ms delay after features_reply",
                "   ignoring first " + warmup + " \"warmup\" and last " + cooldown + " \"cooldown\" loops",
                "   speaking OpenFlow " + version.label(),
                "") + behaviour.describe().stream().map(line -> line + "\n").collect(Collectors.joining());
    }

    private static String valueAfter(String[] args, int i, String shown) throws UsageException {
        if (i + 1 >= args.length) {
            throw new UsageException(shown + " needs a value");
        }
        return args[i + 1];
    }

    /** The values as parsed so far, with cbench's defaults. */
    private static final class Builder {
        String host = DEFAULT_HOST;
        int port = DEFAULT_PORT;
        int switches = 16;
        int loops = 16;
        int msPerTest = 1000;
        int macs = 100_000;
        boolean throughput;
        int warmup = 1;
        int cooldown;
        int delayMs;
        boolean learn = true;
        long dpidOffset = 1;
        OpenFlowVersion version = OpenFlowVersion.OF_10;
        boolean help;
        SwitchBehaviour.Reply stats = SwitchBehaviour.DEFAULT.stats();
        Set<SwitchBehaviour.StatsType> statsTypes = SwitchBehaviour.DEFAULT.statsTypes();
        int statsDelayMs;
        SwitchBehaviour.Reply role = SwitchBehaviour.DEFAULT.role();
        int roleDelayMs;

        void set(String flag, String shown, String value) throws UsageException {
            switch (flag) {
                case "controller" -> {
                    if (value.isBlank()) {
                        throw new UsageException(shown + " needs a host name or address, got an empty value");
                    }
                    host = value.trim();
                }
                case "port" -> port = number(shown, value, 1, 65535, "a TCP port number (1-65535)");
                case "switches" -> switches = number(shown, value, 1, 65535, "a number of switches (1-65535)");
                case "loops" -> loops = number(shown, value, 1, Integer.MAX_VALUE, "a number of tests (1 or more)");
                case "ms-per-test" -> msPerTest = number(shown, value, 1, Integer.MAX_VALUE,
                        "a test length in ms (1 or more)");
                case "mac-addresses" -> macs = number(shown, value, 1, Integer.MAX_VALUE, "a number of MAC addresses (1 or more)");
                case "throughput" -> throughput = true;
                case "warmup" -> warmup = number(shown, value, 0, Integer.MAX_VALUE, "a number of tests (0 or more)");
                case "cooldown" -> cooldown = number(shown, value, 0, Integer.MAX_VALUE, "a number of tests (0 or more)");
                case "delay" -> delayMs = number(shown, value, 0, Integer.MAX_VALUE, "a delay in ms (0 or more)");
                case "learn-dst-macs" -> learn = bool(shown, value);
                case "dpid-offset" -> dpidOffset = number(shown, value, 0, Integer.MAX_VALUE, "a datapath id (0 or more)");
                case "of-version" -> {
                    version = OpenFlowVersion.ofLabel(value.trim());
                    if (version == null) {
                        throw new UsageException(shown + " must be 1.0 or 1.3, got '" + value + "'");
                    }
                }
                case "help" -> help = true;
                case "stats" -> stats = SwitchBehaviour.parseReply(shown, value);
                case "stats-types" -> statsTypes = SwitchBehaviour.parseStatsTypes(shown, value);
                case "stats-delay" -> statsDelayMs = number(shown, value, 0, Integer.MAX_VALUE, "a delay in ms (0 or more)");
                case "role" -> role = SwitchBehaviour.parseReply(shown, value);
                case "role-delay" -> roleDelayMs = number(shown, value, 0, Integer.MAX_VALUE, "a delay in ms (0 or more)");
                default -> throw new IllegalStateException("flag without a setter: " + flag);
            }
        }

        private static int number(String shown, String value, int min, int max, String what) throws UsageException {
            long n;
            try {
                n = Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                throw new UsageException(shown + " needs " + what + ", got '" + value + "'");
            }
            if (n < min || n > max) {
                throw new UsageException(shown + " needs " + what + ", got " + n);
            }
            return (int) n;
        }

        private static boolean bool(String shown, String value) throws UsageException {
            if (value == null) {
                return true;
            }
            return switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "1", "true", "on", "yes" -> true;
                case "0", "false", "off", "no" -> false;
                default -> throw new UsageException(shown + " takes on/off (1/0, true/false), got '" + value + "'");
            };
        }
    }

    /** The command line is wrong; the message says what and names the flag. */
    public static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        public UsageException(String message) {
            super(message);
        }
    }
}
