package io.heliograph.learningswitch;

/**
 * Where each MAC address was last seen on one switch: a map from 48-bit MAC (in a long) to port
 * number (an int), with open addressing and linear probing over primitive arrays, so a lookup
 * costs a multiply and a few array reads and allocates nothing (a {@code HashMap<Long, Integer>}
 * boxes both sides and chases pointers).
 *
 * <p>Not thread-safe, on purpose: a switch's packet-ins are handled on one thread for its whole
 * connection, so its table needs no lock.
 *
 * <p>Bounded: when {@code maxEntries} hosts are known and a new one arrives, one entry is evicted
 * with the CLOCK algorithm (second chance): entries looked up since the hand last passed are
 * spared. A host that keeps talking stays in the table while a flood of fake source addresses
 * (a MAC flooding attack) only pushes out itself; an evicted host is relearned at its next packet.
 */
final class MacTable {

    /** What {@link #get} answers for an unknown address; no switch port has this number (it is OFPP_ANY). */
    static final int NO_PORT = -1;

    private static final long EMPTY = 0; // MAC 0 is never learned
    private static final int MIN_SLOTS = 16;
    private static final long GOLDEN = 0x9E37_79B9_7F4A_7C15L;

    private final int maxEntries;
    private long[] keys;
    private int[] ports;
    private boolean[] referenced;
    private int shift;
    private int size;
    private int hand;

    MacTable(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be at least 1, was " + maxEntries);
        }
        this.maxEntries = maxEntries;
        allocate(MIN_SLOTS);
    }

    int size() {
        return size;
    }

    int maxEntries() {
        return maxEntries;
    }

    /** The port where {@code mac} was last seen, or {@link #NO_PORT}. */
    int get(long mac) {
        if (mac == EMPTY) {
            return NO_PORT;
        }
        int mask = keys.length - 1;
        for (int i = slot(mac); ; i = (i + 1) & mask) {
            long key = keys[i];
            if (key == mac) {
                referenced[i] = true;
                return ports[i];
            }
            if (key == EMPTY) {
                return NO_PORT;
            }
        }
    }

    /**
     * Records that {@code mac} was seen on {@code port}. Returns true when that is news (a new host or
     * a host that moved). MAC 0 and {@link #NO_PORT} are ignored.
     */
    boolean put(long mac, int port) {
        if (mac == EMPTY || port == NO_PORT) {
            return false;
        }
        int mask = keys.length - 1;
        int i = slot(mac);
        for (; keys[i] != EMPTY; i = (i + 1) & mask) {
            if (keys[i] == mac) {
                boolean moved = ports[i] != port;
                ports[i] = port;
                return moved;
            }
        }
        if (size >= maxEntries) {
            evictOne();
            return put(mac, port); // the eviction shifted entries: probe again
        }
        if ((size + 1) * 4L > keys.length * 3L) {
            grow(); // keep the load under 3/4 so probe runs stay short
            return put(mac, port);
        }
        keys[i] = mac;
        ports[i] = port;
        referenced[i] = false;
        size++;
        return true;
    }

    /** Forgets {@code mac}; returns whether it was known. */
    boolean remove(long mac) {
        if (mac == EMPTY) {
            return false;
        }
        int mask = keys.length - 1;
        for (int i = slot(mac); keys[i] != EMPTY; i = (i + 1) & mask) {
            if (keys[i] == mac) {
                removeAt(i);
                return true;
            }
        }
        return false;
    }

    /** Forgets every address seen on {@code port} (it went down); returns how many. */
    int removePort(int port) {
        long[] doomed = new long[size];
        int n = 0;
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != EMPTY && ports[i] == port) {
                doomed[n++] = keys[i];
            }
        }
        for (int i = 0; i < n; i++) {
            remove(doomed[i]);
        }
        return n;
    }

    void clear() {
        allocate(MIN_SLOTS);
    }

    private int slot(long mac) {
        return (int) ((mac * GOLDEN) >>> shift); // Fibonacci hashing: MACs differ mostly in their low bits
    }

    /** CLOCK: sweep from the hand, clearing reference bits, and evict the first unreferenced entry. */
    private void evictOne() {
        int mask = keys.length - 1;
        while (true) {
            int i = hand;
            hand = (hand + 1) & mask;
            if (keys[i] == EMPTY) {
                continue;
            }
            if (referenced[i]) {
                referenced[i] = false;
                continue;
            }
            removeAt(i);
            return;
        }
    }

    /** Deletes slot {@code hole} and shifts later entries of the probe run back, so no tombstones are needed. */
    private void removeAt(int hole) {
        int mask = keys.length - 1;
        for (int j = (hole + 1) & mask; keys[j] != EMPTY; j = (j + 1) & mask) {
            int home = slot(keys[j]);
            // The entry at j may fill the hole if the hole lies on its probe path (home .. j).
            if (((j - home) & mask) >= ((j - hole) & mask)) {
                keys[hole] = keys[j];
                ports[hole] = ports[j];
                referenced[hole] = referenced[j];
                hole = j;
            }
        }
        keys[hole] = EMPTY;
        referenced[hole] = false;
        size--;
    }

    /** Fresh, empty arrays of {@code slots} slots (a power of two). */
    private void allocate(int slots) {
        keys = new long[slots];
        ports = new int[slots];
        referenced = new boolean[slots];
        shift = 64 - Integer.numberOfTrailingZeros(slots);
        size = 0;
        hand = 0;
    }

    /** Doubles the slots and re-inserts every entry, reference bits kept. */
    private void grow() {
        long[] oldKeys = keys;
        int[] oldPorts = ports;
        boolean[] oldReferenced = referenced;
        allocate(oldKeys.length * 2);
        int mask = keys.length - 1;
        for (int k = 0; k < oldKeys.length; k++) {
            long mac = oldKeys[k];
            if (mac != EMPTY) {
                int i = slot(mac);
                while (keys[i] != EMPTY) {
                    i = (i + 1) & mask;
                }
                keys[i] = mac;
                ports[i] = oldPorts[k];
                referenced[i] = oldReferenced[k];
                size++;
            }
        }
    }

    @Override
    public String toString() {
        return "MacTable[size=" + size + ", max=" + maxEntries + ", slots=" + keys.length + "]";
    }

    /** For tests: the number of slots, to check the table does not grow past what its bound needs. */
    int slots() {
        return keys.length;
    }
}
