package io.heliograph.core.cluster;

import java.util.Set;

import org.projectfloodlight.openflow.types.DatapathId;

/**
 * Who is master of one switch.
 *
 * @param switchId   the switch
 * @param master     the master instance's id, or null while the switch has none (during a fail-over)
 * @param generation the generation id the master sent with its role request: from ZooKeeper, larger
 *                   for every new master of any switch
 * @param candidates the instances connected to the switch, which may become its master
 */
public record Mastership(DatapathId switchId, String master, long generation, Set<String> candidates) {
}
