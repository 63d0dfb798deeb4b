package io.heliograph.stats.internal;

import static io.heliograph.stats.internal.Flows.macs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowStatsEntry;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.core.DatapathIds;
import io.heliograph.core.SwitchPort;
import io.heliograph.stats.FlowRate;
import io.heliograph.stats.PortRate;

/** What the shell commands print, and how they read datapath ids. */
class ShellTextTest {

    @Test
    void datapathIdsInEveryUsualForm() {
        assertEquals(DatapathId.of(1), DatapathIds.parse("00:00:00:00:00:00:00:01"));
        assertEquals(DatapathId.of(0xab), DatapathIds.parse("0xab"));
        assertEquals(DatapathId.of(12), DatapathIds.parse(" 12 "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DatapathIds.parse("s1"));
        assertTrue(e.getMessage().startsWith("'s1' is not a datapath id"), e.getMessage());
    }

    @Test
    void flowTableSortsByTableThenPriorityAndShowsKnownRates() {
        OFFactory f = OFFactories.getFactory(OFVersion.OF_13);
        OFFlowStatsEntry low = f.buildFlowStatsEntry().setTableId(TableId.of(0)).setPriority(0)
                .setMatch(f.matchWildcardAll()).setByteCount(U64.of(100)).setPacketCount(U64.of(1)).build();
        OFFlowStatsEntry high = f.buildFlowStatsEntry().setTableId(TableId.of(0)).setPriority(100)
                .setMatch(macs(1, 1, 2)).setByteCount(U64.of(123_456)).setPacketCount(U64.of(90)).setDurationSec(42)
                .build();
        FlowRate rate = new FlowRate(DatapathId.of(1), StatisticsCollector.keyOf(high), Instant.EPOCH, 8_000, 1);
        String text = ShellTables.flows(List.of(low, high), Map.of(rate.flow(), rate));
        String[] lines = text.split("\n");
        assertEquals(3, lines.length, text);
        assertTrue(lines[1].contains("123456") && lines[1].contains(" 8000 ") && lines[1].contains("42"), text);
        assertTrue(lines[1].contains("eth_src=02:00:00:00:00:01"), text);
        assertTrue(lines[2].startsWith("0     0 ") && lines[2].contains(" - ") && lines[2].contains("*"), text);
        assertEquals("no flow entries", ShellTables.flows(List.of(), Map.of()));
    }

    @Test
    void portRatesTable() {
        PortRate rate = new PortRate(SwitchPort.of(DatapathId.of(1), OFPort.of(3)), Instant.EPOCH, 1e6, 2e6, 10, 20);
        String text = ShellTables.ports(List.of(rate));
        assertTrue(text.split("\n")[1].matches("3\\s+1000000\\s+2000000\\s+10\\.0\\s+20\\.0"), text);
        assertTrue(ShellTables.ports(List.of()).startsWith("no port rates yet"));
    }

    @Test
    void settingsNameWhatIsWrong() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new StatsSettings(10, 60, 10_000, 300_000));
        assertEquals("intervalMs must be within 100..86400000, was 10", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new StatsSettings(5_000, 0, 10_000, 300_000));
        assertThrows(IllegalArgumentException.class, () -> new StatsSettings(5_000, 60, 0, 300_000));
        e = assertThrows(IllegalArgumentException.class, () -> new StatsSettings(5_000, 60, 10_000, 0));
        assertEquals("backoffMaxMs must be within 100..86400000, was 0", e.getMessage());
    }

    @Test
    void theBackoffDoublesTheIntervalUpToItsCapAndNeverAsksMoreOftenThanTheInterval() {
        StatsSettings s = StatsSettings.DEFAULTS;
        assertEquals(List.of(10_000L, 20_000L, 40_000L, 80_000L, 160_000L, 300_000L, 300_000L),
                java.util.stream.IntStream.rangeClosed(1, 7).mapToObj(s::backoffMs).toList());
        assertEquals(300_000L, s.backoffMs(Integer.MAX_VALUE));
        assertEquals(600_000L, new StatsSettings(600_000, 60, 10_000, 300_000).backoffMs(3), "the interval is the floor");
    }
}
