package io.heliograph.topology.internal;

import io.heliograph.topology.Link;

/** A link as discovery sees it: when it was first and last confirmed (discovery clock, ms). */
public record LinkStatus(Link link, long firstSeenMs, long lastSeenMs, boolean bidirectional) {
}
