package io.heliograph.launcher.zookeeper;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.heliograph.launcher.LaunchOptions.UsageException;

/**
 * The command line of {@code heliograph zookeeper}: {@code --port N --data-dir DIR
 * --ensemble HOST:PEERPORT:ELECTIONPORT:CLIENTPORT,... --server-id N --tick-ms N --help}. Options take
 * their value as the next argument or after {@code =}; a mistake is a {@link UsageException} naming the
 * option.
 *
 * @param ensemble empty for a standalone server; otherwise every server of the ensemble, server 1 first
 * @param serverId this server's place in {@code ensemble} (1 = the first); 0 when standalone
 */
public record ZooKeeperServerOptions(int port, Optional<Path> dataDir, List<EnsembleMember> ensemble, int serverId,
                                     int tickMs, boolean help) {

    public static final int DEFAULT_PORT = 2181;
    /** Short, so that sessions as short as 2 ticks (ZooKeeper's minimum) make fail-over fast. */
    public static final int DEFAULT_TICK_MS = 100;
    public static final int MIN_TICK_MS = 10;
    /** ZooKeeper's own limit is far higher; more than this many voters is a typo, not an ensemble. */
    static final int MAX_SERVERS = 255;
    /** The longest session timeout is 60 s, and the shortest is 2 ticks: a tick may not exceed 30 s. */
    public static final int MAX_TICK_MS = 30_000;

    private static final Set<String> TAKE_VALUES = Set.of("--port", "--data-dir", "--ensemble", "--server-id",
            "--tick-ms");

    public static final String USAGE = String.join("\n",
            "Usage: deploy/heliograph zookeeper [options]",
            "       java -cp heliograph.jar:lib/zookeeper/* " + ZooKeeperServerCommand.class.getName() + " [options]",
            "",
            "Runs one ZooKeeper server in the foreground (Ctrl-C or SIGTERM stops it): alone, for clients on",
            "127.0.0.1, or as one server of a replicated ensemble. Controllers join it with",
            "heliograph run --zookeeper HOST:PORT[,HOST:PORT...].",
            "",
            "Options:",
            "  --port N            client port (default " + DEFAULT_PORT + "; with --ensemble, the CLIENTPORT of this server)",
            "  --data-dir DIR      snapshots and transaction log, with the zoo.cfg and myid written at each start",
            "                      (default: data/zookeeper-server in the distribution)",
            "  --ensemble HOST:PEERPORT:ELECTIONPORT:CLIENTPORT,...",
            "                      every server of the ensemble, in the same order on every server (at least 2;",
            "                      3 or 5 survive the loss of 1 or 2). Clients connect to HOST:CLIENTPORT",
            "  --server-id N       which server of --ensemble this is: 1 for the first (needed with --ensemble)",
            "  --tick-ms N         ZooKeeper's tick in milliseconds, " + MIN_TICK_MS + "-" + MAX_TICK_MS + " (default "
                    + DEFAULT_TICK_MS + "): sessions may be",
            "                      as short as 2 ticks and as long as 60 s",
            "  --help              print this help and exit");

    public static ZooKeeperServerOptions parse(String... args) throws UsageException {
        Integer port = null;
        Path dataDir = null;
        List<EnsembleMember> ensemble = List.of();
        Integer serverId = null;
        int tickMs = DEFAULT_TICK_MS;
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
            String value = inlineValue;
            if (inlineValue == null && TAKE_VALUES.contains(name)) {
                value = valueAfter(args, i, name);
                i++;
            }
            switch (name) {
                case "--port" -> port = number(name, value, 1, 65535, "a TCP port number");
                case "--data-dir" -> {
                    if (value.isBlank()) {
                        throw new UsageException("--data-dir needs a directory, got an empty value");
                    }
                    dataDir = Path.of(value);
                }
                case "--ensemble" -> ensemble = ensemble(name, value);
                case "--server-id" -> serverId = number(name, value, 1, MAX_SERVERS, "a server number");
                case "--tick-ms" -> tickMs = number(name, value, MIN_TICK_MS, MAX_TICK_MS, "a number of milliseconds");
                case "--help", "-h" -> {
                    if (inlineValue != null) {
                        throw new UsageException(name + " takes no value, got '" + inlineValue + "'");
                    }
                    help = true;
                }
                default -> throw new UsageException("unknown option '" + arg + "'");
            }
        }
        if (help) {
            return new ZooKeeperServerOptions(DEFAULT_PORT, Optional.empty(), List.of(), 0, tickMs, true);
        }
        if (ensemble.isEmpty()) {
            if (serverId != null) {
                throw new UsageException("--server-id says which server of --ensemble this is; there is no --ensemble");
            }
            return new ZooKeeperServerOptions(port != null ? port : DEFAULT_PORT, Optional.ofNullable(dataDir),
                    ensemble, 0, tickMs, help);
        }
        if (serverId == null) {
            throw new UsageException("--server-id is needed with --ensemble: which of its " + ensemble.size()
                    + " servers is this one (1-" + ensemble.size() + ")?");
        }
        if (serverId > ensemble.size()) {
            throw new UsageException("--server-id " + serverId + " is not a server of --ensemble, which has "
                    + ensemble.size() + " (1-" + ensemble.size() + ")");
        }
        int clientPort = ensemble.get(serverId - 1).clientPort();
        if (port != null && port != clientPort) {
            throw new UsageException("--port " + port + " disagrees with --ensemble, where server " + serverId
                    + " has client port " + clientPort + " (leave --port out)");
        }
        return new ZooKeeperServerOptions(clientPort, Optional.ofNullable(dataDir), ensemble, serverId, tickMs, help);
    }

    public boolean standalone() {
        return ensemble.isEmpty();
    }

    /** This server of the ensemble; only with {@code --ensemble}. */
    public EnsembleMember self() {
        if (standalone()) {
            throw new IllegalStateException("a standalone server is no member of an ensemble");
        }
        return ensemble.get(serverId - 1);
    }

    private static List<EnsembleMember> ensemble(String name, String value) throws UsageException {
        if (value.isBlank()) {
            throw new UsageException(name + " needs HOST:PEERPORT:ELECTIONPORT:CLIENTPORT,..., got an empty value");
        }
        List<EnsembleMember> members = new ArrayList<>();
        String[] parts = value.split(",", -1);
        if (parts.length > MAX_SERVERS) {
            throw new UsageException(name + " names " + parts.length + " servers; at most " + MAX_SERVERS);
        }
        Map<String, String> endpoints = new HashMap<>();
        for (String part : parts) {
            EnsembleMember member = EnsembleMember.parse(name, part);
            for (int port : new int[] {member.peerPort(), member.electionPort(), member.clientPort()}) {
                String endpoint = member.host() + ":" + port;
                String earlier = endpoints.putIfAbsent(endpoint, part);
                if (earlier != null) {
                    throw new UsageException(name + ": " + endpoint + " is used twice ("
                            + (earlier.equals(part) ? "in '" + part + "'" : "in '" + earlier + "' and '" + part + "'")
                            + "): every port of every server must differ");
                }
            }
            members.add(member);
        }
        if (members.size() < 2) {
            throw new UsageException(name + " needs at least 2 servers (3 to survive the loss of one); for a single"
                    + " server leave --ensemble out");
        }
        return List.copyOf(members);
    }

    private static String valueAfter(String[] args, int i, String name) throws UsageException {
        if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
            throw new UsageException(name + " needs a value");
        }
        return args[i + 1];
    }

    private static int number(String name, String value, int min, int max, String what) throws UsageException {
        String digits = value.strip();
        int n = digits.matches("[0-9]{1,9}") ? Integer.parseInt(digits) : -1;
        if (n < min || n > max) {
            throw new UsageException(name + " must be " + what + " (" + min + "-" + max + "), got '" + value + "'");
        }
        return n;
    }
}
