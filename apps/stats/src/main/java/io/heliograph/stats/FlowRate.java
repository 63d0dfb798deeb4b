package io.heliograph.stats;

import java.time.Instant;

import org.projectfloodlight.openflow.types.DatapathId;

/** A flow entry's traffic rates over the last collection interval. */
public record FlowRate(DatapathId dpid, FlowKey flow, Instant at, double bitsPerSecond, double packetsPerSecond) {
}
