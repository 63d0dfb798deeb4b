package io.heliograph.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFType;

import io.heliograph.core.MessageStatistics;

class DispatchStatisticsTest {

    @Test
    void countsEveryMessageByTypeAndSamplesAboutOneInSixtyFour() {
        DispatchStatistics statistics = new DispatchStatistics();
        int sampled = 0;
        for (int i = 0; i < 64_000; i++) {
            if (statistics.count(OFType.PACKET_IN)) {
                sampled++;
            }
        }
        statistics.count(OFType.PORT_STATUS);
        assertEquals(Map.of(OFType.PACKET_IN, 64_000L, OFType.PORT_STATUS, 1L), statistics.dispatched());
        // 1000 expected; a binomial spread of a few tens, never outside these bounds in practice
        assertEquals(1000, sampled, 200, "about one dispatch in " + MessageStatistics.LATENCY_SAMPLE_EVERY);
    }

    @Test
    void latencyBucketsAreCumulativeUpperBounds() {
        DispatchStatistics statistics = new DispatchStatistics();
        statistics.timed(800);            // <= 1 µs
        statistics.timed(1_000);          // <= 1 µs (bounds are inclusive)
        statistics.timed(7_000);          // <= 10 µs
        statistics.timed(2_000_000_000L); // beyond the last bound: only in the total
        MessageStatistics.Latency latency = statistics.latency();
        assertEquals(4, latency.samples());
        assertEquals(2.000008800, latency.sumSeconds(), 1e-12);
        assertEquals(1e-6, latency.boundsSeconds().get(0));
        assertEquals(List.of(2L, 2L, 3L, 3L, 3L, 3L, 3L, 3L, 3L, 3L), latency.counts());
    }
}
