package io.heliograph.topology.internal;

import java.util.List;
import java.util.Map;

import io.heliograph.topology.internal.LldpProbeCodec.Outcome;

/** What the shell commands and the REST resource show beyond the public API. */
public interface TopologyDiagnostics {

    /** The service private to this bundle that gives the running app's diagnostics. */
    interface Source {
        TopologyDiagnostics diagnostics();
    }

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
