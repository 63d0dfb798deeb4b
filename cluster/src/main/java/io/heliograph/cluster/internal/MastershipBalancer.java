package io.heliograph.cluster.internal;

import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Spreads switch mastership evenly over instances with as few moves as possible: no instance
 * masters more than ceil(switches / instances) while another candidate of its switches masters
 * fewer. A switch stays with its current master while that master is under the cap; the others go
 * to their least-loaded candidate (ties broken by {@link Rendezvous}, so every instance computes the
 * same answer).
 */
final class MastershipBalancer {

    private MastershipBalancer() {
    }

    /**
     * @param candidates switch key -> the instances connected to it
     * @param masters    switch key -> its current master (absent when it has none)
     * @return switch key -> the instance that should master it, for every switch with a candidate
     */
    static Map<String, String> assign(Map<String, Set<String>> candidates, Map<String, String> masters) {
        Set<String> instances = new TreeSet<>();
        candidates.values().forEach(instances::addAll);
        Map<String, String> result = new LinkedHashMap<>();
        if (instances.isEmpty()) {
            return result;
        }
        int switches = (int) candidates.values().stream().filter(c -> !c.isEmpty()).count();
        int cap = (switches + instances.size() - 1) / instances.size();
        Map<String, Integer> load = new HashMap<>();
        // The most constrained switches first, so a switch with one candidate always gets it.
        List<String> order = candidates.keySet().stream()
                .filter(k -> !candidates.get(k).isEmpty())
                .sorted(Comparator.comparingInt((String k) -> candidates.get(k).size()).thenComparing(k -> k))
                .toList();
        for (String key : order) {
            String master = masters.get(key);
            if (master != null && candidates.get(key).contains(master) && load.getOrDefault(master, 0) < cap) {
                result.put(key, master);
                load.merge(master, 1, Integer::sum);
            }
        }
        for (String key : order) {
            if (result.containsKey(key)) {
                continue;
            }
            String best = Rendezvous.order(key, candidates.get(key)).stream()
                    .min(Comparator.comparingInt(i -> load.getOrDefault(i, 0)))
                    .orElseThrow();
            result.put(key, best);
            load.merge(best, 1, Integer::sum);
        }
        return result;
    }
}
