package io.heliograph.core;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The threads a component owns besides the I/O threads: named, so a thread dump says whose they are,
 * and daemons, so a component that was never deactivated (a test, a failed start) cannot keep the
 * JVM alive. An app's state that one thread owns needs no locks; {@link #single} gives that thread,
 * and {@link #stop} ends it with the component.
 */
public final class WorkerThreads {

    private static final Logger LOG = LoggerFactory.getLogger(WorkerThreads.class);

    private WorkerThreads() {
    }

    /** Makes daemon threads all named {@code name}. */
    public static ThreadFactory named(String name) {
        Objects.requireNonNull(name, "name");
        return task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /** One thread named {@code name} that runs tasks in the order given, now or later. */
    public static ScheduledExecutorService single(String name) {
        return Executors.newSingleThreadScheduledExecutor(named(name));
    }

    /**
     * Stops a thread: what is queued is dropped, the task running is interrupted and waited for up to
     * {@code wait}, so state it owns can be cleared afterwards. False (and a warning naming
     * {@code name}) when it did not stop in time.
     */
    public static boolean stop(ExecutorService thread, String name, Duration wait) {
        thread.shutdownNow();
        try {
            if (thread.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                return true;
            }
            LOG.warn("the {} thread did not stop within {} ms", name, wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }
}
