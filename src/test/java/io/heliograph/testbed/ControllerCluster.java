package io.heliograph.testbed;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Controller JVMs {@code c1} to {@code cN} of one distribution, each on its own ports and data
 * directory and pointed at a ZooKeeper ensemble, and how switches reach them: their OpenFlow targets
 * as seen from a testbed's switch namespace. An instance stopped or killed starts again on the same
 * ports and data directory (its switches reconnect by themselves), logging to a new file.
 */
public final class ControllerCluster implements AutoCloseable {

    private static final Duration HEALTHY = Duration.ofSeconds(120);

    private final ControllerDistribution distribution;
    private final Path logDir;
    private final List<String> zookeeper;
    private final List<ControllerProcess> controllers = new ArrayList<>();
    private final int[] runs;

    private ControllerCluster(ControllerDistribution distribution, Path logDir, List<String> zookeeper) {
        this.distribution = distribution;
        this.logDir = logDir;
        this.zookeeper = List.copyOf(zookeeper);
        this.runs = new int[zookeeper.size()];
    }

    /**
     * Starts one instance per connect string (instance {@code i} joins ZooKeeper through
     * {@code zookeeper.get(i)}, so one can go through a proxy) and waits until all are healthy.
     */
    public static ControllerCluster start(ControllerDistribution distribution, Path logDir, List<String> zookeeper) {
        ControllerCluster cluster = new ControllerCluster(distribution, logDir, zookeeper);
        // The instances share this host: they advertise (and listen for each other's liveness) on
        // loopback. By default each would take the first address of an interface that is up, which
        // on a test machine can be a control link another test made, and deletes while they run:
        // the others then found every liveness port refusing and ended their sessions in a loop.
        distribution.configure("io.heliograph.cluster", Map.of(
                "openflowAddress", "127.0.0.1:${heliograph.openflow.port}",
                "httpAddress", "127.0.0.1:${heliograph.http.port}"));
        try {
            for (int i = 0; i < zookeeper.size(); i++) {
                cluster.controllers.add(ControllerProcess.start(distribution, cluster.log(i), cluster.arguments(i)));
            }
            cluster.controllers.forEach(c -> c.awaitHealthy(HEALTHY));
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /** {@code size} instances on one ensemble. */
    public static ControllerCluster start(ControllerDistribution distribution, Path logDir, String zookeeper, int size) {
        return start(distribution, logDir, Collections.nCopies(size, zookeeper));
    }

    public int size() {
        return controllers.size();
    }

    /** Instance {@code i} (from 0) as it runs now. */
    public ControllerProcess get(int i) {
        return controllers.get(i);
    }

    public List<ControllerProcess> all() {
        return List.copyOf(controllers);
    }

    /** The instance id of instance {@code i}: c1, c2, ... */
    public static String id(int i) {
        return "c" + (i + 1);
    }

    /** Each instance's log length now, to look for lines that come after. */
    public List<Integer> marks() {
        return controllers.stream().map(ControllerProcess::logMark).toList();
    }

    /** Instance {@code i}'s OpenFlow target as the testbed's switches reach it. */
    public String target(Testbed testbed, int i) {
        return testbed.controllerTarget("tcp", controllers.get(i).openflowPort());
    }

    public String[] targets(Testbed testbed) {
        String[] targets = new String[size()];
        Arrays.setAll(targets, i -> target(testbed, i));
        return targets;
    }

    /** The instance id behind an OpenFlow target, or the target itself when it is none of them. */
    public String instanceOf(Testbed testbed, String target) {
        for (int i = 0; i < size(); i++) {
            if (target(testbed, i).equals(target)) {
                return id(i);
            }
        }
        return String.valueOf(target);
    }

    /** Starts instance {@code i} again, after it exited, on its ports and data directory; waits until it is healthy. */
    public ControllerProcess restart(int i) {
        ControllerProcess previous = controllers.get(i);
        if (previous.isAlive()) {
            throw new IllegalStateException(id(i) + " (pid " + previous.pid() + ") still runs: stop it before restarting it");
        }
        runs[i]++;
        ControllerProcess started = ControllerProcess.start(distribution, log(i), previous.openflowPort(),
                previous.httpPort(), previous.dataDir(), arguments(i));
        controllers.set(i, started);
        started.awaitHealthy(HEALTHY);
        return started;
    }

    /**
     * Makes every controller connection of the bridges retry each second (OVS backs off to 8 s by
     * default), so a switch finds a restarted instance at once.
     */
    public static void reconnectQuickly(OvsInstance ovs, List<Bridge> bridges) {
        for (Bridge b : bridges) {
            for (String uuid : ovs.vsctl("get", "bridge", b.name(), "controller").stdout()
                    .replaceAll("[\\[\\]]", "").strip().split("[,\\s]+")) {
                ovs.vsctl("set", "controller", uuid, "max_backoff=1000");
            }
        }
    }

    /** Ends every instance by pid, whatever fails on the way. */
    @Override
    public void close() {
        Cleanup cleanup = new Cleanup("controller cluster");
        for (int i = 0; i < controllers.size(); i++) {
            cleanup.close("controller " + id(i), controllers.get(i));
        }
        cleanup.finish();
    }

    private String[] arguments(int i) {
        return new String[] {"--zookeeper", zookeeper.get(i), "--instance-id", id(i)};
    }

    private Path log(int i) {
        return logDir.resolve(id(i) + (runs[i] == 0 ? "" : "-run" + (runs[i] + 1)) + ".log");
    }
}
