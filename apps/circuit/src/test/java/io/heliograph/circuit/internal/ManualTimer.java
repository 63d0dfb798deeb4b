package io.heliograph.circuit.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A clock and a timer that move only when the test says: tasks due by the new time run in time order. */
final class ManualTimer implements SchedulingLoop.Timer {

    private record Task(long at, long order, Runnable run) {
    }

    private final List<Task> tasks = new ArrayList<>();
    private long now;
    private long order;

    ManualTimer(long startNanos) {
        this.now = startNanos;
    }

    synchronized long now() {
        return now;
    }

    @Override
    public synchronized Runnable at(long epochNanos, Runnable run) {
        Task task = new Task(epochNanos, order++, run);
        tasks.add(task);
        return () -> {
            synchronized (ManualTimer.this) {
                tasks.remove(task);
            }
        };
    }

    /** Moves the clock to {@code to}, running every task due on the way at its own time. */
    void advanceTo(long to) {
        while (true) {
            Task next;
            synchronized (this) {
                next = tasks.stream().filter(t -> t.at() <= to)
                        .min(Comparator.comparingLong(Task::at).thenComparingLong(Task::order)).orElse(null);
                if (next == null) {
                    now = Math.max(now, to);
                    return;
                }
                tasks.remove(next);
                now = Math.max(now, next.at());
            }
            next.run().run();
        }
    }

    synchronized int pending() {
        return tasks.size();
    }
}
