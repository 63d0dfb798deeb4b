package io.heliograph.stats.internal.rest;

import java.util.List;

/** A port's latest rates (null before two samples exist) and its recent rates, oldest first. */
public record PortHistoryView(String dpid, int port, PortRateView current, List<PortRateView> history) {
}
