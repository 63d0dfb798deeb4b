package io.heliograph.core.cluster;

import java.util.concurrent.ScheduledExecutorService;

/**
 * An app's {@link ClusterSharing.Sharing} made of {@link OwnedEntries}: this instance's entries under
 * a prefix of the store, and the other live instances' entries handed to the subclass, which says
 * what an entry is (a link, a host) through {@link OwnedEntries.Listener}. The lifecycle and the
 * cluster's events go to the entries.
 */
public abstract class EntrySharing implements OwnedEntries.Listener, ClusterSharing.Sharing {

    /** This instance's entries; the subclass puts and removes them. */
    protected final OwnedEntries entries;

    /**
     * @param thread       writes this instance's entries (coalesced) and sweeps the others'
     * @param flushDelayMs how long a change waits for others to be written with it
     * @param retainMs     how long the entries of an instance that left stay in view
     */
    protected EntrySharing(SharedStore store, ClusterService cluster, String prefix, ScheduledExecutorService thread,
            long flushDelayMs, long retainMs) {
        this.entries = new OwnedEntries(store, cluster, prefix, this, thread, flushDelayMs, retainMs);
    }

    /** Starts watching the others' entries; call after this instance's were given. */
    @Override
    public void start() {
        entries.start();
    }

    /** This instance's id. */
    public String self() {
        return entries.self();
    }

    /** The store writes made for this instance's entries (and to clear those of instances gone). */
    public long writes() {
        return entries.writes();
    }

    /** Writes the pending changes now (tests; the thread does it on its own). */
    public void flush() {
        entries.flush();
    }

    /** Stops sharing and removes this instance's entries from the store. */
    @Override
    public void close() {
        entries.close();
    }

    @Override
    public void instanceJoined(ClusterInstance instance) {
        entries.instanceJoined(instance);
    }

    @Override
    public void instanceLeft(ClusterInstance instance) {
        entries.instanceLeft(instance);
    }

    @Override
    public void connectionChanged(boolean connected) {
        entries.connectionChanged(connected);
    }
}
