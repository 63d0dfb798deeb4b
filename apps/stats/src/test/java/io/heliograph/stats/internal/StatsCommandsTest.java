package io.heliograph.stats.internal;

import static io.heliograph.stats.internal.Flows.macs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFlowStatsRequest;
import org.projectfloodlight.openflow.protocol.OFStatsReplyFlags;
import org.projectfloodlight.openflow.protocol.OFStatsType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.core.testing.FakeSwitchService;

class StatsCommandsTest {

    private final FakeSwitchService switches = new FakeSwitchService();
    private final ManualStatsClock clock = new ManualStatsClock();
    private final StatisticsCollector collector = new StatisticsCollector(switches, Runnable::run, clock, () -> null,
            StatsSettings.DEFAULTS);
    private final StatsCommands commands = new StatsCommands(switches, collector);

    @Test
    void flowsAsksTheSwitchNowAndPrintsEveryPart() {
        FakeStatsSwitch sw = new FakeStatsSwitch(1, OFVersion.OF_13).answer(OFStatsType.FLOW, f -> List.of(
                f.buildFlowStatsReply().setFlags(EnumSet.of(OFStatsReplyFlags.REPLY_MORE)).setEntries(List.of(
                        f.buildFlowStatsEntry().setTableId(TableId.of(0)).setPriority(0)
                                .setMatch(f.matchWildcardAll()).build())).build(),
                f.buildFlowStatsReply().setEntries(List.of(f.buildFlowStatsEntry().setTableId(TableId.of(0))
                        .setPriority(5).setMatch(macs(1, 1, 2)).setByteCount(U64.of(777)).build())).build()));
        switches.add(sw);

        String text = commands.flows("1");

        assertTrue(text.startsWith("00:00:00:00:00:00:00:01: 2 flow entries\n"), text);
        assertTrue(text.contains(" 777 "), text);
        assertEquals(4, text.split("\n").length, text);
        OFFlowStatsRequest request = (OFFlowStatsRequest) sw.requests.get(0);
        assertEquals(OFGroup.ANY, request.getOutGroup());
    }

    @Test
    void flowsNamesWhatIsWrong() {
        assertTrue(commands.flows("nope").startsWith("'nope' is not a datapath id"));
        assertEquals("no connected switch 00:00:00:00:00:00:00:09", commands.flows("9"));
        FakeStatsSwitch refusing = new FakeStatsSwitch(2, OFVersion.OF_10).refuse(OFStatsType.FLOW);
        switches.add(refusing);
        assertTrue(commands.flows("2").startsWith("switch 00:00:00:00:00:00:00:02 could not list its flows: "),
                commands.flows("2"));
    }

    @Test
    void ratesPrintsTheLatestPortRates() {
        long[] rx = {0};
        FakeStatsSwitch sw = new FakeStatsSwitch(1, OFVersion.OF_10).answer(OFStatsType.PORT, f -> List.of(
                f.buildPortStatsReply().setEntries(List.of(f.buildPortStatsEntry().setPortNo(OFPort.of(3))
                        .setRxBytes(U64.of(rx[0])).build())).build()));
        switches.add(sw);
        assertTrue(commands.rates("1").endsWith("no port rates yet (they need two polls)"));
        collector.poll();
        clock.advance(Duration.ofSeconds(1));
        rx[0] = 1_000;
        collector.poll();

        String[] lines = commands.rates("00:00:00:00:00:00:00:01").split("\n");
        assertEquals("00:00:00:00:00:00:00:01 port rates", lines[0]);
        assertTrue(lines[2].matches("3\\s+8000\\s+0\\s+0\\.0\\s+0\\.0"), lines[2]);
        assertEquals("no connected switch 00:00:00:00:00:00:00:05", commands.rates("5"));
    }
}
