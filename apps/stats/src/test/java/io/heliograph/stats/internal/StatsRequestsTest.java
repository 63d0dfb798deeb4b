package io.heliograph.stats.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.EnumSet;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.stats.internal.StatsKind;

class StatsRequestsTest {

    private static final OFFactory OF10 = OFFactories.getFactory(OFVersion.OF_10);
    private static final OFFactory OF13 = OFFactories.getFactory(OFVersion.OF_13);
    private static final OFFactory OF15 = OFFactories.getFactory(OFVersion.OF_15);

    /** Requests compare without their transaction ids, which every build draws anew. */
    private static void assertSameRequest(OFMessage expected, OFMessage actual) {
        assertEquals(expected.createBuilder().setXid(0).build(), actual.createBuilder().setXid(0).build());
    }

    @Test
    void openFlow10HasNoGroupsOrMeters() {
        assertEquals(EnumSet.of(StatsKind.PORT, StatsKind.FLOW, StatsKind.TABLE), StatsRequests.kindsFor(OFVersion.OF_10));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StatsRequests.build(OF10, StatsKind.GROUP));
        assertEquals("GROUP statistics need OpenFlow 1.3 or later, the switch speaks OF_10", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> StatsRequests.build(OF10, StatsKind.METER));
    }

    @Test
    void openFlow13And15HaveEveryKind() {
        Set<StatsKind> all = EnumSet.allOf(StatsKind.class);
        assertEquals(all, StatsRequests.kindsFor(OFVersion.OF_13));
        assertEquals(all, StatsRequests.kindsFor(OFVersion.OF_14));
        assertEquals(all, StatsRequests.kindsFor(OFVersion.OF_15));
    }

    @Test
    void openFlow10Requests() {
        assertSameRequest(OF10.buildPortStatsRequest().setPortNo(OFPort.ANY).build(),
                StatsRequests.build(OF10, StatsKind.PORT));
        assertSameRequest(OF10.buildFlowStatsRequest().setMatch(OF10.matchWildcardAll()).setTableId(TableId.ALL)
                .setOutPort(OFPort.ANY).build(), StatsRequests.build(OF10, StatsKind.FLOW));
        assertSameRequest(OF10.buildTableStatsRequest().build(), StatsRequests.build(OF10, StatsKind.TABLE));
    }

    @Test
    void openFlow13FlowRequestIgnoresGroupsAndCookiesAndCoversEveryTable() {
        var request = StatsRequests.allFlows(OF13);
        assertEquals(OFGroup.ANY, request.getOutGroup(), "Loxi's default out_group ALL would filter");
        assertEquals(OFPort.ANY, request.getOutPort());
        assertEquals(TableId.ALL, request.getTableId());
        assertEquals(U64.ZERO, request.getCookieMask());
        assertEquals(OF13.matchWildcardAll(), request.getMatch());
    }

    @Test
    void openFlow13And15Requests() {
        for (OFFactory f : new OFFactory[] {OF13, OF15}) {
            assertSameRequest(f.buildPortStatsRequest().setPortNo(OFPort.ANY).build(),
                    StatsRequests.build(f, StatsKind.PORT));
            assertSameRequest(f.buildFlowStatsRequest().setMatch(f.matchWildcardAll()).setTableId(TableId.ALL)
                    .setOutPort(OFPort.ANY).setOutGroup(OFGroup.ANY).setCookie(U64.ZERO).setCookieMask(U64.ZERO)
                    .build(), StatsRequests.build(f, StatsKind.FLOW));
            assertSameRequest(f.buildTableStatsRequest().build(), StatsRequests.build(f, StatsKind.TABLE));
            assertSameRequest(f.buildGroupStatsRequest().setGroup(OFGroup.ALL).build(),
                    StatsRequests.build(f, StatsKind.GROUP));
            assertSameRequest(f.buildMeterStatsRequest().setMeterId(0xffff_ffffL).build(),
                    StatsRequests.build(f, StatsKind.METER));
        }
    }

    @Test
    void requestsSpeakTheSwitchVersion() {
        for (OFFactory f : new OFFactory[] {OF10, OF13, OF15}) {
            for (StatsKind kind : StatsRequests.kindsFor(f.getVersion())) {
                assertEquals(f.getVersion(), StatsRequests.build(f, kind).getVersion(), kind + " on " + f.getVersion());
            }
        }
    }
}
