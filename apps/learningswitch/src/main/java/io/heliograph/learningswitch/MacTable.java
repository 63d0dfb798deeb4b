package io.heliograph.learningswitch;

import java.util.Arrays;
import java.util.function.LongSupplier;

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
 * <p>Bounded, in all ({@code maxEntries}) and per port ({@code maxPerPort}), so that a flood of fake
 * source addresses (a MAC flooding attack, the CAM-table overflow) cannot push out the hosts that are
 * talking. At a bound a new address takes the place of an <em>idle</em> one, chosen by the CLOCK
 * algorithm (second chance): every sighting of an address, as source or destination, sets its
 * reference bit; the hand clears the bits it passes and evicts the first entry found unreferenced
 * (of the same port, at the per-port bound). The hand's speed is paced by time: it may pass at most
 * 3/4 of the slots per {@code idleNanos}, holding at most a quarter of them in reserve, so it cannot
 * pass one slot twice within {@code idleNanos}: <b>an address seen within {@code idleNanos} is never
 * evicted</b>. When the hand finds no idle entry within its allowance, the new address is refused
 * (its packets are flooded, as for any unknown destination) and counted; so a flood fills the table
 * once and is then turned away, at the cost of one clock read per refused address. A host that moves
 * to a port at its bound, with nothing idle there to give way, is forgotten rather than left at its
 * old port; its next packets are flooded to it.
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
    /** Seen (learned, or looked up as a destination) since the CLOCK hand last passed. */
    private static final long REFERENCED = 1L << 15;
    private static final long CODE_BITS = REFERENCED - 1;
    /** For {@link #evictIdle}: any port's entry may go. */
    private static final int ANY_PORT = -1;

    private final int maxEntries;
    private final int maxPerPort;
    private final long idleNanos;
    private final LongSupplier nanoClock;
    /** Each slot is EMPTY or MAC &lt;&lt; 16 | REFERENCED? | port code. */
    private long[] table;
    private int slotMask;
    private int shift;
    private int size;
    private int hand;
    /** The port number of each code, and how many entries have it. */
    private int[] ports;
    private int[] entriesPerCode;
    private int portCount;
    /** Slots the hand may still pass, since when it has been earning, and how long it takes to earn one. */
    private long handAllowance;
    private long allowanceSince;
    private long nanosPerSlot;
    // Counted on the switch's thread, read racily by the reporting thread (a figure may lag a moment).
    private long evictedForTable;
    private long refusedForTable;
    private long evictedForPort;
    private long refusedForPort;
    /** The code looked up last, to spare the search for a port that sends again and again. */
    private int lastPort;
    private int lastCode;
    /** What {@link #touch} read, kept so the read is not optimised away. */
    private long touched;

    /**
     * @param maxEntries the most addresses held
     * @param maxPerPort the most addresses held on one port
     * @param idleNanos  an address seen within this long is never evicted
     * @param nanoClock  a monotonic clock ({@code System::nanoTime}); read only at a bound
     */
    MacTable(int maxEntries, int maxPerPort, long idleNanos, LongSupplier nanoClock) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be at least 1, was " + maxEntries);
        }
        if (maxPerPort < 1) {
            throw new IllegalArgumentException("maxPerPort must be at least 1, was " + maxPerPort);
        }
        if (idleNanos < 1) {
            throw new IllegalArgumentException("idleNanos must be at least 1, was " + idleNanos);
        }
        this.maxEntries = maxEntries;
        this.maxPerPort = maxPerPort;
        this.idleNanos = idleNanos;
        this.nanoClock = nanoClock;
        clear();
    }

    int size() {
        return size;
    }

    int maxEntries() {
        return maxEntries;
    }

    /** Addresses evicted for new ones at the table's bound since it was made. */
    long evictedForTable() {
        return evictedForTable;
    }

    /** New addresses refused at the table's bound since it was made. */
    long refusedForTable() {
        return refusedForTable;
    }

    /** Addresses evicted for new ones (or hosts that moved) at a port's bound since the table was made. */
    long evictedForPort() {
        return evictedForPort;
    }

    /** New addresses (or moves) refused at a port's bound since the table was made. */
    long refusedForPort() {
        return refusedForPort;
    }

    /** The most addresses held on one port now. */
    int fullestPort() {
        int[] counts = entriesPerCode;
        int most = 0;
        for (int c = 0, n = Math.min(portCount, counts.length); c < n; c++) {
            most = Math.max(most, counts[c]);
        }
        return most;
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
     * a host that moved). MAC 0, addresses wider than 48 bits and {@link #NO_PORT} are ignored; an
     * address refused at a bound is not news (see the class comment).
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
                    if ((s & REFERENCED) == 0) {
                        t[i] = s | REFERENCED; // seen: spared by the hand's next pass
                    }
                    return false;
                }
                return move(mac, i, s, port);
            }
        }
        return insert(mac, i, port);
    }

    /** {@code mac}, at slot {@code i} as {@code s}, now seen on another port. */
    private boolean move(long mac, int i, long s, int port) {
        int code = code(port);
        if (code < 0) {
            return false;
        }
        if (entriesPerCode[code] >= maxPerPort) {
            if (makeRoomOnPort(code)) {
                return put(mac, port); // the eviction shifted entries: probe again
            }
            remove(mac); // not left where it no longer is: its packets are flooded to it
            return false;
        }
        entriesPerCode[(int) (s & CODE_BITS)]--;
        entriesPerCode[code]++;
        table[i] = (s & MAC_BITS) | REFERENCED | code;
        return true;
    }

    /** A new {@code mac}; {@code free} is the empty slot its probe ended at. */
    private boolean insert(long mac, int free, int port) {
        int code = code(port);
        if (code < 0) {
            return false;
        }
        if (entriesPerCode[code] >= maxPerPort) {
            return makeRoomOnPort(code) && put(mac, port);
        }
        if (size >= maxEntries) {
            if (evictIdle(ANY_PORT)) {
                evictedForTable++;
                return put(mac, port);
            }
            refusedForTable++;
            return false;
        }
        if ((size + 1) * 4L > (slotMask + 1) * 3L) {
            grow(); // keep the load under 3/4 so probe runs stay short
            return put(mac, port);
        }
        table[free] = mac << MAC_SHIFT | REFERENCED | code;
        entriesPerCode[code]++;
        size++;
        return true;
    }

    /** Whether {@code mac} is held, without counting as a sighting (for tests and diagnostics). */
    boolean contains(long mac) {
        if (!learnable(mac)) {
            return false;
        }
        long key = mac << MAC_SHIFT;
        for (int i = slot(mac); table[i] != EMPTY; i = (i + 1) & slotMask) {
            if ((table[i] & MAC_BITS) == key) {
                return true;
            }
        }
        return false;
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
        entriesPerCode = new int[4];
        portCount = 0;
        lastPort = NO_PORT;
        handAllowance = 0;
        allowanceSince = nanoClock.getAsLong();
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
                ports = Arrays.copyOf(ports, Math.min(2 * portCount, MAX_PORTS));
                entriesPerCode = Arrays.copyOf(entriesPerCode, ports.length);
            }
            ports[portCount++] = port;
        }
        lastPort = port;
        lastCode = code;
        return code;
    }

    /** At a port's bound: evicts an idle address of that port, or says there is none; counted either way. */
    private boolean makeRoomOnPort(int code) {
        if (evictIdle(code)) {
            evictedForPort++;
            return true;
        }
        refusedForPort++;
        return false;
    }

    /**
     * CLOCK, paced: sweeps from the hand, clearing reference bits, and evicts the first unreferenced
     * entry of {@code code} (or of any port), as far as the hand's allowance goes. False when it found
     * none: every entry passed was in use.
     */
    private boolean evictIdle(int code) {
        topUpAllowance();
        while (handAllowance > 0) {
            handAllowance--;
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
            if (code == ANY_PORT || (s & CODE_BITS) == code) {
                removeAt(i);
                return true;
            }
        }
        return false;
    }

    /**
     * The hand earns 3/4 of the slots per {@code idleNanos} and keeps at most a quarter in reserve:
     * passing a slot twice takes a whole turn, which it cannot make in less than {@code idleNanos}.
     */
    private void topUpAllowance() {
        long elapsed = nanoClock.getAsLong() - allowanceSince;
        if (elapsed >= nanosPerSlot) { // else the time goes on counting towards the next slot
            long earned = elapsed / nanosPerSlot;
            handAllowance = Math.min((slotMask + 1) / 4, handAllowance + earned);
            allowanceSince += earned * nanosPerSlot;
        }
    }

    /**
     * Deletes slot {@code hole} and shifts later entries of the probe run back, so no tombstones are
     * needed. A shifted entry is marked referenced: moved back, the hand could reach it again a few
     * slots short of a whole turn, so it is spared once more instead.
     */
    private void removeAt(int hole) {
        long[] t = table;
        entriesPerCode[(int) (t[hole] & CODE_BITS)]--;
        for (int j = (hole + 1) & slotMask; t[j] != EMPTY; j = (j + 1) & slotMask) {
            int home = slot(t[j] >>> MAC_SHIFT);
            // The entry at j may fill the hole if the hole lies on its probe path (home .. j).
            if (((j - home) & slotMask) >= ((j - hole) & slotMask)) {
                t[hole] = t[j] | REFERENCED;
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
        // rounded up, so the hand never earns faster than 3/4 of the slots per idleNanos
        nanosPerSlot = Math.max(1, (4 * idleNanos + 3L * slots - 1) / (3L * slots));
    }

    /**
     * Doubles the slots and re-inserts every entry, each marked referenced: the entries move, and the
     * hand starts over, so each is spared once more rather than passed twice too soon.
     */
    private void grow() {
        long[] old = table;
        allocate(2 * (slotMask + 1));
        for (long s : old) {
            if (s != EMPTY) {
                s |= REFERENCED;
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
        return "MacTable[size=" + size + ", max=" + maxEntries + ", maxPerPort=" + maxPerPort + ", slots="
                + (slotMask + 1) + "]";
    }

    /** For tests: the number of slots, to check the table does not grow past what its bound needs. */
    int slots() {
        return slotMask + 1;
    }
}
