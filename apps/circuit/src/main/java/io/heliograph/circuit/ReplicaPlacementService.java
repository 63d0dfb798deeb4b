package io.heliograph.circuit;

/**
 * reHDFS-style placement advice (spec §2.8): where a writer should put its remote replicas so that the
 * racks' replica traffic is one ring, which the circuit schedule serves in one day. The offset rotates
 * as configured, so the advice may change over time.
 */
public interface ReplicaPlacementService {

    /**
     * The rack for the remote replicas of a writer in {@code writerRack}, now.
     *
     * @throws IllegalArgumentException when the rack is not one of the network's
     */
    int replicaRack(int writerRack);
}
