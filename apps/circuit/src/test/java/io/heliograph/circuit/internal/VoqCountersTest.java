package io.heliograph.circuit.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFlowStatsEntry;

import io.heliograph.circuit.internal.exec.ExecutorCookies;
import io.heliograph.circuit.internal.exec.Fabric;

/** The VOQ counters are the executor's pair entries' bytes, by the cookie's pair, and nothing else. */
class VoqCountersTest {

    private static final Fabric FABRIC = Fabric.parse("circuit=16; rack0=1/1/1/2; rack1=2/2/1/2; rack2=3/3/1/2");

    private final FakeStatistics stats = new FakeStatistics();

    private void tor(long dpid, Instant at, OFFlowStatsEntry... entries) {
        stats.flows(dpid, at, entries);
    }

    private static OFFlowStatsEntry entry(long cookie, long bytes) {
        return FakeStatistics.entry(cookie, bytes);
    }

    @Test
    void eachPairEntrysBytesCountForItsPairOnItsSourcesTor() {
        Instant t0 = Instant.parse("2026-11-29T12:00:00Z");
        tor(1, t0.plusMillis(5), entry(ExecutorCookies.pair(0, 1), 1000), entry(ExecutorCookies.pair(0, 1), 500),
                entry(ExecutorCookies.pair(0, 2), 7), entry(0x4657_0000_0000_0002L, 1_000_000),
                entry(ExecutorCookies.circuit(0), 99));
        tor(2, t0, entry(ExecutorCookies.pair(1, 2), 3000), entry(ExecutorCookies.pair(0, 2), 42));
        tor(3, t0.plusMillis(9));

        VoqCounters.Sample sample = VoqCounters.read(stats, FABRIC, 3);

        // two prefixes of rack 1 on rack 0's ToR sum; forwarding's and the circuit switch's cookies and a
        // pair of another rack's ToR seen here do not count
        assertArrayEquals(new long[][] {{0, 1500, 7}, {0, 0, 3000}, {0, 0, 0}}, sample.bytes());
        assertEquals(t0, sample.at(), "the oldest of the ToRs' samples");
    }

    @Test
    void aTorWithoutFlowStatisticsYetGivesNoSample() {
        tor(1, Instant.EPOCH, entry(ExecutorCookies.pair(0, 1), 1000));
        tor(2, Instant.EPOCH);
        assertNull(VoqCounters.read(stats, FABRIC, 3), "rack 2's ToR has not answered");
    }
}
