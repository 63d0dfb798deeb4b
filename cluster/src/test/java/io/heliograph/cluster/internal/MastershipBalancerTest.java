package io.heliograph.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class MastershipBalancerTest {

    private static Map<String, Set<String>> allConnectedTo(int switches, String... instances) {
        Map<String, Set<String>> c = new LinkedHashMap<>();
        for (int i = 0; i < switches; i++) {
            c.put(String.format("%016x", i), Set.of(instances));
        }
        return c;
    }

    private static Map<String, Integer> loads(Map<String, String> assignment) {
        Map<String, Integer> load = new HashMap<>();
        assignment.values().forEach(i -> load.merge(i, 1, Integer::sum));
        return load;
    }

    @Test
    void twentySwitchesOnThreeInstancesDifferByAtMostOne() {
        Map<String, String> a = MastershipBalancer.assign(allConnectedTo(20, "a", "b", "c"), Map.of());
        assertEquals(20, a.size());
        Map<String, Integer> load = loads(a);
        int max = load.values().stream().max(Integer::compare).orElseThrow();
        int min = load.values().stream().min(Integer::compare).orElseThrow();
        assertEquals(3, load.size());
        assertTrue(max - min <= 1, load.toString());
    }

    @Test
    void keepsCurrentMastersUnderTheCapSoAJoinMovesOnlyItsShare() {
        Map<String, Set<String>> candidates = allConnectedTo(20, "a", "b", "c");
        Map<String, String> masters = new HashMap<>();
        candidates.keySet().forEach(k -> masters.put(k, Integer.parseInt(k, 16) % 2 == 0 ? "a" : "b")); // c just joined
        Map<String, String> a = MastershipBalancer.assign(candidates, masters);
        long moved = a.entrySet().stream().filter(e -> !e.getValue().equals(masters.get(e.getKey()))).count();
        assertEquals(6, moved, "c takes 6 (7/7/6), nothing else moves: " + a);
        assertEquals(Map.of("a", 7, "b", 7, "c", 6), loads(a));
    }

    @Test
    void aSwitchConnectedToOneInstanceOnlyGoesToIt() {
        Map<String, Set<String>> candidates = new LinkedHashMap<>(allConnectedTo(4, "a", "b"));
        candidates.put("00000000000000ff", Set.of("b"));
        Map<String, String> a = MastershipBalancer.assign(candidates, Map.of());
        assertEquals("b", a.get("00000000000000ff"));
        assertTrue(loads(a).values().stream().allMatch(n -> n <= 3), a.toString());
    }
}
