package io.heliograph.vdn.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.heliograph.vdn.engine.Advertisement.Distance;

class DistributedControlTest {

    private final DistributedControl control = new DistributedControl(new SplittableRandom(42));

    /** Node A of Table 4.2, with parents X, Y and Z: (d, c in kbit/s) per object through each parent. */
    private static Map<String, Distance> table42(String object) {
        Map<String, Distance> via = new TreeMap<>();
        switch (object) {
            case "v0" -> {
                via.put("X", new Distance(1, 5000));
                via.put("Y", new Distance(1, 1500));
                via.put("Z", new Distance(2, 4500));
            }
            case "v1" -> {
                via.put("X", new Distance(2, 2000));
                via.put("Y", new Distance(1, 1500));
                via.put("Z", new Distance(2, 4000));
            }
            case "v2" -> {
                via.put("X", new Distance(2, 5000));
                via.put("Y", new Distance(1, 1500));
                via.put("Z", new Distance(1, 3000));
            }
            default -> throw new IllegalArgumentException(object);
        }
        return via;
    }

    /** Every parent the algorithm picks in many tries; empty when it denies. */
    private Set<String> picks(Map<String, Distance> via, int bitrate) {
        Set<String> picked = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            control.nextHop(via, bitrate).ifPresent(picked::add);
        }
        return picked;
    }

    @Test
    void table42AtOneMegabitGoesToTheNearestParentsWithCapacity() {
        assertEquals(Set.of("X", "Y"), picks(table42("v0"), 1000));
        assertEquals(Set.of("Y"), picks(table42("v1"), 1000));
        assertEquals(Set.of("Y", "Z"), picks(table42("v2"), 1000));
    }

    @Test
    void table42AtTwoMegabitsLeavesOutTheThinPathsAndDeniesWhereTheNearestParentHasNone() {
        assertEquals(Set.of("X"), picks(table42("v0"), 2000));
        assertEquals(Set.of(), picks(table42("v1"), 2000), "Y is the nearest, and too thin; X and Z are farther");
        assertEquals(Set.of("Z"), picks(table42("v2"), 2000));
    }

    @Test
    void aRequestIsDeniedWhenNoPathHasMoreCapacityThanItsBitrate() {
        Map<String, Distance> via = Map.of("X", new Distance(1, 800), "Y", new Distance(1, 500));
        assertEquals(Optional.empty(), control.nextHop(via, 800), "exactly the bitrate is not enough");
        assertEquals(Optional.of("X"), control.nextHop(via, 799));
        assertEquals(Optional.empty(), control.nextHop(Map.of(), 800), "no parent advertises it");
    }

    @Test
    void equalParentsShareTheRequestsAtRandom() {
        Map<String, Distance> via = Map.of("R1", new Distance(1, 9000), "R2", new Distance(1, 9000),
                "R3", new Distance(1, 9000), "R4", new Distance(1, 9000), "R5", new Distance(2, 9000));
        Map<String, Integer> count = new HashMap<>();
        for (int i = 0; i < 4000; i++) {
            count.merge(control.nextHop(via, 1000).orElseThrow(), 1, Integer::sum);
        }
        assertEquals(Set.of("R1", "R2", "R3", "R4"), count.keySet());
        count.forEach((parent, n) -> assertTrue(n > 800 && n < 1200, parent + " got " + n + " of 4000"));
    }

    @Test
    void theSameSeedMakesTheSameChoices() {
        Map<String, Distance> via = new HashMap<>(Map.of("R1", new Distance(1, 9000), "R2", new Distance(1, 9000),
                "R3", new Distance(1, 9000)));
        DistributedControl again = new DistributedControl(new SplittableRandom(42));
        Map<String, Distance> reordered = new TreeMap<>(java.util.Comparator.reverseOrder());
        reordered.putAll(via);
        for (int i = 0; i < 50; i++) {
            assertEquals(control.nextHop(via, 1000), again.nextHop(reordered, 1000), "the order of the map does not matter");
        }
    }
}
