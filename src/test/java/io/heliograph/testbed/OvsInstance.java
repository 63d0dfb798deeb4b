package io.heliograph.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A private Open vSwitch: its own ovsdb-server and ovs-vswitchd with database, sockets, pidfiles and
 * logs in one directory, so tests never touch a system-wide OVS and can run side by side.
 *
 * <p>Every ovs-* command gets {@code OVS_RUNDIR} and friends pointing at that directory. ovs-vswitchd
 * runs inside a network namespace of its own: the userspace datapath creates a tap device named
 * {@code ovs-netdev} (and one per bridge), so two instances in one namespace collide, and the second
 * silently fails to create its bridges. Its ports are therefore devices of that namespace.
 *
 * <p>Closing deletes the bridges, asks both daemons to exit and, should one not, ends it by the pid in
 * its pidfile.
 */
public final class OvsInstance implements AutoCloseable {

    private static final Path SCHEMA = Path.of("/usr/share/openvswitch/vswitch.ovsschema");
    private static final Duration DAEMON_EXIT = Duration.ofSeconds(5);

    private final Path dir;
    private final String namespace;
    private final Map<String, String> env;
    private final List<Bridge> bridges = new ArrayList<>();
    private final List<DaemonPid> daemons = new ArrayList<>();
    private boolean closed;

    private OvsInstance(Path dir, String namespace) {
        this.dir = dir;
        this.namespace = namespace;
        String d = dir.toString();
        this.env = Map.of("OVS_RUNDIR", d, "OVS_LOGDIR", d, "OVS_DBDIR", d, "OVS_SYSCONFDIR", d);
    }

    /**
     * Starts ovsdb-server and ovs-vswitchd with their files in {@code dir}, which should be short (unix
     * socket paths are limited to about 100 characters), e.g. a fresh directory under /tmp; ovs-vswitchd
     * runs in the existing network namespace {@code namespace}.
     */
    public static OvsInstance start(Path dir, String namespace) {
        requireInstalled();
        OvsInstance ovs = new OvsInstance(dir, namespace);
        try {
            ovs.startDaemons();
            return ovs;
        } catch (RuntimeException e) {
            ovs.close();
            throw e;
        }
    }

    /**
     * An OVS instance someone else started and stops (a demo script's), whose files are in {@code dir}
     * and whose ovs-vswitchd runs in {@code namespace}: for reading and changing it with ovs-* commands.
     * Closing it stops nothing.
     */
    public static OvsInstance attach(Path dir, String namespace) {
        requireInstalled();
        return new OvsInstance(dir, namespace);
    }

    /** Fails, saying what to install, when Open vSwitch is not there. */
    public static void requireInstalled() {
        if (!Files.isRegularFile(SCHEMA) || !Files.isExecutable(Path.of("/usr/sbin/ovs-vswitchd"))) {
            throw new IllegalStateException("Open vSwitch is not installed (" + SCHEMA + " or /usr/sbin/ovs-vswitchd "
                    + "missing): apt-get install -y openvswitch-switch, or run deploy/heliograph test, which installs it");
        }
    }

    private void startDaemons() {
        String d = dir.toString();
        Command.of("ovsdb-tool", "create", d + "/conf.db", SCHEMA.toString()).env(env).check();
        Command.of("ovsdb-server", d + "/conf.db", "--remote=punix:" + d + "/db.sock",
                "--pidfile=" + d + "/ovsdb-server.pid", "--log-file=" + d + "/ovsdb-server.log",
                "--detach", "--no-chdir").env(env).check();
        daemons.add(DaemonPid.read(dir.resolve("ovsdb-server.pid"), "ovsdb-server"));
        vsctlNoWait("init");
        Command.of("ip", "netns", "exec", namespace, "ovs-vswitchd", "unix:" + d + "/db.sock",
                "--pidfile=" + d + "/ovs-vswitchd.pid", "--log-file=" + d + "/ovs-vswitchd.log",
                "--detach", "--no-chdir").env(env).check();
        daemons.add(DaemonPid.read(dir.resolve("ovs-vswitchd.pid"), "ovs-vswitchd"));
    }

    public Path dir() {
        return dir;
    }

    /** The network namespace ovs-vswitchd runs in, where every port device must be. */
    public String namespace() {
        return namespace;
    }

    public Map<String, String> env() {
        return env;
    }

    public Path vswitchdLog() {
        return dir.resolve("ovs-vswitchd.log");
    }

    /** ovs-vsctl, waiting (bounded) for ovs-vswitchd to apply the change. */
    public CommandResult vsctl(String... args) {
        return command(prepend(args, "ovs-vsctl", "--timeout=20")).check();
    }

    private CommandResult vsctlNoWait(String... args) {
        return command(prepend(args, "ovs-vsctl", "--no-wait")).check();
    }

    public CommandResult ofctl(String... args) {
        return command(prepend(args, "ovs-ofctl")).check();
    }

    public CommandResult appctl(String... args) {
        return command(prepend(args, "ovs-appctl", "--timeout=10")).check();
    }

    /** A command from the ovs-* family with this instance's environment, not yet run. */
    public Command command(String... argv) {
        return Command.of(argv).env(env);
    }

    private static String[] prepend(String[] args, String... head) {
        List<String> argv = new ArrayList<>(Arrays.asList(head));
        argv.addAll(Arrays.asList(args));
        return argv.toArray(String[]::new);
    }

    /**
     * Adds a bridge on the userspace datapath (the kernel here has no OVS datapath: any other type
     * "works" and forwards nothing), speaking exactly {@code protocols}, e.g. "OpenFlow13".
     */
    public Bridge addBridge(String name, long datapathId, List<String> protocols, FailMode failMode) {
        if (name.length() > InterfaceNames.MAX_INTERFACE_NAME) {
            throw new IllegalArgumentException("bridge name '" + name + "' is longer than 15 characters");
        }
        vsctl("add-br", name, "--", "set", "bridge", name, "datapath_type=netdev",
                "protocols=" + String.join(",", protocols),
                "fail-mode=" + failMode.ovsName,
                String.format("other-config:datapath-id=%016x", datapathId),
                // the controller is on loopback: no hidden in-band flows on the bridge
                "other-config:disable-in-band=true");
        Bridge bridge = new Bridge(this, name, datapathId, protocols);
        bridges.add(bridge);
        return bridge;
    }

    /**
     * Points every bridge of {@code bridges} at {@code targets} in one ovsdb transaction, so they all
     * start connecting at the same moment; no targets disconnects them all.
     */
    public void setController(List<Bridge> bridges, String... targets) {
        List<String> args = new ArrayList<>();
        for (Bridge bridge : bridges) {
            if (!args.isEmpty()) {
                args.add("--");
            }
            if (targets.length == 0) {
                args.addAll(List.of("del-controller", bridge.name()));
            } else {
                args.addAll(List.of("set-controller", bridge.name()));
                args.addAll(Arrays.asList(targets));
            }
        }
        vsctl(args.toArray(String[]::new));
    }

    public List<Bridge> bridges() {
        return List.copyOf(bridges);
    }

    /** Copies the daemons' logs into {@code target} (created if needed), e.g. to keep them as build artifacts. */
    public void copyLogsTo(Path target) {
        try {
            Files.createDirectories(target);
            for (String log : List.of("ovs-vswitchd.log", "ovsdb-server.log")) {
                Path source = dir.resolve(log);
                if (Files.exists(source)) {
                    Files.copy(source, target.resolve(log), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Cleanup cleanup = new Cleanup("OVS instance in " + dir);
        boolean vswitchdUp = daemons.stream().anyMatch(p -> p.name().equals("ovs-vswitchd") && p.isAlive());
        for (Bridge bridge : bridges) {
            // ovs-vswitchd leaves a userspace bridge's tap device behind when it exits with the bridge in place
            if (vswitchdUp) {
                cleanup.run("delete bridge " + bridge.name(),
                        () -> command("ovs-vsctl", "--timeout=10", "--if-exists", "del-br", bridge.name()).check());
            }
        }
        for (String daemon : List.of("ovs-vswitchd", "ovsdb-server")) {
            daemons.stream().filter(p -> p.name().equals(daemon) && p.isAlive()).findFirst().ifPresent(pid ->
                    cleanup.run("stop " + daemon, () -> {
                        command("ovs-appctl", "--timeout=5", "-t", daemon, "exit").run();
                        pid.awaitExitOrKill(DAEMON_EXIT);
                    }));
        }
        // a bridge's tap device, if left behind, goes with the namespace
        cleanup.finish();
    }

    public enum FailMode {
        /** Without a controller the bridge drops everything: forwarding proves the controller works. */
        SECURE("secure"),
        /** Without a controller the bridge acts as a learning switch of its own. */
        STANDALONE("standalone");

        private final String ovsName;

        FailMode(String ovsName) {
            this.ovsName = ovsName;
        }
    }

    /** A daemon's pid as read from its pidfile at start (the file is gone once the daemon exits). */
    private record DaemonPid(String name, long pid) {

        static DaemonPid read(Path pidfile, String name) {
            String text = Poll.until(name + " pidfile " + pidfile, Duration.ofSeconds(5), () -> {
                try {
                    return Files.exists(pidfile) ? Files.readString(pidfile).strip() : "";
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, s -> !s.isEmpty());
            return new DaemonPid(name, Long.parseLong(text));
        }

        Optional<ProcessHandle> handle() {
            // guard against pid reuse: only a process that still is this daemon is ever signalled
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                    .filter(h -> h.info().command().map(c -> c.endsWith(name)).orElse(true));
        }

        boolean isAlive() {
            return handle().isPresent();
        }

        void awaitExitOrKill(Duration grace) {
            try {
                Poll.until(name + " (pid " + pid + ") to exit", grace, () -> !isAlive());
            } catch (AssertionError notYet) {
                handle().ifPresent(ProcessHandle::destroy);
                try {
                    Poll.until(name + " (pid " + pid + ") to exit after SIGTERM", grace, () -> !isAlive());
                } catch (AssertionError stillAlive) {
                    handle().ifPresent(ProcessHandle::destroyForcibly);
                }
            }
        }
    }
}
