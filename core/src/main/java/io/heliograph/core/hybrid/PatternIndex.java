package io.heliograph.core.hybrid;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Values by {@link ChannelPattern}, looked up by the most specific pattern covering a key: exact keys
 * in a hash map (the common case, answered at once), wildcard patterns scanned most specific first.
 * Not thread-safe; its owner locks.
 */
final class PatternIndex<T> {

    private final Map<String, T> exact = new HashMap<>();
    private final TreeMap<ChannelPattern, T> wildcards = new TreeMap<>(ChannelPattern.MOST_SPECIFIC_FIRST);

    /** Puts a value under a pattern; returns the one it replaced, or null. */
    T put(ChannelPattern pattern, T value) {
        return pattern.isWildcard() ? wildcards.put(pattern, value) : exact.put(pattern.toString(), value);
    }

    T remove(String pattern) {
        ChannelPattern p = ChannelPattern.parse(pattern);
        return p.isWildcard() ? wildcards.remove(p) : exact.remove(pattern);
    }

    T get(String pattern) {
        ChannelPattern p = ChannelPattern.parse(pattern);
        return p.isWildcard() ? wildcards.get(p) : exact.get(pattern);
    }

    /** The value of the most specific pattern covering the concrete key, with that pattern. */
    Optional<Map.Entry<ChannelPattern, T>> best(String key, List<String> segments) {
        T value = exact.get(key);
        if (value != null) {
            return Optional.of(Map.entry(ChannelPattern.parse(key), value));
        }
        for (Map.Entry<ChannelPattern, T> e : wildcards.entrySet()) {
            if (e.getKey().matches(segments)) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    int size() {
        return exact.size() + wildcards.size();
    }
}
