package io.heliograph.stats.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.projectfloodlight.openflow.protocol.OFFlowStatsEntry;
import org.projectfloodlight.openflow.protocol.OFVersion;

import io.heliograph.stats.FlowKey;
import io.heliograph.stats.FlowRate;
import io.heliograph.stats.PortRate;

/** Text tables for the shell: flow entries and port rates. */
final class ShellTables {

    private ShellTables() {
    }

    /**
     * One line per flow entry, by table then descending priority; the rate column comes from the
     * collector's latest poll when it has one for that entry.
     */
    static String flows(List<OFFlowStatsEntry> entries, Map<FlowKey, FlowRate> rates) {
        if (entries.isEmpty()) {
            return "no flow entries";
        }
        List<OFFlowStatsEntry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparingInt((OFFlowStatsEntry e) -> e.getTableId().getValue())
                .thenComparing(Comparator.comparingInt(OFFlowStatsEntry::getPriority).reversed()));
        StringBuilder out = new StringBuilder(String.format("%-5s %-8s %-18s %12s %14s %8s %12s  %s -> %s%n",
                "table", "priority", "cookie", "packets", "bytes", "age(s)", "bit/s", "match", "actions"));
        for (OFFlowStatsEntry entry : sorted) {
            FlowRate rate = rates.get(StatisticsCollector.keyOf(entry));
            out.append(String.format("%-5d %-8d %-18s %12s %14s %8d %12s  %s -> %s%n",
                    entry.getTableId().getValue(), entry.getPriority(), entry.getCookie(),
                    Long.toUnsignedString(SampleReader.flowPackets(entry)),
                    Long.toUnsignedString(SampleReader.flowBytes(entry)),
                    SampleReader.flowDurationSeconds(entry),
                    rate == null ? "-" : String.format("%.0f", rate.bitsPerSecond()),
                    fields(entry.getMatch().toString()), treatment(entry)));
        }
        return out.toString().stripTrailing();
    }

    /** Port rates, one line per port. */
    static String ports(List<PortRate> rates) {
        if (rates.isEmpty()) {
            return "no port rates yet (they need two polls)";
        }
        StringBuilder out = new StringBuilder(String.format("%-10s %14s %14s %12s %12s%n",
                "port", "rx bit/s", "tx bit/s", "rx pkt/s", "tx pkt/s"));
        for (PortRate rate : rates) {
            out.append(String.format("%-10s %14.0f %14.0f %12.1f %12.1f%n", rate.port().port(),
                    rate.rxBitsPerSecond(), rate.txBitsPerSecond(), rate.rxPacketsPerSecond(),
                    rate.txPacketsPerSecond()));
        }
        return out.toString().stripTrailing();
    }

    /** Loxi prints a match as OFMatchV3Ver13(in_port=1, ...): keep what is between the parentheses. */
    private static String fields(String text) {
        int open = text.indexOf('(');
        String inner = open >= 0 && text.endsWith(")") ? text.substring(open + 1, text.length() - 1) : text;
        return inner.isEmpty() ? "*" : inner;
    }

    private static String treatment(OFFlowStatsEntry entry) {
        if (entry.getVersion() == OFVersion.OF_10) {
            return entry.getActions().isEmpty() ? "drop" : entry.getActions().toString();
        }
        return entry.getInstructions().isEmpty() ? "drop" : entry.getInstructions().toString();
    }
}
