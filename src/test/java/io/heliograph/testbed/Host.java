package io.heliograph.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A host: a network namespace whose {@code eth0} is one end of a veth pair; the other end, in the
 * switches' namespace, is a switch port.
 */
public final class Host {

    private static final Pattern PING_SUMMARY = Pattern.compile("(\\d+) packets transmitted, (\\d+) received");

    private final String name;
    private final String namespace;
    private final String switchSideDevice;
    private final String ip;
    private final String mac;
    private final List<Process> background = new ArrayList<>();

    private Host(String name, String namespace, String switchSideDevice, String ip, String mac) {
        this.name = name;
        this.namespace = namespace;
        this.switchSideDevice = switchSideDevice;
        this.ip = ip;
        this.mac = mac;
    }

    /**
     * Creates namespace {@code namespace} with {@code eth0} at {@code ip}/24 and {@code mac}, its peer
     * {@code switchSideDevice} up in namespace {@code switchNamespace} (not yet on a bridge).
     */
    static Host create(String name, String namespace, String switchNamespace, String switchSideDevice, String ip,
                       String mac) {
        Host host = new Host(name, namespace, switchSideDevice, ip, mac);
        Command.of("ip", "netns", "add", namespace).check();
        try {
            Command.of("ip", "link", "add", switchSideDevice, "netns", switchNamespace,
                    "type", "veth", "peer", "name", "eth0", "netns", namespace).check();
            // no IPv6: router solicitations and MLD reports would be extra packets for the controller
            Links.disableIpv6(namespace, "all");
            Links.disableIpv6(namespace, "default");
            host.exec("ip", "link", "set", "eth0", "address", mac).requireSuccess();
            host.exec("ip", "addr", "add", ip + "/24", "dev", "eth0").requireSuccess();
            host.exec("ip", "link", "set", "lo", "up").requireSuccess();
            host.exec("ip", "link", "set", "eth0", "up").requireSuccess();
            // without this, TCP through a userspace bridge hangs on bad checksums (TESTBED.md)
            host.exec("ethtool", "-K", "eth0", "tx", "off").requireSuccess();
            Links.preparePort(switchNamespace, switchSideDevice);
            return host;
        } catch (RuntimeException e) {
            host.destroy();
            throw e;
        }
    }

    public String name() {
        return name;
    }

    public String namespace() {
        return namespace;
    }

    public String ip() {
        return ip;
    }

    public String mac() {
        return mac;
    }

    /** The veth end that is the host's switch port. */
    public String switchSideDevice() {
        return switchSideDevice;
    }

    /** Runs a command inside the host's namespace and returns its result, whatever its exit code. */
    public CommandResult exec(String... argv) {
        return Command.inNamespace(namespace, argv).run();
    }

    public CommandResult exec(Duration timeout, String... argv) {
        return Command.inNamespace(namespace, argv).timeout(timeout).run();
    }

    /**
     * Pings {@code to} {@code count} times, 0.2 s apart. iputils waits 1 s after the last request
     * ({@code -W 1}) only while no reply has come; once one has, it waits twice the longest round
     * trip so far, so a reply held up much longer than the first one's counts as lost. ({@code -w}
     * does not help: with a deadline ping sends past {@code -c} until that many replies came, and
     * stops when a later request's reply completes the count.)
     */
    public PingResult ping(Host to, int count) {
        CommandResult result = exec(Duration.ofSeconds(count + 10L),
                "ping", "-n", "-c", Integer.toString(count), "-i", "0.2", "-W", "1", to.ip());
        Matcher m = PING_SUMMARY.matcher(result.stdout());
        if (!m.find()) {
            throw new CommandFailedException("no ping summary from " + name + " to " + to.name() + ": " + result);
        }
        return new PingResult(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), result.stdout());
    }

    /** Waits until one ping from this host to {@code to} is answered (the first ones may be lost while MACs are learned). */
    public void awaitReachable(Host to, Duration timeout) {
        Poll.until(name + " reaching " + to.name() + " (" + to.ip() + ") by ping", timeout,
                () -> ping(to, 1), r -> r.received() == 1);
    }

    /** Starts a long-running program in the namespace, output to {@code log}; {@link #destroy} ends it. */
    public synchronized Process startBackground(Path log, String... argv) {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        full.addAll(Arrays.asList(argv));
        try {
            Process process = new ProcessBuilder(full).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            background.add(process);
            return process;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + full, e);
        }
    }

    /** Ends the host's background programs and deletes its namespace, which takes the veth pair with it. */
    synchronized void destroy() {
        Cleanup cleanup = new Cleanup("host " + name);
        for (Process process : background) {
            cleanup.run("end " + process.info().commandLine().orElse("pid " + process.pid()), () -> stop(process));
        }
        background.clear();
        cleanup.run("delete namespace " + namespace, () -> Links.deleteNamespaceIfPresent(namespace));
        cleanup.finish();
    }

    private static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return name + " (" + ip + ", " + mac + ", netns " + namespace + ")";
    }

    public record PingResult(int transmitted, int received, String output) {
        public boolean allAnswered() {
            return transmitted > 0 && received == transmitted;
        }
    }
}
