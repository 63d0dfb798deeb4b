package io.heliograph.devices;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.VlanVid;

/**
 * A host seen in the network, identified by MAC and VLAN. Immutable: every change publishes a
 * new value. A host may be attached at several points at once (a multi-homed server, or VMs
 * behind a virtual switch, as Virtue needs); the most recently seen comes first.
 */
public record Host(MacAddress mac, VlanVid vlan, Set<IPv4Address> ipv4Addresses, Set<IPv6Address> ipv6Addresses,
        List<AttachmentPoint> attachmentPoints, Instant firstSeen, Instant lastSeen) {

    public Host {
        ipv4Addresses = Set.copyOf(ipv4Addresses);
        ipv6Addresses = Set.copyOf(ipv6Addresses);
        attachmentPoints = List.copyOf(attachmentPoints);
    }
}
