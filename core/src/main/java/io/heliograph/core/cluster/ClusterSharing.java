package io.heliograph.core.cluster;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.BoundService;
import io.heliograph.core.WorkerThreads;

/**
 * An app's optional, dynamic binding to the cluster: while both a {@link SharedStore} and a
 * {@link ClusterService} are bound it keeps one {@link Sharing} open through them, and when either
 * comes, goes or is replaced it ends that sharing and opens one through what is bound now. Without
 * them (no cluster bundle) the app runs alone.
 *
 * <p>All of it happens on one thread of its own, "{@code <app>-store}", since the store's work waits
 * on ZooKeeper and must not hold up the app's: the sharing is opened, started and closed there, in
 * the order the services came and went, and its store writes run there too. The order within a
 * change: the old sharing is closed (its watch stops, this instance's entries leave the old store)
 * before the app is told it {@linkplain #ClusterSharing ended}; a new one is opened (the app shares
 * its state with it), then started (it watches the others').
 *
 * <p>The DS component extends {@link SharingComponent}, whose dynamic references call the bind methods
 * (they may come before {@link #start}: they are kept) and which forwards its {@link ClusterListener}
 * calls here, which hands them to the sharing open now.
 *
 * <p>The apps' wiring style: the DS component is thin (annotations, references, delegation) and the
 * app's runtime (threads, rounds, sharing) is a plain class it creates, testable without OSGi. A
 * reference that comes and goes while the app runs (the store, the cluster, the switch service, a
 * whiteboard) is a dynamic bind/unbind method pair that hands the service to the runtime, since the
 * runtime must act on each change (reshare, reconcile) and bind methods may be called before
 * activation (a runtime that only reads the service bound now keeps it in a {@link BoundService}); a
 * reference the app cannot run without is a constructor parameter of the component.
 *
 * @param <S> what the app shares through: its own {@link Sharing}
 */
public final class ClusterSharing<S extends ClusterSharing.Sharing> implements ClusterListener {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterSharing.class);
    private static final Duration STOP_WAIT = Duration.ofSeconds(2);

    /** What an app keeps open while it shares: its {@link OwnedEntries}, a {@link ClusterSingleton}. */
    public interface Sharing extends ClusterListener, AutoCloseable {
        /** Begins: watches the others', competes for a leadership. Called once, after opening. */
        void start();

        /** Ends: stops watching, takes this instance's part out of the store. */
        @Override
        void close();
    }

    /** Opens a sharing through a store and a cluster; runs on {@code thread}, which the sharing may use. */
    @FunctionalInterface
    public interface Opener<S> {
        S open(SharedStore store, ClusterService cluster, ScheduledExecutorService thread);
    }

    private final String app;
    private final Opener<S> opener;
    private final Consumer<? super S> ended;
    private final ScheduledExecutorService thread;
    private volatile boolean started;

    private final BoundService<SharedStore> store = new BoundService<>();
    private final BoundService<ClusterService> cluster = new BoundService<>();
    // The sharing now and what it was opened through; changed only on the thread.
    private volatile S sharing;
    private SharedStore sharingStore;
    private ClusterService sharingCluster;

    /**
     * @param app    names the thread and the log lines
     * @param opener opens a sharing (and gives it the app's state) through the store and cluster bound
     * @param ended  told, on the thread, after a sharing was closed because the services changed, so the
     *               app drops what it had from the others (not when the app itself {@link #stop stops})
     */
    public ClusterSharing(String app, Opener<S> opener, Consumer<? super S> ended) {
        this.app = Objects.requireNonNull(app, "app");
        this.opener = Objects.requireNonNull(opener, "opener");
        this.ended = Objects.requireNonNull(ended, "ended");
        this.thread = WorkerThreads.single("heliograph-" + app + "-store");
    }

    /** Begins sharing through whatever is bound already; the app's state must be ready. */
    public void start() {
        started = true;
        execute(this::reshare);
    }

    /**
     * Stops the thread (a sharing being opened there is finished, and seen here, first), then closes
     * the sharing: this instance's part leaves the store with the app.
     */
    public void stop() {
        started = false;
        WorkerThreads.stop(thread, "heliograph-" + app + "-store", STOP_WAIT);
        S current = sharing;
        if (current != null) {
            sharing = null;
            current.close();
        }
    }

    public void bindStore(SharedStore service) {
        store.bind(service);
        execute(this::reshare);
    }

    public void unbindStore(SharedStore service) {
        store.unbind(service);
        execute(this::reshare);
    }

    public void bindCluster(ClusterService service) {
        cluster.bind(service);
        execute(this::reshare);
    }

    public void unbindCluster(ClusterService service) {
        cluster.unbind(service);
        execute(this::reshare);
    }

    /** The sharing open now, or null. */
    public S current() {
        return sharing;
    }

    /** The store bound now, or null. */
    public SharedStore store() {
        return store.get();
    }

    /**
     * Runs a task on the sharing's thread, after the changes already asked for; a failure is logged.
     * Nothing before {@link #start} or after {@link #stop}.
     */
    public void execute(Runnable task) {
        if (!started) {
            return;
        }
        try {
            thread.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    LOG.error("{}: sharing with the cluster failed", app, e);
                }
            });
        } catch (RejectedExecutionException e) {
            // Stopping.
        }
    }

    private void reshare() {
        SharedStore s = store.get();
        ClusterService c = cluster.get();
        if (sharing != null && s == sharingStore && c == sharingCluster) {
            return;
        }
        S old = sharing;
        if (old != null) {
            sharing = null;
            old.close();
            ended.accept(old);
            LOG.info("{}: no longer shared with the cluster", app);
        }
        sharingStore = s;
        sharingCluster = c;
        if (s != null && c != null) {
            S next = opener.open(s, c, thread);
            try {
                next.start();
            } catch (RuntimeException e) {
                next.close();
                throw e;
            }
            sharing = next;
            LOG.info("{}: shared with the cluster as instance {}", app, c.getLocalInstance().id());
        }
    }

    // ClusterListener: from the cluster's thread to the sharing open now

    @Override
    public void instanceJoined(ClusterInstance instance) {
        S current = sharing;
        if (current != null) {
            current.instanceJoined(instance);
        }
    }

    @Override
    public void instanceLeft(ClusterInstance instance) {
        S current = sharing;
        if (current != null) {
            current.instanceLeft(instance);
        }
    }

    @Override
    public void connectionChanged(boolean connected) {
        S current = sharing;
        if (current != null) {
            current.connectionChanged(connected);
        }
    }
}
