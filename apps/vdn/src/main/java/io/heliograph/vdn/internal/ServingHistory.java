package io.heliograph.vdn.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The serving figures each cluster's agent published with its FIBs, the latest {@code points} per
 * cluster, for the page's join-time and bitrate charts. A FIB published again (the same time) is not
 * counted twice. Kept by each instance from the FIBs it sees; thread-safe.
 */
final class ServingHistory {

    /** An hour of FIBs published every 10 s. */
    static final int DEFAULT_POINTS = 360;

    private final int points;
    private final Map<String, Deque<Map<String, Object>>> byCluster = new HashMap<>();

    ServingHistory(int points) {
        this.points = points;
    }

    synchronized void add(String cluster, VdnRuntime.PublishedFib fib) {
        if (!(fib.fib().get("serving") instanceof Map<?, ?> figures)) {
            return;
        }
        Deque<Map<String, Object>> series = byCluster.computeIfAbsent(cluster, c -> new ArrayDeque<>());
        if (!series.isEmpty() && ((Long) series.peekLast().get("atMillis")) >= fib.atMillis()) {
            return;
        }
        Map<String, Object> point = new LinkedHashMap<>();
        point.put("atMillis", fib.atMillis());
        figures.forEach((name, value) -> point.put(String.valueOf(name), value));
        series.addLast(point);
        while (series.size() > points) {
            series.removeFirst();
        }
    }

    synchronized Map<String, Object> toJson() {
        Map<String, Object> clusters = new TreeMap<>();
        byCluster.forEach((cluster, series) -> clusters.put(cluster, new ArrayList<>(series)));
        return Map.of("clusters", clusters);
    }
}
