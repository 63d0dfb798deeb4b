package io.heliograph.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * The entries the controller instances keep in their shared store, read straight from ZooKeeper
 * with a plain client, so a test counts store writes without trusting the controllers' own account:
 * an entry's version grows by one at each write, and an entry deleted and written again has a new
 * creation id.
 */
public final class StoreEntries {

    /** Where the controllers keep the shared store in ZooKeeper (the cluster bundle's ClusterPaths.STORE). */
    private static final String STORE = "/heliograph/store";
    /** Long, so that a loaded machine does not expire the test's own session. */
    private static final int SESSION_TIMEOUT_MS = 30_000;

    /** One entry as ZooKeeper holds it: the transaction that created it, and its writes since. */
    public record Entry(long createdZxid, int version) {
    }

    private StoreEntries() {
    }

    /** A ZooKeeper session with the servers the controllers use; close it when done. */
    public static ZooKeeper connect(String connectString, Duration timeout) {
        ZooKeeper client;
        try {
            client = new ZooKeeper(connectString, SESSION_TIMEOUT_MS, event -> { });
        } catch (IOException e) {
            throw new UncheckedIOException("connecting to ZooKeeper at " + connectString, e);
        }
        try {
            Poll.until("a ZooKeeper session with " + connectString, timeout, () -> client.getState().isConnected());
        } catch (RuntimeException | AssertionError e) {
            close(client);
            throw e;
        }
        return client;
    }

    /**
     * The entries each instance owns below {@code prefix} ({@code topology/links}), kept as
     * {@code <prefix>/<instance>/<entry>}: "instance/entry" -> its creation and version. Read again
     * from the start if the connection drops meanwhile.
     */
    public static Map<String, Entry> owned(ZooKeeper client, String prefix, Duration timeout) {
        String root = STORE + "/" + prefix;
        return Poll.until("the store's entries below " + prefix, timeout, () -> {
            try {
                return read(client, root);
            } catch (KeeperException e) {
                throw new IllegalStateException("reading " + root + ": " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted reading " + root, e);
            }
        }, entries -> true);
    }

    private static Map<String, Entry> read(ZooKeeper client, String root) throws KeeperException, InterruptedException {
        Map<String, Entry> entries = new TreeMap<>();
        List<String> owners;
        try {
            owners = client.getChildren(root, false);
        } catch (KeeperException.NoNodeException e) {
            return entries;
        }
        for (String owner : owners) {
            List<String> ids;
            try {
                ids = client.getChildren(root + "/" + owner, false);
            } catch (KeeperException.NoNodeException deletedMeanwhile) {
                continue;
            }
            for (String id : ids) {
                Stat stat = client.exists(root + "/" + owner + "/" + id, false);
                if (stat != null) {
                    entries.put(owner + "/" + id, new Entry(stat.getCzxid(), stat.getVersion()));
                }
            }
        }
        return entries;
    }

    /** Closes a session, as a cleanup does: an interruption is kept for the caller. */
    public static void close(ZooKeeper client) {
        try {
            client.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
