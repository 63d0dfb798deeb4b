package io.heliograph.stats.internal.rest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;

import io.heliograph.stats.FlowKey;
import io.heliograph.stats.FlowRate;

/**
 * A flow entry's rates: the entry (table, priority, cookie in hex, match fields by their OpenFlow
 * names with masks after a slash), its latest rates ending {@code at}, and, when asked for, its
 * recent rates oldest first.
 */
public record FlowRateView(int table, int priority, String cookie, Map<String, String> match, String at,
        double bitsPerSecond, double packetsPerSecond, List<Sample> history) {

    /** One interval's rates. */
    public record Sample(String at, double bitsPerSecond, double packetsPerSecond) {

        static Sample of(FlowRate rate) {
            return new Sample(rate.at().toString(), rate.bitsPerSecond(), rate.packetsPerSecond());
        }
    }

    static FlowRateView of(FlowRate rate, List<FlowRate> history) {
        FlowKey flow = rate.flow();
        return new FlowRateView(flow.table().getValue(), flow.priority(), flow.cookie().toString(), match(flow.match()),
                rate.at().toString(), rate.bitsPerSecond(), rate.packetsPerSecond(),
                history == null ? null : history.stream().map(Sample::of).toList());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static Map<String, String> match(Match match) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (MatchField field : match.getMatchFields()) {
            fields.put(field.getName(), match.isExact(field) ? String.valueOf(match.get(field))
                    : String.valueOf(match.getMasked(field)));
        }
        return fields;
    }
}
