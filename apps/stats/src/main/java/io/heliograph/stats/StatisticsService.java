package io.heliograph.stats;

import java.util.List;

import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.SwitchPort;

/**
 * Periodically collected switch statistics (port, flow, table, group, meter), with per-port and
 * per-flow rates, a bounded recent history of them, and the host-to-host traffic matrix.
 * Everything returned is an immutable snapshot; all methods are safe from any thread.
 */
public interface StatisticsService {

    /** The latest rates of a port, or null before two samples exist. */
    PortRate getPortRate(SwitchPort port);

    /** The recent rates of a port, oldest first (bounded). */
    List<PortRate> getPortRateHistory(SwitchPort port);

    /** The latest rates of every port of a switch, by port number; empty for an unknown switch. */
    List<PortRate> getPortRates(DatapathId dpid);

    /** The latest rates of every flow entry of a switch that has been seen in two polls. */
    List<FlowRate> getFlowRates(DatapathId dpid);

    /** The recent rates of one flow entry, oldest first (bounded); empty once the entry is gone. */
    List<FlowRate> getFlowRateHistory(DatapathId dpid, FlowKey flow);

    /** The latest raw statistics of a switch, or null for a switch never polled. */
    SwitchStatistics getSwitchStatistics(DatapathId dpid);

    /** The host-to-host traffic matrix from the latest flow statistics of every switch. */
    TrafficMatrix getTrafficMatrix();
}
