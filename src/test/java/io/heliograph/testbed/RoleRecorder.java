package io.heliograph.testbed;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Reads every bridge's controller roles ({@link ControllerRoles}) again and again on a thread of its
 * own and keeps every reading with the time it was taken, so a test can assert that no reading of a
 * whole run showed a bridge with two masters, and look back at what the switches said when.
 *
 * <p>What it reads is OVS's database, whose role column ovs-vswitchd refreshes only every 5 s or so
 * (with its statistics), whatever the reading rate: a role that lasted less than that may never show.
 * For the moment an instance took or gave up a switch, read the instances' logs
 * ({@link MastershipTimeline}). Closing stops the readings.
 */
public final class RoleRecorder implements AutoCloseable {

    /**
     * One reading; {@code nanos} ({@link System#nanoTime()}) is when it was taken: what it shows was
     * so at some moment between the reading before and this time.
     */
    public record Reading(long nanos, ControllerRoles roles) {

        /** The bridges that show more than one master in this reading, with their roles. */
        public Map<String, Map<String, String>> doubleMasters() {
            Map<String, Map<String, String>> found = new TreeMap<>();
            roles.roles().forEach((bridge, byTarget) -> {
                if (byTarget.values().stream().filter("master"::equals).count() > 1) {
                    found.put(bridge, byTarget);
                }
            });
            return found;
        }

        /** Milliseconds from {@code startNanos} to this reading. */
        public long millisAfter(long startNanos) {
            return (nanos - startNanos) / 1_000_000;
        }
    }

    private final OvsInstance ovs;
    private final Duration interval;
    private final Thread thread;
    private final List<Reading> readings = new ArrayList<>();
    private volatile boolean running = true;
    private RuntimeException failure;

    private RoleRecorder(OvsInstance ovs, Duration interval) {
        this.ovs = ovs;
        this.interval = interval;
        this.thread = new Thread(this::record, "role-recorder");
        this.thread.setDaemon(true);
    }

    /** Starts reading {@code ovs}'s roles, {@code interval} between the end of one reading and the next. */
    public static RoleRecorder start(OvsInstance ovs, Duration interval) {
        RoleRecorder recorder = new RoleRecorder(ovs, interval);
        recorder.thread.start();
        return recorder;
    }

    private void record() {
        while (running) {
            try {
                ControllerRoles roles = ControllerRoles.read(ovs);
                synchronized (this) {
                    readings.add(new Reading(System.nanoTime(), roles));
                    notifyAll();
                }
                Thread.sleep(interval.toMillis());
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (running) {
                    synchronized (this) {
                        failure = e;
                        notifyAll();
                    }
                }
                return;
            }
        }
    }

    /** Every reading so far, oldest first; fails if reading stopped on an error. */
    public synchronized List<Reading> readings() {
        requireRunning();
        return List.copyOf(readings);
    }

    /** The latest reading, if it was taken after {@code nanos}. */
    public synchronized Optional<Reading> latest(long nanos) {
        requireRunning();
        return readings.isEmpty() || readings.get(readings.size() - 1).nanos() <= nanos ? Optional.empty()
                : Optional.of(readings.get(readings.size() - 1));
    }

    /** The readings taken after {@code nanos}. */
    public synchronized List<Reading> since(long nanos) {
        requireRunning();
        return readings.stream().filter(r -> r.nanos() > nanos).toList();
    }

    /**
     * Waits for the first reading after {@code nanos} that {@code condition} accepts and returns it;
     * fails after {@code timeout} naming {@code what} and the last reading.
     */
    public Reading awaitFirst(String what, long nanos, Duration timeout, Predicate<ControllerRoles> condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        int looked = 0;
        synchronized (this) {
            while (true) {
                requireRunning();
                for (; looked < readings.size(); looked++) {
                    Reading r = readings.get(looked);
                    if (r.nanos() > nanos && condition.test(r.roles())) {
                        return r;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("timed out after " + timeout + " waiting for " + what + "; last roles: "
                            + (readings.isEmpty() ? "none read" : readings.get(readings.size() - 1).roles().roles()));
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    /** The first reading after {@code nanos} in which some bridge shows two masters, if any. */
    public Optional<Reading> firstDoubleMaster(long nanos) {
        return since(nanos).stream().filter(r -> !r.doubleMasters().isEmpty()).findFirst();
    }

    private void requireRunning() {
        if (failure != null) {
            throw new IllegalStateException("reading the controller roles failed", failure);
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(Duration.ofSeconds(30).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
