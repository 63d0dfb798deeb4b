package io.heliograph.stats.internal.rest;

import io.heliograph.stats.PortRate;

/** A port's rates over one collection interval ending {@code at} (ISO-8601, UTC), in each direction. */
public record PortRateView(String dpid, int port, String at, double rxBitsPerSecond, double txBitsPerSecond,
        double rxPacketsPerSecond, double txPacketsPerSecond) {

    static PortRateView of(PortRate rate) {
        return new PortRateView(rate.port().dpid().toString(), rate.port().port().getPortNumber(), rate.at().toString(),
                rate.rxBitsPerSecond(), rate.txBitsPerSecond(), rate.rxPacketsPerSecond(), rate.txPacketsPerSecond());
    }
}
