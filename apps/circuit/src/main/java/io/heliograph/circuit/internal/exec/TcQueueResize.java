package io.heliograph.circuit.internal.exec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.WorkerThreads;

/**
 * Applies resizing to a real queue with {@code tc}: on an emulated ToR (an OVS bridge) the VOQs of a
 * source rack are its uplink's queue, so each pair maps to a device ({@code deviceOf}, null for a pair
 * with none) and the device's limit is the largest size any pair mapped to it has now. A change runs
 * {@code commandPrefix + template} with {@code {dev}}, {@code {packets}} and {@code {bytes}} (packets x
 * {@code packetBytes}) filled in, on a thread of its own in the order asked, so the executor never waits
 * for a process. {@link #PFIFO} is {@code tc qdisc change dev {dev} root pfifo limit {packets}}; a token
 * bucket's queue is resized with its own parameters, e.g.
 * {@code tc qdisc change dev {dev} root tbf rate 100mbit burst 32kbit limit {bytes}}. A command that
 * fails is counted and logged (once per device), never retried: the next change runs anyway.
 */
public final class TcQueueResize implements ResizeAction, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TcQueueResize.class);

    public static final List<String> PFIFO =
            List.of("tc", "qdisc", "change", "dev", "{dev}", "root", "pfifo", "limit", "{packets}");

    private final List<String> commandPrefix;
    private final List<String> template;
    private final int packetBytes;
    private final Function<RackPair, String> deviceOf;
    private final ExecutorService thread = WorkerThreads.single("circuit-tc-resize");
    private final Map<String, Map<RackPair, Integer>> sizes = new HashMap<>(); // device -> its pairs' sizes
    private final Map<String, Integer> limits = new TreeMap<>();
    private final Map<String, Boolean> warned = new HashMap<>();
    private final AtomicLong commands = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private volatile String lastError;

    /**
     * @param commandPrefix what runs the command where the devices are, e.g. {@code ip netns exec NS}; may be empty
     * @param template the command, with {@code {dev}}, {@code {packets}} or {@code {bytes}} in its arguments
     */
    public TcQueueResize(List<String> commandPrefix, List<String> template, int packetBytes,
                         Function<RackPair, String> deviceOf) {
        this.commandPrefix = List.copyOf(commandPrefix);
        this.template = List.copyOf(template);
        if (packetBytes < 1) {
            throw new IllegalArgumentException("packetBytes must be 1 or more, not " + packetBytes);
        }
        this.packetBytes = packetBytes;
        this.deviceOf = Objects.requireNonNull(deviceOf, "deviceOf");
    }

    /** {@link #PFIFO} on the devices {@code deviceOf} gives, run after {@code commandPrefix}. */
    public static TcQueueResize pfifo(List<String> commandPrefix, Function<RackPair, String> deviceOf) {
        return new TcQueueResize(commandPrefix, PFIFO, 1500, deviceOf);
    }

    @Override
    public void resize(RackPair pair, int packets, long atEpochNanos) {
        String device = deviceOf.apply(pair);
        if (device == null) {
            return;
        }
        List<String> argv;
        synchronized (this) {
            Map<RackPair, Integer> pairs = sizes.computeIfAbsent(device, d -> new HashMap<>());
            pairs.put(pair, packets);
            int limit = pairs.values().stream().mapToInt(Integer::intValue).max().orElse(packets);
            Integer before = limits.put(device, limit);
            if (before != null && before == limit) {
                return;
            }
            argv = command(device, limit);
        }
        try {
            thread.execute(() -> run(device, argv));
        } catch (RejectedExecutionException closed) {
            // closing: no more changes
        }
    }

    /** The command that sets {@code device} to {@code packets}. */
    List<String> command(String device, int packets) {
        List<String> argv = new ArrayList<>(commandPrefix);
        for (String arg : template) {
            argv.add(arg.replace("{dev}", device).replace("{packets}", Integer.toString(packets))
                    .replace("{bytes}", Long.toString((long) packets * packetBytes)));
        }
        return argv;
    }

    private void run(String device, List<String> argv) {
        commands.incrementAndGet();
        try {
            Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
            String output;
            try (InputStream out = process.getInputStream()) {
                output = new String(out.readAllBytes(), StandardCharsets.UTF_8).strip();
            }
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail(device, String.join(" ", argv) + ": no exit within 5 s");
            } else if (process.exitValue() != 0) {
                fail(device, String.join(" ", argv) + ": exit " + process.exitValue() + ": " + output);
            }
        } catch (IOException e) {
            fail(device, String.join(" ", argv) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void fail(String device, String error) {
        failures.incrementAndGet();
        lastError = error;
        synchronized (warned) {
            if (warned.put(device, true) == null) {
                LOG.warn("resizing {} failed (further failures on it are only counted): {}", device, error);
            }
        }
    }

    /** Commands run, failed, the last failure and each device's limit now (packets). */
    public synchronized Map<String, Object> status() {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("commands", commands.get());
        status.put("failures", failures.get());
        status.put("lastError", lastError);
        status.put("limits", new TreeMap<>(limits));
        return status;
    }

    /** Waits up to {@code wait} for the commands asked so far to have run; true if they have. */
    public boolean drain(Duration wait) {
        try {
            return thread.submit(() -> { }).get(wait.toMillis(), TimeUnit.MILLISECONDS) == null;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return false;
        }
    }

    @Override
    public void close() {
        WorkerThreads.stop(thread, "circuit-tc-resize", Duration.ofSeconds(5));
    }
}
