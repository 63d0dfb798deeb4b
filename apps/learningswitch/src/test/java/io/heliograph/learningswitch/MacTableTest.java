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

import org.junit.jupiter.api.Test;

class MacTableTest {

    private static final long A = 0x0200_0000_000aL;
    private static final long B = 0x0200_0000_000bL;

    @Test
    void learnsLooksUpAndForgets() {
        MacTable table = new MacTable(100);

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
        MacTable table = new MacTable(10);

        assertFalse(table.put(0, 1));
        assertFalse(table.put(A, MacTable.NO_PORT));
        assertEquals(0, table.size());
        assertEquals(MacTable.NO_PORT, table.get(0));
    }

    @Test
    void portNumbersKeepAll32Bits() {
        MacTable table = new MacTable(10);
        table.put(A, 0xffff_ff00); // OFPP_MAX in 1.3: the highest physical port number
        assertEquals(0xffff_ff00, table.get(A));
    }

    @Test
    void addressesWiderThan48BitsAreNeverStored() {
        MacTable table = new MacTable(10);
        assertTrue(table.put(A, 1));

        assertFalse(table.put(1L << 48 | A, 2), "would share A's slot key if its upper bits were dropped");
        assertEquals(MacTable.NO_PORT, table.get(1L << 48 | A));
        assertFalse(table.remove(1L << 48 | A));
        assertEquals(1, table.get(A));
        assertEquals(1, table.size());
    }

    @Test
    void holdsHostsOnUpTo32767PortsAndLeavesTheRestUnlearned() {
        MacTable table = new MacTable(100_000);
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
        MacTable table = new MacTable(65_536);
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
        MacTable table = new MacTable(10);
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
        MacTable table = new MacTable(100_000);
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
        MacTable table = new MacTable(1000);
        for (long mac = 1; mac <= 100_000; mac++) {
            table.put(mac << 8 | 0x02_0000_0000_00L, 1);
            assertTrue(table.size() <= 1000);
        }
        assertEquals(1000, table.size());
        assertTrue(table.slots() <= 2048, "slots: " + table.slots());
        assertTrue(table.put(A, 7), "a new host still gets in");
        assertEquals(7, table.get(A));
    }

    @Test
    void hostsInUseSurviveAFloodOfNewAddresses() {
        MacTable table = new MacTable(100);
        List<Long> active = new ArrayList<>();
        for (int i = 1; i <= 50; i++) {
            long mac = 0x0200_0000_0000L | i;
            table.put(mac, i);
            active.add(mac);
        }
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 10_000; i++) {
            table.put(random.nextLong() & 0xfeff_ffff_ffffL | 1L << 40, 99); // a MAC flooding attack
            for (long mac : active) {
                table.get(mac); // the real hosts keep talking
            }
        }
        for (int i = 0; i < active.size(); i++) {
            assertEquals(i + 1, table.get(active.get(i)), "active host " + i + " was evicted");
        }
    }

    @Test
    void forgetsEveryHostOnAPortThatWentDown() {
        MacTable table = new MacTable(10_000);
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
        MacTable table = new MacTable(1 << 20);
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
        MacTable table = new MacTable(10);
        table.put(A, 1);
        table.clear();
        assertEquals(0, table.size());
        assertEquals(MacTable.NO_PORT, table.get(A));
    }

    @Test
    void aBoundBelowOneIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MacTable(0));
        assertEquals("maxEntries must be at least 1, was 0", e.getMessage());
    }

    @Test
    void lookupsAllocateNothing() {
        MacTable table = new MacTable(1000);
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
