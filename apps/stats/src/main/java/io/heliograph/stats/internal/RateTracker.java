package io.heliograph.stats.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Predicate;

/**
 * Turns successive counter samples of things identified by K (ports, flow entries) into rates R,
 * keeping the last sample and a bounded history of rates per thing. Samples are recorded from one
 * thread at a time; reads are safe from any thread.
 */
final class RateTracker<K, R> {

    /** Builds the published rate from the per-second counter rates. */
    @FunctionalInterface
    interface RateFactory<K, R> {
        R create(K key, Instant at, double[] perSecond);
    }

    private final ConcurrentMap<K, Track<R>> tracks = new ConcurrentHashMap<>();
    private final RateFactory<K, R> factory;
    private volatile int historySize;

    RateTracker(int historySize, RateFactory<K, R> factory) {
        this.factory = factory;
        setHistorySize(historySize);
    }

    /** Records a sample; returns the rate since the previous sample, or null for the first one. */
    R record(K key, CounterSample sample) {
        Track<R> track = tracks.computeIfAbsent(key, k -> new Track<>(historySize));
        CounterSample previous = track.last;
        track.last = sample;
        if (previous == null) {
            return null;
        }
        double[] perSecond = Rates.between(previous, sample);
        if (perSecond == null) {
            return null;
        }
        R rate = factory.create(key, sample.receivedAt(), perSecond);
        track.history.add(rate);
        return rate;
    }

    /** The latest rate, or null before two samples. */
    R latest(K key) {
        Track<R> track = tracks.get(key);
        return track == null ? null : track.history.latest();
    }

    List<R> history(K key) {
        Track<R> track = tracks.get(key);
        return track == null ? List.of() : track.history.snapshot();
    }

    /** The latest rate of every key that matches. */
    List<R> latest(Predicate<K> which) {
        List<R> rates = new ArrayList<>();
        tracks.forEach((key, track) -> {
            R rate = which.test(key) ? track.history.latest() : null;
            if (rate != null) {
                rates.add(rate);
            }
        });
        return rates;
    }

    /** Forgets the keys that match {@code scope} but are not in {@code present} (ports and flows that went away). */
    void retain(Predicate<K> scope, Set<K> present) {
        tracks.keySet().removeIf(key -> scope.test(key) && !present.contains(key));
    }

    void forget(Predicate<K> which) {
        tracks.keySet().removeIf(which);
    }

    void setHistorySize(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("historySize must be at least 1, was " + size);
        }
        historySize = size;
        tracks.values().forEach(track -> track.history.setCapacity(size));
    }

    int size() {
        return tracks.size();
    }

    private static final class Track<R> {
        final BoundedHistory<R> history;
        CounterSample last;

        Track(int historySize) {
            history = new BoundedHistory<>(historySize);
        }
    }
}
