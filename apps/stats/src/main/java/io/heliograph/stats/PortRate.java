package io.heliograph.stats;

import java.time.Instant;

import io.heliograph.core.SwitchPort;

/** A port's traffic rates over the last collection interval, in each direction. */
public record PortRate(SwitchPort port, Instant at, double rxBitsPerSecond, double txBitsPerSecond,
        double rxPacketsPerSecond, double txPacketsPerSecond) {
}
