package io.heliograph.topology.internal;

import java.util.List;
import java.util.Map;

import io.heliograph.topology.internal.LldpProbeCodec.Outcome;

/** What the shell commands show beyond the public API; a service private to this bundle. */
public interface TopologyDiagnostics {

    /** Every link with its times, read on the topology thread. */
    List<LinkStatus> linkStatus();

    /** The discovery clock now, to turn the link times into ages. */
    long nowMs();

    /** How many LLDP frames had each outcome. */
    Map<Outcome, Long> lldpCounts();

    TopologyGraph topology();

    TopologySettings settings();

    /** How the links are shared with the cluster (instance, store writes), or null when they are not. */
    String sharing();
}
