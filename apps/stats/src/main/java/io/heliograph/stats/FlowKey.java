package io.heliograph.stats;

import java.util.Objects;

import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

/**
 * What identifies a flow entry on one switch across polls: the switch treats entries with the same
 * table, priority and match as the same entry (a flow-mod ADD replaces it), and the cookie tells apart
 * entries that an app deleted and re-added for another purpose.
 */
public record FlowKey(TableId table, int priority, Match match, U64 cookie) {

    public FlowKey {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(match, "match");
        Objects.requireNonNull(cookie, "cookie");
    }

    @Override
    public String toString() {
        return "table " + table.getValue() + " priority " + priority + " cookie " + cookie + " " + match;
    }
}
