package io.heliograph.stats.internal;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.projectfloodlight.openflow.protocol.OFFlowStatsEntry;
import org.projectfloodlight.openflow.protocol.OFGroupStatsEntry;
import org.projectfloodlight.openflow.protocol.OFMeterStats;
import org.projectfloodlight.openflow.protocol.OFPortStatsEntry;
import org.projectfloodlight.openflow.protocol.OFTableStatsEntry;

import io.heliograph.core.OFSwitch;
import io.heliograph.stats.SwitchStatistics;
import io.heliograph.stats.SwitchStatistics.Sample;

/** What the collector knows about one switch connection: requests in flight, kinds refused, latest replies. */
final class SwitchState {

    final OFSwitch sw;
    /** A kind is asked again only when its previous request has finished, so a slow switch is not flooded. */
    final Set<StatsKind> inFlight = ConcurrentHashMap.newKeySet();
    /** Kinds the switch answered with an error: not asked again on this connection. */
    final Set<StatsKind> refused = ConcurrentHashMap.newKeySet();
    /** Kinds whose last request failed (timeout...): logged once until they succeed again. */
    final Set<StatsKind> failing = ConcurrentHashMap.newKeySet();
    private volatile SwitchStatistics latest;

    SwitchState(OFSwitch sw) {
        this.sw = sw;
        this.latest = SwitchStatistics.empty(sw.getId());
    }

    SwitchStatistics latest() {
        return latest;
    }

    synchronized void storePorts(Sample<OFPortStatsEntry> ports) {
        SwitchStatistics s = latest;
        latest = new SwitchStatistics(s.dpid(), ports, s.flows(), s.tables(), s.groups(), s.meters());
    }

    synchronized void storeFlows(Sample<OFFlowStatsEntry> flows) {
        SwitchStatistics s = latest;
        latest = new SwitchStatistics(s.dpid(), s.ports(), flows, s.tables(), s.groups(), s.meters());
    }

    synchronized void storeTables(Sample<OFTableStatsEntry> tables) {
        SwitchStatistics s = latest;
        latest = new SwitchStatistics(s.dpid(), s.ports(), s.flows(), tables, s.groups(), s.meters());
    }

    synchronized void storeGroups(Sample<OFGroupStatsEntry> groups) {
        SwitchStatistics s = latest;
        latest = new SwitchStatistics(s.dpid(), s.ports(), s.flows(), s.tables(), groups, s.meters());
    }

    synchronized void storeMeters(Sample<OFMeterStats> meters) {
        SwitchStatistics s = latest;
        latest = new SwitchStatistics(s.dpid(), s.ports(), s.flows(), s.tables(), s.groups(), meters);
    }
}
