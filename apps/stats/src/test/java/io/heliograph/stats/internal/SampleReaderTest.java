package io.heliograph.stats.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFOxsList;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;

class SampleReaderTest {

    private static final Instant AT = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void openFlow10PortsHaveNoDuration() {
        OFFactory f = OFFactories.getFactory(OFVersion.OF_10);
        CounterSample sample = SampleReader.port(f.buildPortStatsEntry().setPortNo(OFPort.of(1))
                .setRxBytes(U64.of(1)).setTxBytes(U64.of(2)).setRxPackets(U64.of(3)).setTxPackets(U64.of(4)).build(),
                7, AT);
        assertFalse(sample.hasDuration());
        assertArrayEquals(new long[] {1, 2, 3, 4}, sample.counters());
        assertEquals(7, sample.receivedNanos());
        assertEquals(AT, sample.receivedAt());
    }

    @Test
    void openFlow13And14PortsCarryTheirDuration() {
        for (OFVersion version : new OFVersion[] {OFVersion.OF_13, OFVersion.OF_14, OFVersion.OF_15}) {
            OFFactory f = OFFactories.getFactory(version);
            CounterSample sample = SampleReader.port(f.buildPortStatsEntry().setPortNo(OFPort.of(1))
                    .setDurationSec(3).setDurationNsec(250).setRxBytes(U64.of(10)).build(), 0, AT);
            assertEquals(3_000_000_250L, sample.durationNanos(), version.toString());
            assertTrue(sample.durationPrecise());
            assertEquals(10, sample.counters()[SampleReader.RX_BYTES]);
        }
    }

    @Test
    void openFlow13FlowsFromFixedFields() {
        OFFactory f = OFFactories.getFactory(OFVersion.OF_13);
        CounterSample sample = SampleReader.flow(f.buildFlowStatsEntry().setDurationSec(2).setDurationNsec(0)
                .setByteCount(U64.of(5_000)).setPacketCount(U64.of(5)).build(), 0, AT);
        assertEquals(2_000_000_000L, sample.durationNanos());
        assertFalse(sample.durationPrecise(), "whole seconds only");
        assertArrayEquals(new long[] {5_000, 5}, sample.counters());
    }

    @Test
    void openFlow15FlowsFromOxsStatFields() {
        OFFactory f = OFFactories.getFactory(OFVersion.OF_15);
        var entry = f.buildFlowStatsEntry().setStats(f.buildStatV6().setOxsFields(OFOxsList.of(
                f.oxss().duration(U64.of(5L << 32 | 7)), f.oxss().byteCount(U64.of(9_000)),
                f.oxss().packetCount(U64.of(9)))).build()).build();
        CounterSample sample = SampleReader.flow(entry, 0, AT);
        assertEquals(5_000_000_007L, sample.durationNanos());
        assertArrayEquals(new long[] {9_000, 9}, sample.counters());
        assertEquals(9_000, SampleReader.flowBytes(entry));
        assertEquals(9, SampleReader.flowPackets(entry));
        assertEquals(5, SampleReader.flowDurationSeconds(entry));
    }

    @Test
    void openFlow15FlowsWithoutSomeOxsFields() {
        OFFactory f = OFFactories.getFactory(OFVersion.OF_15);
        var entry = f.buildFlowStatsEntry().setStats(f.buildStatV6().setOxsFields(OFOxsList.of(
                f.oxss().byteCount(U64.of(9_000)))).build()).build();
        CounterSample sample = SampleReader.flow(entry, 0, AT);
        assertFalse(sample.hasDuration(), "timed by receive times");
        assertArrayEquals(new long[] {9_000, CounterSample.UNAVAILABLE}, sample.counters());
    }
}
