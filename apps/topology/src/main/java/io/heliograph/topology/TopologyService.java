package io.heliograph.topology;

/** Link discovery (LLDP) and the current topology. */
public interface TopologyService {

    /** The current snapshot. */
    Topology getTopology();
}
