package io.heliograph.openflow;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The channel layer's totals since it started, over every switch that was ever connected: what its
 * bounds refused and what bad input it saw, by kind. Each switch keeps its own counts too
 * ({@link SwitchCounters}); these outlive the connections. Any thread.
 */
final class ChannelCounters {

    final LongAdder packetInsDropped = new LongAdder();
    final LongAdder portsRefused = new LongAdder();
    final LongAdder requestsRefused = new LongAdder();
    /** Bundles refused because the switch had Bundles.MAX_OPEN_BUNDLES open. */
    final LongAdder bundlesRefused = new LongAdder();
    /** Switches dropped for leaving more than maxPendingWriteBytes unread. */
    final LongAdder notReading = new LongAdder();
    /** Connections refused because they claimed a connected switch's datapath id. */
    final LongAdder duplicatesRefused = new LongAdder();
    /** Connections that replaced a silent (or, by policy, any) connection of the same datapath id. */
    final LongAdder duplicatesReplaced = new LongAdder();
    /** Messages written to switches, by type. */
    final SentMessages sent = new SentMessages();
    private final Map<String, LongAdder> badInput = new ConcurrentHashMap<>();

    void badInput(String kind) {
        badInput.computeIfAbsent(kind, k -> new LongAdder()).increment();
    }

    /** Bad input by kind, sorted. */
    Map<String, Long> badInputByKind() {
        Map<String, Long> out = new TreeMap<>();
        badInput.forEach((kind, n) -> out.put(kind, n.sum()));
        return out;
    }
}
