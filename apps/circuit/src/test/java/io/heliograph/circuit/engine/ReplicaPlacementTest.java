package io.heliograph.circuit.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ReplicaPlacementTest {

    @Test
    void theThesisRingSendsRackIToRackIPlusOne() {
        ReplicaPlacement ring = ReplicaPlacement.ring(8);
        for (int r = 0; r < 8; r++) {
            assertEquals((r + 1) % 8, ring.replicaRack(r, 123_456_789));
        }
        assertEquals(4, new ReplicaPlacement(8, 2, 0).replicaRack(2, 0), "Fig 2.19's offset 2");
    }

    @Test
    void atAnyTimeEveryRackSendsToOneOtherRackAndReceivesFromOneARing() {
        SplittableRandom random = new SplittableRandom(5);
        for (int trial = 0; trial < 200; trial++) {
            int n = 2 + random.nextInt(30);
            ReplicaPlacement placement = new ReplicaPlacement(n, 1 + random.nextInt(n - 1), 1 + random.nextInt(10_000));
            long now = random.nextLong(1L << 42);
            boolean[] receives = new boolean[n];
            for (int r = 0; r < n; r++) {
                int replica = placement.replicaRack(r, now);
                assertNotEquals(r, replica, "never the writer's own rack");
                assertTrue(!receives[replica], "each rack receives from one rack");
                receives[replica] = true;
                assertEquals(replica, placement.replicaRack(r, now), "deterministic");
            }
        }
    }

    @Test
    void theOffsetRotatesThroughEveryOtherRackOnePeriodAtATime() {
        ReplicaPlacement placement = new ReplicaPlacement(5, 3, 2_000);
        Set<Integer> seen = new HashSet<>();
        for (long t = 0; t < 4 * 2_000; t += 2_000) {
            seen.add(placement.offsetAt(t));
            assertEquals(placement.offsetAt(t), placement.offsetAt(t + 1_999), "the same advice within a period");
            assertEquals(t + 2_000, placement.nextRotationMillis(t + 5));
        }
        assertEquals(Set.of(1, 2, 3, 4), seen);
        assertEquals(3, placement.offsetAt(0), "period 0 is the configured offset");
        assertEquals(4, placement.offsetAt(2_000));
        assertEquals(1, placement.offsetAt(4_000));
        assertEquals(2, placement.offsetAt(-1), "before the epoch too");
        assertEquals(Long.MAX_VALUE, ReplicaPlacement.ring(4).nextRotationMillis(0));
    }

    @Test
    void ringPlacementsDemandIsOneDayWhereRandomPlacementNeedsMany() {
        CircuitParameters network = CircuitParameters.etalon();
        ReplicaPlacement ring = ReplicaPlacement.ring(8);
        SplittableRandom random = new SplittableRandom(9);
        double[][] ringDemand = new double[8][8];
        double[][] randomDemand = new double[8][8];
        double block = 128e6 / 20;
        for (int writer = 0; writer < 64; writer++) {
            int rack = writer % 8;
            ringDemand[rack][ring.replicaRack(rack, 0)] += block;
            randomDemand[rack][(rack + 1 + random.nextInt(7)) % 8] += block;
        }
        assertEquals(1, new Solstice().schedule(ringDemand, network, 1).days().size());
        assertTrue(new Solstice().schedule(randomDemand, network, 1).days().size() > 2);
    }

    @Test
    void refusesBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> new ReplicaPlacement(8, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new ReplicaPlacement(8, 8, 0));
        assertThrows(IllegalArgumentException.class, () -> new ReplicaPlacement(1, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new ReplicaPlacement(8, 1, -1));
        assertEquals("writerRack must be from 0 to 7, not 8",
                assertThrows(IllegalArgumentException.class, () -> ReplicaPlacement.ring(8).replicaRack(8, 0)).getMessage());
    }
}
