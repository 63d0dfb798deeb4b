package io.heliograph.launcher;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The launcher's command line: {@code --openflow-port N --http-port N --data-dir DIR --console
 * --log-level LEVEL --profile NAME --io-threads N --help}. Options take their value as the next
 * argument or after {@code =}. Anything unexpected is a {@link UsageException} that names the option.
 *
 * @param ioThreads OpenFlow I/O threads; 0 leaves it to the openflow component (one per core)
 */
public record LaunchOptions(int openflowPort, int httpPort, Optional<Path> dataDir, boolean console,
                            Optional<String> logLevel, Profile profile, int ioThreads, boolean help) {

    public static final int DEFAULT_OPENFLOW_PORT = 6653;
    public static final int DEFAULT_HTTP_PORT = 8080;
    public static final String DEFAULT_LOG_LEVEL = "info";

    /** A bound that catches a typo: thousands of event loops are a mistake, not a setting. */
    public static final int MAX_IO_THREADS = 1024;

    private static final Set<String> LOG_LEVELS = Set.of("trace", "debug", "info", "warn", "error");

    public static final String USAGE = String.join("\n",
            "Usage: java -jar heliograph.jar [options]",
            "",
            "Runs one Heliograph controller in the foreground.",
            "",
            "Options:",
            "  --openflow-port N   TCP port switches connect to (default " + DEFAULT_OPENFLOW_PORT + ")",
            "  --http-port N       TCP port of the REST API and web UI (default " + DEFAULT_HTTP_PORT + ")",
            "  --data-dir DIR      where the controller keeps its state (default: data/ in the distribution);",
            "                      its osgi/ subfolder is wiped at every start",
            "  --console           interactive Gogo shell on stdin/stdout (lb, start, stop, ...);",
            "                      leaving it (exit, or end of input) stops the controller",
            "  --log-level LEVEL   trace, debug, info, warn or error (default " + DEFAULT_LOG_LEVEL
                    + ", or as etc/logging.properties says)",
            "  --profile NAME      which apps of hot/ run: full (default, all of them) or bench (the",
            "                      learning switch only, to answer a load generator)",
            "  --io-threads N      OpenFlow I/O threads (default: one per core)",
            "  --help              print this help and exit",
            "",
            "Java system properties (-Dkey=value before -jar) are framework properties too.");

    public static LaunchOptions parse(String... args) throws UsageException {
        int openflowPort = DEFAULT_OPENFLOW_PORT;
        int httpPort = DEFAULT_HTTP_PORT;
        Path dataDir = null;
        boolean console = false;
        String logLevel = null;
        Profile profile = Profile.FULL;
        int ioThreads = 0;
        boolean help = false;

        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name = arg;
            String inlineValue = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                inlineValue = arg.substring(eq + 1);
            }
            switch (name) {
                case "--openflow-port" -> {
                    String value = inlineValue != null ? inlineValue : valueAfter(args, i++, name);
                    openflowPort = port(name, value);
                }
                case "--http-port" -> {
                    String value = inlineValue != null ? inlineValue : valueAfter(args, i++, name);
                    httpPort = port(name, value);
                }
                case "--data-dir" -> {
                    String value = inlineValue != null ? inlineValue : valueAfter(args, i++, name);
                    if (value.isBlank()) {
                        throw new UsageException("--data-dir needs a directory, got an empty value");
                    }
                    dataDir = Path.of(value);
                }
                case "--log-level" -> {
                    String value = inlineValue != null ? inlineValue : valueAfter(args, i++, name);
                    logLevel = value.toLowerCase(Locale.ROOT);
                    if (!LOG_LEVELS.contains(logLevel)) {
                        throw new UsageException("--log-level must be one of trace, debug, info, warn, error; got '"
                                + value + "'");
                    }
                }
                case "--profile" -> {
                    String value = inlineValue != null ? inlineValue : valueAfter(args, i++, name);
                    profile = Profile.ofLabel(value);
                    if (profile == null) {
                        throw new UsageException("--profile must be one of " + Profile.labels() + "; got '" + value
                                + "'");
                    }
                }
                case "--io-threads" -> {
                    String value = inlineValue != null ? inlineValue : valueAfter(args, i++, name);
                    ioThreads = threads(name, value);
                }
                case "--console" -> {
                    noValue(name, inlineValue);
                    console = true;
                }
                case "--help", "-h" -> {
                    noValue(name, inlineValue);
                    help = true;
                }
                default -> throw new UsageException("unknown option '" + arg + "'");
            }
        }
        if (openflowPort == httpPort) {
            throw new UsageException("--openflow-port and --http-port must differ, both are " + httpPort);
        }
        return new LaunchOptions(openflowPort, httpPort, Optional.ofNullable(dataDir), console,
                Optional.ofNullable(logLevel), profile, ioThreads, help);
    }

    private static String valueAfter(String[] args, int i, String name) throws UsageException {
        if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
            throw new UsageException(name + " needs a value");
        }
        return args[i + 1];
    }

    private static void noValue(String name, String inlineValue) throws UsageException {
        if (inlineValue != null) {
            throw new UsageException(name + " takes no value, got '" + inlineValue + "'");
        }
    }

    private static int port(String name, String value) throws UsageException {
        int port;
        try {
            port = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new UsageException(name + " must be a TCP port number (1-65535), got '" + value + "'");
        }
        if (port < 1 || port > 65535) {
            throw new UsageException(name + " must be a TCP port number (1-65535), got " + port);
        }
        return port;
    }

    private static int threads(String name, String value) throws UsageException {
        int threads;
        try {
            threads = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            threads = 0;
        }
        if (threads < 1 || threads > MAX_IO_THREADS) {
            throw new UsageException(name + " must be a number of threads (1-" + MAX_IO_THREADS + "), got '" + value
                    + "'");
        }
        return threads;
    }

    /** The command line is wrong; the message says what and names the option. */
    public static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        public UsageException(String message) {
            super(message);
        }
    }
}
