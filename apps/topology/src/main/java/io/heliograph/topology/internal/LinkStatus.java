package io.heliograph.topology.internal;

import io.heliograph.topology.Link;

/**
 * A link as discovery sees it: when it was first and last confirmed (discovery clock, ms), whether
 * its reverse is known, and which cluster instance discovered it and keeps it confirmed (null for a
 * controller that runs alone).
 */
public record LinkStatus(Link link, long firstSeenMs, long lastSeenMs, boolean bidirectional, String discoveredBy) {
}
