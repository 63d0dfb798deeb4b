package io.heliograph.devices;

import java.time.Instant;

import io.heliograph.core.SwitchPort;

/** Where a host was seen: an edge port (never an inter-switch port), and when. */
public record AttachmentPoint(SwitchPort port, Instant firstSeen, Instant lastSeen) {
}
