package io.heliograph.core.cluster;

import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Keyed values shared by every instance of the cluster, kept in ZooKeeper: a write that returned is
 * durable on a quorum and read by every instance. Keys are paths of segments separated by '/'
 * ({@code staticflows/entries/flow-1}); a segment is 1-200 characters from letters, digits and
 * {@code . _ - : @}. Values are opaque bytes (apps write JSON), at most {@link #MAX_VALUE_BYTES}.
 *
 * <p>Every method fails with {@link StoreUnavailableException} while this instance has no ZooKeeper
 * session, and with IllegalArgumentException naming the problem for a bad key or value.
 */
public interface SharedStore {

    int MAX_VALUE_BYTES = 512 * 1024;

    /** The value at a key, empty when there is none. */
    Optional<Versioned> get(String key);

    /** Sets a key's value, whatever it was. */
    Versioned put(String key, byte[] value);

    /**
     * Sets a key's value only if its version is still {@code expectedVersion}
     * ({@link Versioned#ABSENT}: only if the key does not exist). Empty when another write came first.
     */
    Optional<Versioned> replace(String key, long expectedVersion, byte[] value);

    /**
     * Reads, changes and writes a key atomically, retrying when another write comes in between.
     * The change gets null for an absent key and returns null to delete it. Returns the value written
     * (empty when deleted).
     */
    Optional<Versioned> update(String key, UnaryOperator<byte[]> change);

    /** Deletes a key and whatever is below it; false when there was nothing. */
    boolean delete(String key);

    /** The values directly below a key ({@code list("staticflows/entries")}), by their last segment. */
    Map<String, Versioned> list(String parent);

    /**
     * Watches the keys below a prefix: the listener first gets every existing value, then each
     * change, on one store thread in order. Closing the watch stops it.
     */
    Watch watch(String prefix, StoreListener listener);

    /**
     * Competes for the leadership of {@code name} among the instances that ask: exactly one leads at
     * a time, and the listener hears when this instance gains or loses it. A leader that loses its
     * ZooKeeper session is told before another can lead. Closing gives it up.
     */
    Watch lead(String name, LeadershipListener listener);

    /** A value with its version, which grows by one at every write of its key. */
    record Versioned(String key, byte[] value, long version) {
        /** The version of a key that does not exist, for {@link #replace}. */
        public static final long ABSENT = -1;
    }

    /** Changes below a watched prefix. */
    interface StoreListener {
        void changed(Versioned value);

        void removed(String key);
    }

    interface LeadershipListener {
        void leadershipChanged(boolean leader);
    }

    /** A running watch or election; closing it ends it. */
    interface Watch extends AutoCloseable {
        @Override
        void close();
    }

    /** No ZooKeeper session: nothing was read or written. */
    final class StoreUnavailableException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public StoreUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
