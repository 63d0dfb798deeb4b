package io.heliograph.learningswitch;

/**
 * Where each MAC address was last seen on one switch: a map from 48-bit MAC (in a long) to port
 * number (an int), with open addressing and linear probing over primitive arrays, so a lookup
 * costs a multiply and a few array reads and allocates nothing (a {@code HashMap<Long, Integer>}
 * boxes both sides and chases pointers). A slot is two adjacent longs, the MAC and then the port
 * with the CLOCK reference bit, so a probe touches one cache line: with 16 switches of 100,000 hosts
 * each the tables outgrow the CPU caches, and the misses are what a lookup costs.
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
    /** In a slot's second long, above the port's 32 bits: looked up since the CLOCK hand last passed. */
    private static final long REFERENCED = 1L << 32;
    private static final long PORT_BITS = 0xffff_ffffL;

    private final int maxEntries;
    /** Slot i is table[2i] (the MAC, or EMPTY) and table[2i + 1] (port | REFERENCED). */
    private long[] table;
    private int slotMask;
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
        long[] t = table;
        for (int i = slot(mac); ; i = (i + 1) & slotMask) {
            long key = t[2 * i];
            if (key == mac) {
                long value = t[2 * i + 1] | REFERENCED;
                t[2 * i + 1] = value;
                return (int) value;
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
        long[] t = table;
        int i = slot(mac);
        for (; t[2 * i] != EMPTY; i = (i + 1) & slotMask) {
            if (t[2 * i] == mac) {
                long value = t[2 * i + 1];
                boolean moved = (int) value != port;
                t[2 * i + 1] = (value & REFERENCED) | (port & PORT_BITS);
                return moved;
            }
        }
        if (size >= maxEntries) {
            evictOne();
            return put(mac, port); // the eviction shifted entries: probe again
        }
        if ((size + 1) * 4L > (slotMask + 1) * 3L) {
            grow(); // keep the load under 3/4 so probe runs stay short
            return put(mac, port);
        }
        t[2 * i] = mac;
        t[2 * i + 1] = port & PORT_BITS;
        size++;
        return true;
    }

    /** Forgets {@code mac}; returns whether it was known. */
    boolean remove(long mac) {
        if (mac == EMPTY) {
            return false;
        }
        for (int i = slot(mac); table[2 * i] != EMPTY; i = (i + 1) & slotMask) {
            if (table[2 * i] == mac) {
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
        for (int i = 0; i <= slotMask; i++) {
            if (table[2 * i] != EMPTY && (int) table[2 * i + 1] == port) {
                doomed[n++] = table[2 * i];
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
        while (true) {
            int i = hand;
            hand = (hand + 1) & slotMask;
            if (table[2 * i] == EMPTY) {
                continue;
            }
            long value = table[2 * i + 1];
            if ((value & REFERENCED) != 0) {
                table[2 * i + 1] = value & ~REFERENCED;
                continue;
            }
            removeAt(i);
            return;
        }
    }

    /** Deletes slot {@code hole} and shifts later entries of the probe run back, so no tombstones are needed. */
    private void removeAt(int hole) {
        long[] t = table;
        for (int j = (hole + 1) & slotMask; t[2 * j] != EMPTY; j = (j + 1) & slotMask) {
            int home = slot(t[2 * j]);
            // The entry at j may fill the hole if the hole lies on its probe path (home .. j).
            if (((j - home) & slotMask) >= ((j - hole) & slotMask)) {
                t[2 * hole] = t[2 * j];
                t[2 * hole + 1] = t[2 * j + 1];
                hole = j;
            }
        }
        t[2 * hole] = EMPTY;
        t[2 * hole + 1] = 0;
        size--;
    }

    /** Fresh, empty table of {@code slots} slots (a power of two). */
    private void allocate(int slots) {
        table = new long[2 * slots];
        slotMask = slots - 1;
        shift = 64 - Integer.numberOfTrailingZeros(slots);
        size = 0;
        hand = 0;
    }

    /** Doubles the slots and re-inserts every entry, reference bits kept. */
    private void grow() {
        long[] old = table;
        allocate(2 * (slotMask + 1));
        for (int k = 0; k < old.length; k += 2) {
            long mac = old[k];
            if (mac != EMPTY) {
                int i = slot(mac);
                while (table[2 * i] != EMPTY) {
                    i = (i + 1) & slotMask;
                }
                table[2 * i] = mac;
                table[2 * i + 1] = old[k + 1];
                size++;
            }
        }
    }

    @Override
    public String toString() {
        return "MacTable[size=" + size + ", max=" + maxEntries + ", slots=" + (slotMask + 1) + "]";
    }

    /** For tests: the number of slots, to check the table does not grow past what its bound needs. */
    int slots() {
        return slotMask + 1;
    }
}
