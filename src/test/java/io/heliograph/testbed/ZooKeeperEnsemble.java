package io.heliograph.testbed;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A replicated ZooKeeper ensemble of real servers on loopback, each a {@link ZooKeeperServerProcess}
 * (a JVM of its own) started by the distribution's zookeeper command with {@code --ensemble} and its
 * {@code --server-id}, on free ports and fresh data directories. Servers are numbered as ZooKeeper
 * numbers them, from 1. Closing ends every server by pid and deletes the data directories.
 */
public final class ZooKeeperEnsemble implements AutoCloseable {

    private final List<ZooKeeperServerProcess> servers;

    private ZooKeeperEnsemble(List<ZooKeeperServerProcess> servers) {
        this.servers = List.copyOf(servers);
    }

    /**
     * Starts {@code size} servers of {@code distribution}, logging to {@code logDir}/zookeeper-N.log,
     * and returns at once: {@link #awaitQuorum} waits until they serve. {@code extraArgs} go to every
     * server (e.g. "--tick-ms", "50").
     */
    public static ZooKeeperEnsemble start(ControllerDistribution distribution, Path logDir, int size,
                                          String... extraArgs) {
        if (size < 2) {
            throw new IllegalArgumentException("an ensemble has at least 2 servers, not " + size);
        }
        List<int[]> ports = freePorts(size);
        String ensemble = ports.stream().map(p -> "127.0.0.1:" + p[0] + ":" + p[1] + ":" + p[2])
                .collect(Collectors.joining(","));
        List<ZooKeeperServerProcess> started = new ArrayList<>();
        try {
            for (int id = 1; id <= size; id++) {
                Path dataDir = ZooKeeperServerProcess.freshDataDir(distribution);
                List<String> args = new ArrayList<>(List.of("--ensemble", ensemble, "--server-id", Integer.toString(id),
                        "--data-dir", dataDir.toString()));
                args.addAll(List.of(extraArgs));
                started.add(ZooKeeperServerProcess.start(distribution, args, dataDir, ports.get(id - 1)[2],
                        logDir.resolve("zookeeper-" + id + ".log")));
            }
        } catch (RuntimeException | Error e) {
            Cleanup cleanup = new Cleanup("a ZooKeeper ensemble that failed to start");
            started.forEach(s -> cleanup.close("server on port " + s.clientPort(), s));
            throw e;
        }
        return new ZooKeeperEnsemble(started);
    }

    /** Three ports per server (peer, election, client), all different. */
    private static List<int[]> freePorts(int size) {
        Set<Integer> taken = new HashSet<>();
        List<int[]> ports = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            int[] three = new int[3];
            for (int j = 0; j < 3; j++) {
                int port;
                do {
                    port = ControllerProcess.freePort();
                } while (!taken.add(port));
                three[j] = port;
            }
            ports.add(three);
        }
        return ports;
    }

    /** Every server's client address, the connect string a client or controller is given. */
    public String connectString() {
        return servers.stream().map(ZooKeeperServerProcess::connectString).collect(Collectors.joining(","));
    }

    /** Server {@code id} (1 to {@link #size}), as ZooKeeper numbers it. */
    public ZooKeeperServerProcess server(int id) {
        if (id < 1 || id > servers.size()) {
            throw new IllegalArgumentException("no server " + id + " in an ensemble of " + servers.size());
        }
        return servers.get(id - 1);
    }

    public List<ZooKeeperServerProcess> servers() {
        return servers;
    }

    public int size() {
        return servers.size();
    }

    /** The server that leads now, if one serves as leader. */
    public Optional<ZooKeeperServerProcess> leader() {
        return servers.stream().filter(s -> s.mode().filter("leader"::equals).isPresent()).findFirst();
    }

    /**
     * Waits until a majority of the servers serve clients, one of them as leader and the others as
     * followers; returns the modes seen, by server id (empty for a server that does not serve).
     */
    public List<Optional<String>> awaitQuorum(Duration timeout) {
        int majority = servers.size() / 2 + 1;
        return Poll.until("a quorum (" + majority + " of " + servers.size() + " serving, one leader) of the ensemble "
                + connectString(), timeout, this::modes, modes -> {
                    long serving = modes.stream().filter(Optional::isPresent).count();
                    long leaders = modes.stream().filter(m -> m.filter("leader"::equals).isPresent()).count();
                    return serving >= majority && leaders == 1;
                });
    }

    /** Each server's mode now ("leader", "follower"), empty for one that does not serve. */
    public List<Optional<String>> modes() {
        return servers.stream().map(ZooKeeperServerProcess::mode).toList();
    }

    /** Ends every server by pid and deletes the data directories, whatever fails on the way. */
    @Override
    public void close() {
        Cleanup cleanup = new Cleanup("ZooKeeper ensemble " + connectString());
        for (ZooKeeperServerProcess server : servers) {
            cleanup.close("ZooKeeper server on port " + server.clientPort(), server);
        }
        cleanup.finish();
    }
}
