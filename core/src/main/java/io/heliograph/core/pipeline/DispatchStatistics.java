package io.heliograph.core.pipeline;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

import org.projectfloodlight.openflow.protocol.OFType;

import io.heliograph.core.MessageStatistics;

/**
 * Counts dispatched messages by type and times a random sample of dispatches. Every I/O thread
 * updates it, so the counters are {@link LongAdder}s (no shared cache line on the hot path), and only
 * one dispatch in {@value MessageStatistics#LATENCY_SAMPLE_EVERY} pays for reading the clock.
 */
final class DispatchStatistics implements MessageStatistics {

    /** Upper bounds of the latency buckets, in nanoseconds: 1 µs to 100 ms. */
    private static final long[] BOUNDS_NANOS = {1_000, 5_000, 10_000, 50_000, 100_000, 500_000, 1_000_000,
        5_000_000, 10_000_000, 100_000_000};

    private static final OFType[] TYPES = OFType.values();

    private final LongAdder[] byType = new LongAdder[TYPES.length];
    private final LongAdder[] buckets = new LongAdder[BOUNDS_NANOS.length + 1];
    private final LongAdder samples = new LongAdder();
    private final LongAdder sampledNanos = new LongAdder();

    DispatchStatistics() {
        for (int i = 0; i < byType.length; i++) {
            byType[i] = new LongAdder();
        }
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = new LongAdder();
        }
    }

    /** Counts one message of {@code type}; true if this dispatch is to be timed. */
    boolean count(OFType type) {
        byType[type.ordinal()].increment();
        return ThreadLocalRandom.current().nextInt(LATENCY_SAMPLE_EVERY) == 0;
    }

    void timed(long nanos) {
        samples.increment();
        sampledNanos.add(nanos);
        int bucket = 0;
        while (bucket < BOUNDS_NANOS.length && nanos > BOUNDS_NANOS[bucket]) {
            bucket++;
        }
        buckets[bucket].increment();
    }

    @Override
    public Map<OFType, Long> dispatched() {
        Map<OFType, Long> counts = new EnumMap<>(OFType.class);
        for (int i = 0; i < byType.length; i++) {
            long n = byType[i].sum();
            if (n > 0) {
                counts.put(TYPES[i], n);
            }
        }
        return counts;
    }

    @Override
    public Latency latency() {
        List<Double> bounds = new ArrayList<>();
        List<Long> cumulative = new ArrayList<>();
        long running = 0;
        for (int i = 0; i < BOUNDS_NANOS.length; i++) {
            running += buckets[i].sum();
            bounds.add(BOUNDS_NANOS[i] / 1e9);
            cumulative.add(running);
        }
        running += buckets[BOUNDS_NANOS.length].sum();
        return new Latency(running, sampledNanos.sum() / 1e9, bounds, cumulative);
    }
}
