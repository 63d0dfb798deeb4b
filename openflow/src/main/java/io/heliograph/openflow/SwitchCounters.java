package io.heliograph.openflow;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One connection's counts of what was refused, dropped or malformed, by key (the keys of
 * {@link io.heliograph.core.OFSwitch#getCounters()}). {@link #count} says whether an occurrence is
 * the first of its key, which is the one that is logged: bad input is logged once per kind per
 * switch, and counted every time. Any thread.
 */
final class SwitchCounters {

    private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

    /** Counts one occurrence; true when it is the first of its key on this connection. */
    boolean count(String key) {
        return counts.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet() == 1;
    }

    /** Counts {@code n} occurrences at once; true when they are the first of their key. */
    boolean count(String key, long n) {
        return n > 0 && counts.computeIfAbsent(key, k -> new AtomicLong()).getAndAdd(n) == 0;
    }

    long get(String key) {
        AtomicLong n = counts.get(key);
        return n == null ? 0 : n.get();
    }

    /** Every key that happened, sorted. */
    Map<String, Long> snapshot() {
        Map<String, Long> out = new TreeMap<>();
        counts.forEach((key, n) -> out.put(key, n.get()));
        return out;
    }
}
