package io.heliograph.learningswitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class MacTableTest {

    private static final long A = 0x0200_0000_000aL;
    private static final long B = 0x0200_0000_000bL;
    private static final long IDLE = TimeUnit.SECONDS.toNanos(120);

    /** The tables' clock, moved on by the tests. */
    private long now = 1_000_000_000L;

    private MacTable table(int maxEntries) {
        return table(maxEntries, maxEntries);
    }

    private MacTable table(int maxEntries, int maxPerPort) {
        return new MacTable(maxEntries, maxPerPort, IDLE, () -> now);
    }

    @Test
    void learnsLooksUpAndForgets() {
        MacTable table = table(100);

        assertEquals(MacTable.NO_PORT, table.get(A));
        assertTrue(table.put(A, 1));
        assertTrue(table.put(B, 2));
        assertEquals(1, table.get(A));
        assertEquals(2, table.get(B));
        assertEquals(2, table.size());

        assertFalse(table.put(A, 1), "seen again on the same port: no news");
        assertTrue(table.put(A, 3), "the host moved");
        assertEquals(3, table.get(A));
        assertEquals(2, table.size());

        assertTrue(table.remove(A));
        assertFalse(table.remove(A));
        assertEquals(MacTable.NO_PORT, table.get(A));
        assertEquals(2, table.get(B));
        assertEquals(1, table.size());
    }

    @Test
    void theZeroAddressAndNoPortAreNeverStored() {
        MacTable table = table(10);

        assertFalse(table.put(0, 1));
        assertFalse(table.put(A, MacTable.NO_PORT));
        assertEquals(0, table.size());
        assertEquals(MacTable.NO_PORT, table.get(0));
    }

    @Test
    void portNumbersKeepAll32Bits() {
        MacTable table = table(10);
        table.put(A, 0xffff_ff00); // OFPP_MAX in 1.3: the highest physical port number
        assertEquals(0xffff_ff00, table.get(A));
    }

    @Test
    void addressesWiderThan48BitsAreNeverStored() {
        MacTable table = table(10);
        assertTrue(table.put(A, 1));

        assertFalse(table.put(1L << 48 | A, 2), "would share A's slot key if its upper bits were dropped");
        assertEquals(MacTable.NO_PORT, table.get(1L << 48 | A));
        assertFalse(table.remove(1L << 48 | A));
        assertEquals(1, table.get(A));
        assertEquals(1, table.size());
    }

    @Test
    void holdsHostsOnUpTo32767PortsAndLeavesTheRestUnlearned() {
        MacTable table = table(100_000);
        for (int port = 1; port <= MacTable.MAX_PORTS; port++) {
            assertTrue(table.put(0x0200_0000_0000L | port, port * 7));
        }
        long extra = 0x0200_0001_0000L;
        assertFalse(table.put(extra, 1_000_000), "no code left for a new port number");
        assertEquals(MacTable.NO_PORT, table.get(extra));
        assertTrue(table.put(extra, 7), "a port already coded still learns");
        assertEquals(7, table.get(extra));
        assertFalse(table.put(0x0200_0000_0001L, 1_000_000), "nor does a host move to an uncoded port");
        assertEquals(7, table.get(0x0200_0000_0001L));
        for (int port = 1; port <= MacTable.MAX_PORTS; port++) {
            assertEquals(port * 7, table.get(0x0200_0000_0000L | port));
        }
    }

    @Test
    void aFullTableOf65536HostsTakesOneLongPerSlot() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(tid);
        MacTable table = table(65_536);
        for (int i = 1; i <= 65_536; i++) {
            table.put(0x0200_0000_0000L | i, i % 48);
        }
        long allocated = threads.getThreadAllocatedBytes(tid) - before;
        assertEquals(131_072, table.slots());
        // 131,072 slots of 8 bytes (1 MiB), and the smaller tables it grew through: 2 MiB in all.
        // Two longs per slot would take 4 MiB (2 MiB for the last table alone).
        assertTrue(allocated < 3 * 1024 * 1024, "allocated " + allocated + " bytes");
    }

    @Test
    void touchingChangesNothingALookupCanSee() {
        MacTable table = table(10);
        table.put(A, 1);

        table.touch(A);
        table.touch(B);
        table.touch(0);

        assertEquals(1, table.size());
        assertEquals(1, table.get(A));
        assertEquals(MacTable.NO_PORT, table.get(B), "touching is not learning");
        assertTrue(table.put(B, 2), "B is still news");
    }

    @Test
    void growsAndKeepsEverything() {
        MacTable table = table(100_000);
        for (long mac = 1; mac <= 50_000; mac++) {
            table.put(0x0200_0000_0000L + mac, (int) (mac % 48) + 1);
        }
        assertEquals(50_000, table.size());
        for (long mac = 1; mac <= 50_000; mac++) {
            assertEquals((int) (mac % 48) + 1, table.get(0x0200_0000_0000L + mac));
        }
        assertTrue(table.slots() <= 131_072, "load stays within 3/4: " + table.slots());
    }

    @Test
    void neverHoldsMoreThanItsBoundAndStopsGrowing() {
        MacTable table = table(1000);
        for (long mac = 1; mac <= 100_000; mac++) {
            table.put(mac << 8 | 0x02_0000_0000_00L, 1 + (int) (mac % 48));
            assertTrue(table.size() <= 1000);
        }
        assertEquals(1000, table.size());
        assertTrue(table.slots() <= 2048, "slots: " + table.slots());
        assertEquals(99_000, table.refusedForTable(), "every address was seen just now: the rest are refused");
        assertEquals(0, table.evictedForTable());
        assertFalse(table.put(A, 7));
        assertEquals(MacTable.NO_PORT, table.get(A), "refused: unknown, so its packets are flooded");
    }

    /** The CAM-table overflow attack: a flood of new source addresses while the real hosts talk. */
    @Test
    void hostsInUseSurviveAFloodOfNewAddressesThatFillsTheTableOverAndOver() {
        MacTable table = table(100);
        List<Long> destinations = new ArrayList<>();
        List<Long> sources = new ArrayList<>();
        for (int i = 1; i <= 50; i++) {
            long mac = 0x0200_0000_0000L | i;
            table.put(mac, i);
            (i % 2 == 0 ? destinations : sources).add(mac);
        }
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 200_000; i++) {
            now += IDLE / 10_000; // the flood lasts 20 idle periods
            table.put(random.nextLong() & 0xfeff_ffff_ffffL | 1L << 40, 99);
            if (i % 1000 == 0) { // each real host is seen every tenth of the idle time
                destinations.forEach(table::get); // looked up as a destination
                sources.forEach(mac -> table.put(mac, (int) (mac & 0xff))); // or sending
            }
        }
        for (long mac : destinations) {
            assertEquals((int) (mac & 0xff), table.get(mac), "active host " + mac + " was evicted");
        }
        for (long mac : sources) {
            assertEquals((int) (mac & 0xff), table.get(mac), "active host " + mac + " was evicted");
        }
        assertTrue(table.evictedForTable() > 0, "idle flood addresses make room for newer ones");
        assertTrue(table.refusedForTable() > table.evictedForTable(), "most of the flood is turned away: "
                + table.refusedForTable() + " refused, " + table.evictedForTable() + " evicted");
    }

    @Test
    void anAddressIsEvictedOnlyOnceIdleAndThenMakesRoomForANewOne() {
        MacTable table = table(100);
        for (int i = 1; i <= 100; i++) {
            table.put(0x0200_0000_0000L | i, 1);
        }
        long start = now;
        int n = 0;
        while (table.evictedForTable() == 0) {
            now += IDLE / 1000;
            assertFalse(now - start > 3 * IDLE, "nothing evicted within three idle times");
            boolean learned = table.put(0x0400_0000_0000L | ++n, 2);
            assertEquals(table.evictedForTable() == 1, learned, "a newcomer gets in exactly when one was evicted");
        }
        assertTrue(now - start >= IDLE, "the first eviction came " + (now - start) + " ns after the last sighting");
        assertEquals(100, table.size());
        assertEquals(n - 1, table.refusedForTable());
    }

    /**
     * The guarantee, against a reference, under every pace: whatever the flood's rate and however the
     * sightings fall, an address seen within the idle time is still there.
     */
    @Test
    void anAddressSeenWithinTheIdleTimeIsNeverEvicted() {
        SplittableRandom random = new SplittableRandom(3);
        long evicted = 0;
        for (int round = 0; round < 10; round++) {
            MacTable table = table(64, random.nextInt(8, 65));
            Map<Long, Long> lastSeen = new HashMap<>();
            long[] hosts = new long[200];
            for (int h = 0; h < hosts.length; h++) {
                hosts[h] = 0x0200_0000_0000L | round << 16 | h + 1;
            }
            long pace = IDLE / random.nextInt(10, 5000);
            for (int step = 0; step < 10_000; step++) {
                now += random.nextLong(2 * pace + 1);
                long mac = hosts[random.nextInt(hosts.length)];
                if (random.nextInt(3) == 0) {
                    table.get(mac);
                } else {
                    table.put(mac, 1 + random.nextInt(4));
                }
                if (table.contains(mac)) {
                    lastSeen.put(mac, now);
                }
                for (Map.Entry<Long, Long> e : lastSeen.entrySet()) {
                    // (the address just seen may have been forgotten by a move to a full port)
                    if (e.getKey() != mac && now - e.getValue() < IDLE) {
                        assertTrue(table.contains(e.getKey()), "evicted " + (now - e.getValue())
                                + " ns after it was seen (round " + round + ", step " + step + ")");
                    }
                }
                lastSeen.keySet().removeIf(m -> !table.contains(m));
            }
            evicted += table.evictedForTable() + table.evictedForPort();
        }
        assertTrue(evicted > 1000, "idle addresses were evicted: " + evicted);
    }

    @Test
    void aFloodOnOnePortFillsOnlyItsShareAndHostsOnOtherPortsAreStillLearned() {
        MacTable table = table(1000, 100);
        for (int i = 1; i <= 10_000; i++) {
            table.put(0x0600_0000_0000L | i, 9); // the flooding port
            if (i % 100 == 0) {
                assertTrue(table.put(0x0200_0000_0000L | i, 1 + i % 7), "a host on another port, " + i);
            }
        }
        assertEquals(100, table.fullestPort());
        assertEquals(200, table.size());
        assertEquals(9_900, table.refusedForPort());
        assertEquals(0, table.refusedForTable());
        for (int i = 100; i <= 10_000; i += 100) {
            assertEquals(1 + i % 7, table.get(0x0200_0000_0000L | i));
        }
    }

    @Test
    void atAPortsBoundOnlyThatPortsIdleAddressesGiveWay() {
        MacTable table = table(1000, 10);
        for (int i = 1; i <= 10; i++) {
            table.put(0x0200_0000_0000L | i, 1); // idle from now on
            table.put(0x0600_0000_0000L | i, 9);
        }
        int n = 10;
        for (int step = 0; step < 4000; step++) {
            now += IDLE / 1000;
            table.put(0x0600_0000_0000L | ++n, 9);
        }
        assertTrue(table.evictedForPort() > 0, "port 9's idle addresses made room for its new ones");
        assertEquals(10, table.fullestPort());
        for (int i = 1; i <= 10; i++) {
            assertEquals(1, table.get(0x0200_0000_0000L | i), "port 1's hosts, idle as they are, stay");
        }
    }

    @Test
    void aHostMovingToAPortFullOfActiveAddressesIsForgottenNotLeftBehind() {
        MacTable table = table(1000, 10);
        for (int i = 1; i <= 10; i++) {
            table.put(0x0600_0000_0000L | i, 9);
        }
        table.put(A, 1);

        assertFalse(table.put(A, 9));

        assertEquals(MacTable.NO_PORT, table.get(A), "not at port 1 any more, and port 9 has no room");
        assertEquals(1, table.refusedForPort());
        assertEquals(10, table.fullestPort());
    }

    @Test
    void aMoveBetweenPortsWithRoomCountsAtTheNewPort() {
        MacTable table = table(1000, 2);
        table.put(A, 1);
        table.put(B, 1);
        assertTrue(table.put(A, 2));
        assertTrue(table.put(0x0200_0000_0001L, 1), "port 1 has room again");
        assertEquals(0, table.refusedForPort());
    }

    @Test
    void forgetsEveryHostOnAPortThatWentDown() {
        MacTable table = table(10_000);
        for (int i = 1; i <= 3000; i++) {
            table.put(0x0200_0000_0000L | i, i % 3);
        }

        assertEquals(1000, table.removePort(0));

        assertEquals(2000, table.size());
        for (int i = 1; i <= 3000; i++) {
            int expected = i % 3 == 0 ? MacTable.NO_PORT : i % 3;
            assertEquals(expected, table.get(0x0200_0000_0000L | i), "host " + i);
        }
    }

    @Test
    void behavesLikeAHashMapUnderRandomOperations() {
        // Few distinct keys in a small table: long probe runs, wrap-around and many backward shifts.
        SplittableRandom random = new SplittableRandom(42);
        MacTable table = table(1 << 20);
        Map<Long, Integer> reference = new HashMap<>();
        for (int step = 0; step < 200_000; step++) {
            long mac = random.nextInt(1, 300);
            switch (random.nextInt(5)) {
                case 0, 1 -> {
                    int port = random.nextInt(1, 10);
                    Integer old = reference.put(mac, port);
                    assertEquals(old == null || old != port, table.put(mac, port));
                }
                case 2 -> assertEquals(reference.remove(mac) != null, table.remove(mac));
                case 3 -> {
                    if (random.nextInt(100) == 0) {
                        int port = random.nextInt(1, 10);
                        int expected = (int) reference.values().stream().filter(p -> p == port).count();
                        reference.values().removeIf(p -> p == port);
                        assertEquals(expected, table.removePort(port));
                    }
                }
                default -> assertEquals(reference.getOrDefault(mac, MacTable.NO_PORT), table.get(mac));
            }
            assertEquals(reference.size(), table.size());
        }
        for (long mac = 1; mac < 300; mac++) {
            assertEquals(reference.getOrDefault(mac, MacTable.NO_PORT), table.get(mac));
        }
    }

    @Test
    void clearForgetsEverything() {
        MacTable table = table(10);
        table.put(A, 1);
        table.clear();
        assertEquals(0, table.size());
        assertEquals(MacTable.NO_PORT, table.get(A));
    }

    @Test
    void aBoundBelowOneIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> table(0));
        assertEquals("maxEntries must be at least 1, was 0", e.getMessage());
    }

    @Test
    void lookupsAllocateNothing() {
        MacTable table = table(1000);
        for (int i = 1; i <= 500; i++) {
            table.put(0x0200_0000_0000L | i, i);
        }
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long sink = 0;
        for (int round = 0; round < 200; round++) {
            for (int i = 1; i <= 500; i++) {
                sink += table.get(0x0200_0000_0000L | i);
                table.put(0x0200_0000_0000L | i, i);
            }
        }
        long tid = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(tid);
        for (int round = 0; round < 200; round++) {
            for (int i = 1; i <= 500; i++) {
                sink += table.get(0x0200_0000_0000L | i);
                table.put(0x0200_0000_0000L | i, i);
            }
        }
        long allocated = threads.getThreadAllocatedBytes(tid) - before;
        assertTrue(sink > 0);
        assertTrue(allocated < 10_000, "100k lookups and updates allocated " + allocated + " bytes");
    }
}
