package io.heliograph.launcher;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The launcher's command line: {@code --openflow-port N --http-port N --data-dir DIR --console
 * --log-level LEVEL --log-format text|json --profile NAME --io-threads N --zookeeper HOST:PORT,... --instance-id NAME --help
 * --version}.
 * Options take their value as the next argument or after {@code =}. Anything unexpected is a
 * {@link UsageException} that names the option.
 *
 * @param ioThreads OpenFlow I/O threads; 0 leaves it to the openflow component (one per core)
 * @param zookeeper the ensemble's connect string; empty: the cluster bundle runs an embedded server
 * @param instanceId this instance's name; empty: the one kept in the data directory
 */
public record LaunchOptions(int openflowPort, int httpPort, Optional<Path> dataDir, boolean console,
                            Optional<String> logLevel, LogFormat logFormat, Profile profile, int ioThreads,
                            Optional<String> zookeeper, Optional<String> instanceId, boolean help,
                            boolean version) {

    public static final int DEFAULT_OPENFLOW_PORT = 6653;
    public static final int DEFAULT_HTTP_PORT = 8080;
    public static final String DEFAULT_LOG_LEVEL = "info";

    /** A bound that catches a typo: thousands of event loops are a mistake, not a setting. */
    public static final int MAX_IO_THREADS = 1024;

    /** A host name or IPv4 address, or an IPv6 address in brackets. */
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._-]+|\\[[0-9A-Fa-f:.%A-Za-z]+]");

    private static final Set<String> LOG_LEVELS = Set.of("trace", "debug", "info", "warn", "error");

    /** How log lines are written, to stderr and to the log file alike. */
    public enum LogFormat {
        /** time [thread] LEVEL logger - message, for people */
        TEXT,
        /** one JSON object a line, for log shippers */
        JSON;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

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
                    + ", or as etc/log4j2.xml says);",
            "                      changeable while running: REST /api/v1/logging, console heliograph:loglevel",
            "  --log-format FORMAT text (default) or json: one JSON object a line (time, level, logger,",
            "                      thread, message, exception), on stderr and in the log file",
            "  --profile NAME      which apps of hot/ run: full (default, all of them) or bench (the",
            "                      learning switch only, to answer a load generator)",
            "  --io-threads N      OpenFlow I/O threads (default: one per core)",
            "  --zookeeper HOST:PORT[,HOST:PORT...]",
            "                      join the cluster of this ZooKeeper ensemble (default: an embedded",
            "                      single-node ZooKeeper in the data directory, on a free loopback port)",
            "  --instance-id NAME  this instance's name in the cluster: " + InstanceId.RULE,
            "                      (default: a UUID made on the first start, kept in <data-dir>/instance-id)",
            "  --help              print this help and exit",
            "  --version           print the version and exit",
            "",
            "Logs go to stderr and to <data-dir>/log/heliograph.log (rotated at midnight and at 50 MB,",
            "compressed, 1 GB of old files at most); -Dheliograph.log.dir=DIR moves them, etc/log4j2.xml",
            "says the rest.",
            "",
            "Java system properties (-Dkey=value before -jar) are framework properties too.");

    public static LaunchOptions parse(String... args) throws UsageException {
        int openflowPort = DEFAULT_OPENFLOW_PORT;
        int httpPort = DEFAULT_HTTP_PORT;
        Path dataDir = null;
        boolean console = false;
        String logLevel = null;
        LogFormat logFormat = LogFormat.TEXT;
        Profile profile = Profile.FULL;
        int ioThreads = 0;
        String zookeeper = null;
        String instanceId = null;
        boolean help = false;
        boolean version = false;

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
                case "--log-format" -> {
                    String value = inlineValue != null ? inlineValue : valueAfter(args, i++, name);
                    logFormat = switch (value.toLowerCase(Locale.ROOT)) {
                        case "text" -> LogFormat.TEXT;
                        case "json" -> LogFormat.JSON;
                        default -> throw new UsageException("--log-format must be text or json; got '" + value + "'");
                    };
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
                case "--zookeeper" -> {
                    String value = inlineValue != null ? inlineValue : valueAfter(args, i++, name);
                    zookeeper = connectString(name, value);
                }
                case "--instance-id" -> {
                    String value = inlineValue != null ? inlineValue : valueAfter(args, i++, name);
                    if (!InstanceId.isValid(value)) {
                        throw new UsageException(name + " must be " + InstanceId.RULE + "; got '" + value + "'");
                    }
                    instanceId = value;
                }
                case "--console" -> {
                    noValue(name, inlineValue);
                    console = true;
                }
                case "--help", "-h" -> {
                    noValue(name, inlineValue);
                    help = true;
                }
                case "--version" -> {
                    noValue(name, inlineValue);
                    version = true;
                }
                default -> throw new UsageException("unknown option '" + arg + "'");
            }
        }
        if (openflowPort == httpPort) {
            throw new UsageException("--openflow-port and --http-port must differ, both are " + httpPort);
        }
        return new LaunchOptions(openflowPort, httpPort, Optional.ofNullable(dataDir), console,
                Optional.ofNullable(logLevel), logFormat, profile, ioThreads, Optional.ofNullable(zookeeper),
                Optional.ofNullable(instanceId), help, version);
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

    /**
     * A ZooKeeper connect string of host:port parts (a host may be a bracketed IPv6 address), checked
     * part by part so that the error names the part that is wrong.
     */
    private static String connectString(String name, String value) throws UsageException {
        if (value.isBlank()) {
            throw new UsageException(name + " needs HOST:PORT[,HOST:PORT...], got an empty value");
        }
        for (String part : value.split(",", -1)) {
            int colon = part.lastIndexOf(':');
            String host = colon > 0 ? part.substring(0, colon) : "";
            if (part.isEmpty() || colon < 0 || !HOST.matcher(host).matches()) {
                throw new UsageException(name + " takes HOST:PORT[,HOST:PORT...]; '" + part + "' in '" + value
                        + "' is not HOST:PORT");
            }
            String port = part.substring(colon + 1);
            int number = port.matches("[0-9]{1,5}") ? Integer.parseInt(port) : 0;
            if (number < 1 || number > 65535) {
                throw new UsageException(name + ": '" + part + "' in '" + value + "' needs a port number 1-65535, got '"
                        + port + "'");
            }
        }
        return value;
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
