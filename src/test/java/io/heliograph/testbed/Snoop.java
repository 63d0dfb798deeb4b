package io.heliograph.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ovs-ofctl snoop}: every OpenFlow message between one bridge and its controller, decoded by
 * OVS itself, written to a file. An independent witness of what the controller was sent, e.g. how
 * many packets reached it as PACKET_IN.
 */
public final class Snoop implements AutoCloseable {

    private static final Pattern LLDP = Pattern.compile("dl_type=0x88cc\\b");
    private static final Pattern MONITOR_ATTACHED = Pattern.compile("rconn\\|INFO\\|new monitor connection");

    private final Process process;
    private final Path output;

    private Snoop(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    /** Starts snooping on {@code bridge} and returns once OVS has attached the monitor. */
    public static Snoop start(Bridge bridge, Path output) {
        OvsInstance ovs = bridge.ovs();
        int before = count(MONITOR_ATTACHED, read(ovs.vswitchdLog()));
        ProcessBuilder builder = new ProcessBuilder("ovs-ofctl", "-O", bridge.protocol(), "snoop", bridge.name())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().putAll(ovs.env());
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start ovs-ofctl snoop " + bridge.name(), e);
        }
        Snoop snoop = new Snoop(process, output);
        try {
            // the monitor must be attached before the traffic we mean to count starts
            Poll.until("OVS attaching the snoop monitor of " + bridge.name(), Duration.ofSeconds(10), () -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException("ovs-ofctl snoop exited: " + read(output));
                }
                return count(MONITOR_ATTACHED, read(ovs.vswitchdLog())) > before;
            });
            return snoop;
        } catch (RuntimeException | AssertionError e) {
            snoop.close();
            throw e;
        }
    }

    /** How many PACKET_IN messages the switch has sent the controller since the snoop started. */
    public int packetIns() {
        return count(Pattern.compile("OFPT_PACKET_IN"), read(output));
    }

    /**
     * PACKET_INs since the snoop started that do not carry LLDP (ethertype 0x88cc, which OVS prints on
     * the line after the message): the topology app's own link probes come back from the neighbour
     * switch as PACKET_INs every few seconds, whatever the hosts do.
     */
    public int packetInsExceptLldp() {
        String[] lines = read(output).split("\\R");
        int count = 0;
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains("OFPT_PACKET_IN")
                    && !(i + 1 < lines.length && LLDP.matcher(lines[i + 1]).find())) {
                count++;
            }
        }
        return count;
    }

    public Path output() {
        return output;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }


    private static int count(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
