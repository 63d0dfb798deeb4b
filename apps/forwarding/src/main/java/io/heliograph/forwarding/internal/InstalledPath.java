package io.heliograph.forwarding.internal;

import java.util.List;
import java.util.Set;

import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.VlanVid;

import io.heliograph.topology.Link;

/**
 * The flows written for one forwarded flow, both directions, and what they depend on: a failed link
 * or switch, or a host that moved, makes them wrong.
 *
 * @param links    every link the flows send over, in both directions (a cable failing is reported per direction)
 * @param switches every switch holding one of the entries
 * @param hosts    the end hosts (source and destination), by MAC and VLAN (ZERO when untagged)
 * @param entries  the entries in the order they were written
 */
record InstalledPath(long id, Set<Link> links, Set<DatapathId> switches, Set<HostKey> hosts, List<FlowEntry> entries) {

    InstalledPath {
        links = Set.copyOf(links);
        switches = Set.copyOf(switches);
        hosts = Set.copyOf(hosts);
        entries = List.copyOf(entries);
    }

    record HostKey(MacAddress mac, VlanVid vlan) {

        static HostKey of(MacAddress mac, VlanVid vlanOrNull) {
            return new HostKey(mac, vlanOrNull == null ? VlanVid.ZERO : vlanOrNull);
        }
    }
}
