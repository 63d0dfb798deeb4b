package io.heliograph.core.cluster;

import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.cluster.SharedStore.StoreUnavailableException;

/**
 * Runs a task on exactly one instance of the cluster, and again on another when that one dies: the
 * instances that run the same app compete for the leadership of {@value #PREFIX}{@code /<name>}
 * through {@link SharedStore#lead}, and the leader runs the task. A leader that loses its ZooKeeper
 * session is told, and stops the task, before another instance can lead and start it.
 *
 * <p>The task is started and stopped on the given thread, one after the other, never both at once.
 * It is a {@link ClusterSharing.Sharing}, so an app opens it through its {@link ClusterSharing}, which
 * restarts it as the store comes and goes; a candidacy the store refused (no session) is asked again
 * when the session is back, and every {@value #RETRY_MS} ms meanwhile.
 */
public final class ClusterSingleton implements ClusterSharing.Sharing {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterSingleton.class);

    /** Where the leaderships of the singletons are. */
    public static final String PREFIX = "singletons";
    static final long RETRY_MS = 1_000;

    /** What runs on one instance only. */
    public interface Task {
        /** This instance leads now: begin. */
        void start();

        /** This instance leads no more (or the app stops): end, at once. */
        void stop();
    }

    private final SharedStore store;
    private final String name;
    private final Task task;
    private final ScheduledExecutorService thread;

    // Guarded by this: changed on the thread, and by close() on the app's.
    private volatile boolean running;
    private boolean closed;
    private SharedStore.Watch candidacy;
    private ScheduledFuture<?> retry;

    /**
     * @param name   the singleton, unique in the cluster (a key segment: letters, digits, {@code . _ - : @})
     * @param thread where the task is started and stopped
     */
    public ClusterSingleton(SharedStore store, String name, Task task, ScheduledExecutorService thread) {
        this.store = Objects.requireNonNull(store, "store");
        this.name = Objects.requireNonNull(name, "name");
        this.task = Objects.requireNonNull(task, "task");
        this.thread = Objects.requireNonNull(thread, "thread");
    }

    /** Competes for the leadership. */
    @Override
    public void start() {
        onThread(this::compete);
    }

    /** Whether the task runs here now. */
    public boolean running() {
        return running;
    }

    /** Gives up the leadership and stops the task if it runs here; on the caller's thread. */
    @Override
    public synchronized void close() {
        closed = true;
        if (retry != null) {
            retry.cancel(false);
        }
        SharedStore.Watch held = candidacy;
        candidacy = null;
        if (held != null) {
            held.close();
        }
        leadershipChanged(false);
    }

    @Override
    public void connectionChanged(boolean connected) {
        if (connected) {
            onThread(this::compete);
        }
    }

    private synchronized void compete() {
        if (closed || candidacy != null) {
            return;
        }
        try {
            candidacy = store.lead(PREFIX + "/" + name, leader -> onThread(() -> leadershipChanged(leader)));
        } catch (StoreUnavailableException e) {
            LOG.debug("singleton {}: no session to compete with, trying again: {}", name, e.getMessage());
            retry = thread.schedule(this::compete, RETRY_MS, TimeUnit.MILLISECONDS);
        }
    }

    private synchronized void leadershipChanged(boolean leader) {
        boolean run = leader && !closed;
        if (run == running) {
            return;
        }
        if (run) {
            LOG.info("singleton {}: this instance leads, starting it", name);
            task.start();
        } else {
            LOG.info("singleton {}: this instance leads no more, stopping it", name);
            task.stop();
        }
        // after the task's start or stop, so that running() says what the task has done
        running = run;
    }

    private void onThread(Runnable step) {
        try {
            thread.execute(() -> {
                try {
                    step.run();
                } catch (RuntimeException e) {
                    LOG.error("singleton {} failed", name, e);
                }
            });
        } catch (RejectedExecutionException e) {
            // Stopping: close() stops the task.
        }
    }
}
