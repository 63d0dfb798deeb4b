package io.heliograph.stats.internal;

import java.util.EnumSet;
import java.util.Set;

import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowStatsRequest;
import org.projectfloodlight.openflow.protocol.OFStatsRequest;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

/**
 * Builds the "everything" request of each statistics kind for a switch's version. Loxi's defaults
 * are not "everything": a 1.3+ flow request defaults to out_group ALL (which filters on a group
 * instead of ignoring it; ANY is the wildcard), and a meter request to meter 0 (no meter).
 */
final class StatsRequests {

    /** OFPM_ALL: every meter. */
    static final long ALL_METERS = 0xffff_ffffL;

    private StatsRequests() {
    }

    /** The kinds a switch of this version can answer, in polling order. */
    static Set<StatsKind> kindsFor(OFVersion version) {
        Set<StatsKind> kinds = EnumSet.noneOf(StatsKind.class);
        for (StatsKind kind : StatsKind.values()) {
            if (kind.isSupportedBy(version)) {
                kinds.add(kind);
            }
        }
        return kinds;
    }

    /** The request for every entry of this kind; throws if the factory's version lacks the kind. */
    static OFStatsRequest<?> build(OFFactory factory, StatsKind kind) {
        if (!kind.isSupportedBy(factory.getVersion())) {
            throw new IllegalArgumentException(kind + " statistics need OpenFlow 1.3 or later, the switch speaks "
                    + factory.getVersion());
        }
        return switch (kind) {
            case PORT -> factory.buildPortStatsRequest().setPortNo(OFPort.ANY).build();
            case FLOW -> allFlows(factory);
            case TABLE -> factory.buildTableStatsRequest().build();
            case GROUP -> factory.buildGroupStatsRequest().setGroup(OFGroup.ALL).build();
            case METER -> factory.buildMeterStatsRequest().setMeterId(ALL_METERS).build();
        };
    }

    /** Every flow entry of every table. */
    static OFFlowStatsRequest allFlows(OFFactory factory) {
        OFFlowStatsRequest.Builder builder = factory.buildFlowStatsRequest()
                .setMatch(factory.matchWildcardAll())
                .setTableId(TableId.ALL)
                .setOutPort(OFPort.ANY);
        if (factory.getVersion().compareTo(OFVersion.OF_13) >= 0) {
            builder.setOutGroup(OFGroup.ANY).setCookie(U64.ZERO).setCookieMask(U64.ZERO);
        }
        return builder.build();
    }
}
