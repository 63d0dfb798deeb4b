package io.heliograph.devices.internal;

import java.util.Objects;

import org.projectfloodlight.openflow.types.IPAddress;

/**
 * An IP address a packet says a host has. An authoritative claim is the host speaking for itself
 * (ARP sender, neighbour discovery, a DHCP ACK): it takes the address from any other host on the
 * VLAN. A plain IP source address is not: a router forwards packets with other hosts' source
 * addresses behind its own MAC, so such a claim only adds an address nobody else on the VLAN has.
 */
record AddressClaim(IPAddress<?> address, boolean authoritative) {

    AddressClaim {
        Objects.requireNonNull(address, "address");
    }

    static AddressClaim authoritative(IPAddress<?> address) {
        return new AddressClaim(address, true);
    }

    static AddressClaim observed(IPAddress<?> address) {
        return new AddressClaim(address, false);
    }
}
