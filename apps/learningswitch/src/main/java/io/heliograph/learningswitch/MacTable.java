package io.heliograph.learningswitch;

/**
 * Where each MAC address was last seen on one switch: a map from 48-bit MAC (in a long) to port
 * number (an int), with open addressing and linear probing over a primitive array, so a lookup
 * costs a multiply and a few array reads and allocates nothing (a {@code HashMap<Long, Integer>}
 * boxes both sides and chases pointers).
 *
 * <p>A slot is one long: the MAC in its upper 48 bits, then the CLOCK reference bit, then the port's
 * code in 15 bits, an index into the switch's few port numbers. With 16 switches of 65,536 hosts each
 * the tables take 16 MiB, not the 32 MiB of a MAC and a port in two longs: the cache misses of the
 * one random slot read per packet-in are what a lookup costs, and a smaller table misses less.
 * A switch whose packets come from more than {@value #MAX_PORTS} distinct port numbers has hosts on
 * the others not learned (their packets are flooded); no real switch has that many.
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
    /** How many distinct port numbers one table can hold. */
    static final int MAX_PORTS = 0x7fff;

    private static final long EMPTY = 0; // MAC 0 is never learned
    private static final int MIN_SLOTS = 16;
    private static final long GOLDEN = 0x9E37_79B9_7F4A_7C15L;
    private static final int MAC_SHIFT = 16;
    private static final long MAC_BITS = -1L << MAC_SHIFT;
    /** Looked up since the CLOCK hand last passed. */
    private static final long REFERENCED = 1L << 15;
    private static final long CODE_BITS = REFERENCED - 1;

    private final int maxEntries;
    /** Each slot is EMPTY or MAC &lt;&lt; 16 | REFERENCED? | port code. */
    private long[] table;
    private int slotMask;
    private int shift;
    private int size;
    private int hand;
    /** The port number of each code. */
    private int[] ports;
    private int portCount;
    /** The code looked up last, to spare the search for a port that sends again and again. */
    private int lastPort;
    private int lastCode;
    /** What {@link #touch} read, kept so the read is not optimised away. */
    private long touched;

    MacTable(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be at least 1, was " + maxEntries);
        }
        this.maxEntries = maxEntries;
        clear();
    }

    int size() {
        return size;
    }

    int maxEntries() {
        return maxEntries;
    }

    /** The port where {@code mac} was last seen, or {@link #NO_PORT}. */
    int get(long mac) {
        if (!learnable(mac)) {
            return NO_PORT;
        }
        long key = mac << MAC_SHIFT;
        long[] t = table;
        for (int i = slot(mac); ; i = (i + 1) & slotMask) {
            long s = t[i];
            if ((s & MAC_BITS) == key) {
                if ((s & REFERENCED) == 0) {
                    t[i] = s | REFERENCED;
                }
                return ports[(int) (s & CODE_BITS)];
            }
            if (s == EMPTY) {
                return NO_PORT;
            }
        }
    }

    /**
     * Reads the home slot of {@code mac}, so that a lookup soon after finds it in the CPU's caches.
     * Changes nothing a lookup can see.
     */
    void touch(long mac) {
        touched += table[slot(mac)];
    }

    /**
     * Records that {@code mac} was seen on {@code port}. Returns true when that is news (a new host or
     * a host that moved). MAC 0, addresses wider than 48 bits and {@link #NO_PORT} are ignored.
     */
    boolean put(long mac, int port) {
        if (!learnable(mac) || port == NO_PORT) {
            return false;
        }
        long key = mac << MAC_SHIFT;
        long[] t = table;
        int i = slot(mac);
        for (long s; (s = t[i]) != EMPTY; i = (i + 1) & slotMask) {
            if ((s & MAC_BITS) == key) {
                if (ports[(int) (s & CODE_BITS)] == port) {
                    return false;
                }
                int code = code(port);
                if (code < 0) {
                    return false;
                }
                t[i] = key | (s & REFERENCED) | code;
                return true;
            }
        }
        int code = code(port);
        if (code < 0) {
            return false;
        }
        if (size >= maxEntries) {
            evictOne();
            return put(mac, port); // the eviction shifted entries: probe again
        }
        if ((size + 1) * 4L > (slotMask + 1) * 3L) {
            grow(); // keep the load under 3/4 so probe runs stay short
            return put(mac, port);
        }
        t[i] = key | code;
        size++;
        return true;
    }

    /** Forgets {@code mac}; returns whether it was known. */
    boolean remove(long mac) {
        if (!learnable(mac)) {
            return false;
        }
        long key = mac << MAC_SHIFT;
        for (int i = slot(mac); table[i] != EMPTY; i = (i + 1) & slotMask) {
            if ((table[i] & MAC_BITS) == key) {
                removeAt(i);
                return true;
            }
        }
        return false;
    }

    /** Forgets every address seen on {@code port} (it went down); returns how many. */
    int removePort(int port) {
        int code = -1;
        for (int c = 0; c < portCount && code < 0; c++) {
            if (ports[c] == port) {
                code = c;
            }
        }
        if (code < 0) {
            return 0;
        }
        long[] doomed = new long[size];
        int n = 0;
        for (long s : table) {
            if (s != EMPTY && (s & CODE_BITS) == code) {
                doomed[n++] = s >>> MAC_SHIFT;
            }
        }
        for (int i = 0; i < n; i++) {
            remove(doomed[i]);
        }
        return n;
    }

    void clear() {
        allocate(MIN_SLOTS);
        ports = new int[4];
        portCount = 0;
        lastPort = NO_PORT;
    }

    private static boolean learnable(long mac) {
        return mac != EMPTY && mac >>> 48 == 0;
    }

    private int slot(long mac) {
        return (int) ((mac * GOLDEN) >>> shift); // Fibonacci hashing: MACs differ mostly in their low bits
    }

    /** The code of {@code port}, given one if it is new; -1 when {@link #MAX_PORTS} codes are taken. */
    private int code(int port) {
        if (port == lastPort) {
            return lastCode;
        }
        int code = 0;
        while (code < portCount && ports[code] != port) {
            code++;
        }
        if (code == portCount) {
            if (portCount == MAX_PORTS) {
                return -1;
            }
            if (portCount == ports.length) {
                ports = java.util.Arrays.copyOf(ports, Math.min(2 * portCount, MAX_PORTS));
            }
            ports[portCount++] = port;
        }
        lastPort = port;
        lastCode = code;
        return code;
    }

    /** CLOCK: sweep from the hand, clearing reference bits, and evict the first unreferenced entry. */
    private void evictOne() {
        while (true) {
            int i = hand;
            hand = (hand + 1) & slotMask;
            long s = table[i];
            if (s == EMPTY) {
                continue;
            }
            if ((s & REFERENCED) != 0) {
                table[i] = s & ~REFERENCED;
                continue;
            }
            removeAt(i);
            return;
        }
    }

    /** Deletes slot {@code hole} and shifts later entries of the probe run back, so no tombstones are needed. */
    private void removeAt(int hole) {
        long[] t = table;
        for (int j = (hole + 1) & slotMask; t[j] != EMPTY; j = (j + 1) & slotMask) {
            int home = slot(t[j] >>> MAC_SHIFT);
            // The entry at j may fill the hole if the hole lies on its probe path (home .. j).
            if (((j - home) & slotMask) >= ((j - hole) & slotMask)) {
                t[hole] = t[j];
                hole = j;
            }
        }
        t[hole] = EMPTY;
        size--;
    }

    /** Fresh, empty table of {@code slots} slots (a power of two). */
    private void allocate(int slots) {
        table = new long[slots];
        slotMask = slots - 1;
        shift = 64 - Integer.numberOfTrailingZeros(slots);
        size = 0;
        hand = 0;
    }

    /** Doubles the slots and re-inserts every entry, reference bits kept. */
    private void grow() {
        long[] old = table;
        allocate(2 * (slotMask + 1));
        for (long s : old) {
            if (s != EMPTY) {
                int i = slot(s >>> MAC_SHIFT);
                while (table[i] != EMPTY) {
                    i = (i + 1) & slotMask;
                }
                table[i] = s;
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
