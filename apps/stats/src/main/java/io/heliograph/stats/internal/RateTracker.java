package io.heliograph.stats.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

/**
 * Turns successive counter samples of things identified by K (ports, flow entries) into rates R,
 * keeping the last sample and a bounded history of rates per thing. The things are kept by their
 * owner O (the switch), so that a switch's reply touches that switch's things only: with a thousand
 * switches, scanning every port of every switch for each switch's reply had cost the square of the
 * network. Samples are recorded from one thread at a time; reads are safe from any thread.
 */
final class RateTracker<O, K, R> {

    /** Builds the published rate from the per-second counter rates. */
    @FunctionalInterface
    interface RateFactory<K, R> {
        R create(K key, Instant at, double[] perSecond);
    }

    private final ConcurrentMap<O, ConcurrentMap<K, Track<R>>> byOwner = new ConcurrentHashMap<>();
    private final Function<K, O> ownerOf;
    private final RateFactory<K, R> factory;
    private volatile int historySize;

    RateTracker(int historySize, Function<K, O> ownerOf, RateFactory<K, R> factory) {
        this.ownerOf = ownerOf;
        this.factory = factory;
        setHistorySize(historySize);
    }

    /** Records a sample; returns the rate since the previous sample, or null for the first one. */
    R record(K key, CounterSample sample) {
        Track<R> track = byOwner.computeIfAbsent(ownerOf.apply(key), o -> new ConcurrentHashMap<>())
                .computeIfAbsent(key, k -> new Track<>(historySize));
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
        Track<R> track = track(key);
        return track == null ? null : track.history.latest();
    }

    List<R> history(K key) {
        Track<R> track = track(key);
        return track == null ? List.of() : track.history.snapshot();
    }

    /** The latest rate of every thing of {@code owner}. */
    List<R> latestOf(O owner) {
        List<R> rates = new ArrayList<>();
        addLatest(byOwner.get(owner), rates);
        return rates;
    }

    /** The latest rate of every thing. */
    List<R> latestOfAll() {
        List<R> rates = new ArrayList<>();
        byOwner.values().forEach(tracks -> addLatest(tracks, rates));
        return rates;
    }

    /** Forgets the things of {@code owner} that are not in {@code present} (ports and flows that went away). */
    void retain(O owner, Set<K> present) {
        Map<K, Track<R>> tracks = byOwner.get(owner);
        if (tracks != null) {
            tracks.keySet().retainAll(present);
        }
    }

    /** Forgets every thing of {@code owner}. */
    void forget(O owner) {
        byOwner.remove(owner);
    }

    void setHistorySize(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("historySize must be at least 1, was " + size);
        }
        historySize = size;
        byOwner.values().forEach(tracks -> tracks.values().forEach(track -> track.history.setCapacity(size)));
    }

    int size() {
        return byOwner.values().stream().mapToInt(Map::size).sum();
    }

    private Track<R> track(K key) {
        Map<K, Track<R>> tracks = byOwner.get(ownerOf.apply(key));
        return tracks == null ? null : tracks.get(key);
    }

    private static <R> void addLatest(Map<?, Track<R>> tracks, List<R> rates) {
        if (tracks == null) {
            return;
        }
        tracks.values().forEach(track -> {
            R rate = track.history.latest();
            if (rate != null) {
                rates.add(rate);
            }
        });
    }

    private static final class Track<R> {
        final BoundedHistory<R> history;
        CounterSample last;

        Track(int historySize) {
            history = new BoundedHistory<>(historySize);
        }
    }
}
