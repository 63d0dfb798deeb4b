package io.heliograph.staticflows.internal;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowModFlags;
import org.projectfloodlight.openflow.protocol.OFFlowStatsEntry;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.U64;

/**
 * A flow as reconciliation compares it, built the same way from what we would send (a FLOW_ADD)
 * and from what the switch reports (a flow stats entry). The identity is OpenFlow's: table,
 * priority and match (compared field by field, since switches may list match fields in another
 * order). The body is what a FLOW_ADD sets: cookie, timeouts, instructions (as a set: each type
 * occurs once and the switch may list them in another order) and the flags a switch remembers.
 */
record FlowShape(Key key, U64 cookie, int idleTimeout, int hardTimeout, Object instructions, Set<OFFlowModFlags> flags) {

    record Key(int table, int priority, Map<MatchField<?>, Object> match) {
    }

    /** Flags a switch reports back; CHECK_OVERLAP and RESET_COUNTS act only when the flow is added. */
    private static final Set<OFFlowModFlags> REMEMBERED = EnumSet.of(OFFlowModFlags.SEND_FLOW_REM,
            OFFlowModFlags.NO_PKT_COUNTS, OFFlowModFlags.NO_BYT_COUNTS);

    static FlowShape of(OFFlowAdd add) {
        boolean v10 = add.getVersion() == OFVersion.OF_10;
        return new FlowShape(key(v10 ? 0 : add.getTableId().getValue(), add.getPriority(), add.getMatch()),
                add.getCookie(), add.getIdleTimeout(), add.getHardTimeout(),
                v10 ? List.copyOf(add.getActions()) : new HashSet<>(add.getInstructions()),
                remembered(add.getFlags(), add.getVersion()));
    }

    static FlowShape of(OFFlowStatsEntry e) {
        boolean v10 = e.getVersion() == OFVersion.OF_10;
        Set<OFFlowModFlags> flags = e.getVersion().compareTo(OFVersion.OF_13) >= 0 ? e.getFlags() : Set.of();
        return new FlowShape(key(v10 ? 0 : e.getTableId().getValue(), e.getPriority(), e.getMatch()),
                e.getCookie(), e.getIdleTimeout(), e.getHardTimeout(),
                v10 ? List.copyOf(e.getActions()) : new HashSet<>(e.getInstructions()),
                remembered(flags, e.getVersion()));
    }

    static Key key(int table, int priority, Match match) {
        Map<MatchField<?>, Object> fields = new HashMap<>();
        for (MatchField<?> f : match.getMatchFields()) {
            if (match.isExact(f)) {
                fields.put(f, match.get(f));
            } else if (match.isPartiallyMasked(f)) {
                fields.put(f, match.getMasked(f));
            }
        }
        return new Key(table, priority, fields);
    }

    private static Set<OFFlowModFlags> remembered(Set<OFFlowModFlags> flags, OFVersion v) {
        if (v.compareTo(OFVersion.OF_13) < 0) {
            return Set.of();
        }
        Set<OFFlowModFlags> out = EnumSet.noneOf(OFFlowModFlags.class);
        for (OFFlowModFlags f : flags) {
            if (REMEMBERED.contains(f)) {
                out.add(f);
            }
        }
        return out;
    }
}
