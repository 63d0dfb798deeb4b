package io.heliograph.stats.internal;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

import org.projectfloodlight.openflow.protocol.OFFlowStatsEntry;
import org.projectfloodlight.openflow.protocol.OFGroupStatsEntry;
import org.projectfloodlight.openflow.protocol.OFMeterStats;
import org.projectfloodlight.openflow.protocol.OFPortStatsEntry;
import org.projectfloodlight.openflow.protocol.OFTableStatsEntry;

import io.heliograph.core.OFSwitch;
import io.heliograph.stats.SwitchStatistics;
import io.heliograph.stats.SwitchStatistics.Sample;

/**
 * What the collector knows about one switch connection: requests in flight, kinds refused, kinds
 * backed off because their requests failed, latest replies.
 */
final class SwitchState {

    final OFSwitch sw;
    /** A kind is asked again only when its previous request has finished, so a slow switch is not flooded. */
    final Set<StatsKind> inFlight = ConcurrentHashMap.newKeySet();
    /** Kinds the switch answered with an error: not asked again on this connection. */
    final Set<StatsKind> refused = ConcurrentHashMap.newKeySet();
    /**
     * Kinds whose last requests failed (no answer in time, a lost reply): asked again only after a
     * backoff that grows with each failure in a row, and logged once until they succeed again.
     */
    private final ConcurrentMap<StatsKind, Backoff> failing = new ConcurrentHashMap<>();
    private volatile SwitchStatistics latest;

    /** @param notBeforeNanos the monotonic time before which the kind is not asked again */
    private record Backoff(int failedInARow, long notBeforeNanos) {
    }

    SwitchState(OFSwitch sw) {
        this.sw = sw;
        this.latest = SwitchStatistics.empty(sw.getId());
    }

    SwitchStatistics latest() {
        return latest;
    }

    /** Whether this kind may be asked for now: it has not failed, or its backoff has passed. */
    boolean isDue(StatsKind kind, long nowNanos) {
        Backoff b = failing.get(kind);
        return b == null || nowNanos - b.notBeforeNanos() >= 0;
    }

    /** A request of this kind failed: the next waits longer. Returns the failures in a row, 1 for the first. */
    int failed(StatsKind kind, long nowNanos, StatsSettings settings) {
        Backoff b = failing.compute(kind, (k, before) -> {
            int n = before == null ? 1 : before.failedInARow() + 1;
            return new Backoff(n, nowNanos + TimeUnit.MILLISECONDS.toNanos(settings.backoffMs(n)));
        });
        return b.failedInARow();
    }

    /** A request of this kind was answered: back to the normal interval. True when it had been failing. */
    boolean answered(StatsKind kind) {
        return failing.remove(kind) != null;
    }

    /** Whether this kind is asked at a longer interval because its requests failed. */
    boolean isBackedOff(StatsKind kind) {
        return failing.containsKey(kind);
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
