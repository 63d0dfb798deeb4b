package io.heliograph.core.cluster;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.projectfloodlight.openflow.types.DatapathId;

/**
 * Which instance is MASTER of each switch. Elected through ZooKeeper; each new master's role
 * request carries a generation id from ZooKeeper that only grows, so a switch refuses a deposed
 * master. An instance whose ZooKeeper session is suspended stops acting as master of every switch
 * at once. Applications ask {@link io.heliograph.core.OFSwitch#getRole()} before writing and are told
 * of changes by {@link io.heliograph.core.SwitchListener#roleChanged}.
 */
public interface MastershipService {

    /** Every switch an instance of the cluster is connected to, by datapath id. */
    Map<DatapathId, Mastership> getMasterships();

    /** The mastership of one switch, empty when no instance is connected to it. */
    Optional<Mastership> getMastership(DatapathId switchId);

    /**
     * Moves a switch's mastership to another instance connected to it. Completes when that instance
     * is master (its role confirmed by the switch); exceptionally with an IllegalArgumentException
     * that names the problem when the switch or instance is unknown or the instance is not connected
     * to the switch.
     */
    CompletableFuture<Mastership> moveMastership(DatapathId switchId, String instanceId);

    /** Spreads mastership evenly over the instances; completes when the moves are done. */
    CompletableFuture<Map<DatapathId, Mastership>> rebalance();
}
