package io.heliograph.devices.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.VlanVid;

import io.heliograph.core.PacketIns;
import io.heliograph.core.SwitchPort;
import io.heliograph.core.packet.Arp;
import io.heliograph.core.packet.Ethernet;
import io.heliograph.core.packet.Icmpv6;
import io.heliograph.core.packet.Ipv4;
import io.heliograph.core.packet.Ipv6;
import io.heliograph.core.packet.Udp;

/**
 * Reads what a packet-in says about hosts. Runs on the switch's I/O thread, so it only reads
 * headers (no copies beyond the small results) and never throws on bad bytes: a frame whose
 * Ethernet header is broken says nothing; a frame with a broken upper layer still says that its
 * sender is at the port, just not which addresses it has.
 */
final class SightingReader {

    /** The last port number a physical (or logical, e.g. a tunnel) port may have: OFPP_MAX. */
    private static final int MAX_PORT = 0xffff_ff00;
    /** Floodlight's broadcast discovery frames: switch-made, like LLDP. */
    private static final int TYPE_BDDP = 0x8942;
    /** 01:80:c2:00:00:0x: STP, LACP, 802.1X, LLDP... link-local control frames a bridge never forwards. */
    private static final long LINK_CONTROL_GROUP = 0x0180_c200_0000L;

    private SightingReader() {
    }

    /**
     * The sightings in a packet-in from switch {@code dpid}: none when the packet came in on a
     * reserved port (the switch's own LOCAL port is the switch, not a host) or says nothing.
     */
    static List<Sighting> read(DatapathId dpid, OFPacketIn packetIn, Instant at) {
        OFPort inPort = PacketIns.inPort(packetIn);
        if (inPort == null || !isHostPort(inPort)) {
            return List.of();
        }
        return read(SwitchPort.of(dpid, inPort), packetIn.getData(), at);
    }

    /** The sightings in one frame that arrived at {@code port}. */
    static List<Sighting> read(SwitchPort port, byte[] frame, Instant at) {
        Ethernet eth = Ethernet.wrap(frame);
        if (!eth.isValid()) {
            return List.of();
        }
        long source = eth.source();
        if (source == 0 || Ethernet.isMulticast(source) || isSwitchControl(eth)) {
            return List.of();
        }
        VlanVid vlan = eth.vlanId() == Ethernet.NO_VLAN ? VlanVid.ZERO : VlanVid.ofVlan(eth.vlanId());
        List<AddressClaim> claims = new ArrayList<>(2);
        Sighting aboutClient = null;
        switch (eth.etherType()) {
            case Ethernet.TYPE_ARP -> readArp(eth.arp(), source, claims);
            case Ethernet.TYPE_IPV4 -> aboutClient = readIpv4(eth.ipv4(), frame, source, vlan, claims, at);
            case Ethernet.TYPE_IPV6 -> readIpv6(eth.ipv6(), frame, claims);
            default -> {
                // Any other unicast-sourced frame still places its sender.
            }
        }
        Sighting sender = new Sighting(new HostKey(MacAddress.of(source), vlan), port, claims, at);
        return aboutClient == null ? List.of(sender) : List.of(sender, aboutClient);
    }

    static boolean isHostPort(OFPort port) {
        int number = port.getPortNumber();
        return number != 0 && Integer.compareUnsigned(number, MAX_PORT) <= 0;
    }

    private static boolean isSwitchControl(Ethernet eth) {
        int type = eth.etherType();
        return type == Ethernet.TYPE_LLDP || type == TYPE_BDDP || (eth.destination() & ~0xfL) == LINK_CONTROL_GROUP;
    }

    /** A proxy answering for another MAC speaks for that MAC, not for itself: only the sender's own claim counts. */
    private static void readArp(Arp arp, long source, List<AddressClaim> claims) {
        if (arp.isValid() && arp.senderHardwareAddress() == source) {
            IPv4Address sender = arp.senderIp();
            if (isHostAddress(sender)) {
                claims.add(AddressClaim.authoritative(sender));
            }
        }
    }

    private static Sighting readIpv4(Ipv4 ip, byte[] frame, long source, VlanVid vlan, List<AddressClaim> claims,
            Instant at) {
        if (!ip.isValid()) {
            return null;
        }
        IPv4Address sourceAddress = ip.sourceAddress();
        if (isHostAddress(sourceAddress)) {
            claims.add(AddressClaim.observed(sourceAddress));
        }
        Udp udp = ip.udp();
        if (udp == null || !udp.isValid() || !isDhcpPort(udp.sourcePort()) || !isDhcpPort(udp.destinationPort())) {
            return null;
        }
        return readDhcp(DhcpMessage.parse(frame, udp.payloadOffset(), udp.payloadLength()), source, vlan, claims, at);
    }

    private static boolean isDhcpPort(int port) {
        return port == DhcpMessage.SERVER_PORT || port == DhcpMessage.CLIENT_PORT;
    }

    /**
     * A DHCP message speaks about its client (chaddr): the address it asks for in a REQUEST, the
     * address the server gave it in an ACK. When the client sent the frame itself the claim joins
     * its sighting; otherwise (a server's ACK, a relayed REQUEST) it is a sighting of its own that
     * does not say where the client is.
     */
    private static Sighting readDhcp(DhcpMessage dhcp, long source, VlanVid vlan, List<AddressClaim> claims,
            Instant at) {
        if (dhcp == null || dhcp.clientMac() == 0 || Ethernet.isMulticast(dhcp.clientMac())) {
            return null;
        }
        AddressClaim claim = null;
        if (dhcp.op() == DhcpMessage.BOOTREPLY && dhcp.messageType() == DhcpMessage.ACK) {
            IPv4Address given = IPv4Address.of(dhcp.yourAddress());
            claim = isHostAddress(given) ? AddressClaim.authoritative(given) : null;
        } else if (dhcp.op() == DhcpMessage.BOOTREQUEST && dhcp.messageType() == DhcpMessage.REQUEST) {
            // Asked for, not yet granted (the server may NAK): it takes no address from anyone.
            IPv4Address asked = IPv4Address.of(dhcp.requestedAddress());
            claim = isHostAddress(asked) ? AddressClaim.observed(asked) : null;
        }
        if (claim == null) {
            return null;
        }
        if (dhcp.clientMac() == source) {
            claims.add(claim);
            return null;
        }
        return new Sighting(new HostKey(MacAddress.of(dhcp.clientMac()), vlan), null, List.of(claim), at);
    }

    /**
     * Neighbour discovery (RFC 4861) is only valid with hop limit 255, which a router would have
     * lowered: an off-link forgery cannot pass. A solicitation's source is the sender's own address
     * and its target someone else's, except in duplicate address detection (unspecified source),
     * where the target is the address the sender would like: not yet its own, so it takes nothing
     * from anyone. An advertisement's target is the sender's own address.
     */
    private static void readIpv6(Ipv6 ip, byte[] frame, List<AddressClaim> claims) {
        if (!ip.isValid()) {
            return;
        }
        IPv6Address source = ip.sourceAddress();
        Icmpv6 icmp = ip.icmpv6();
        int type = icmp != null && icmp.isValid() ? icmp.type() : -1;
        boolean ndp = (type == Icmpv6.NEIGHBOR_SOLICITATION || type == Icmpv6.NEIGHBOR_ADVERTISEMENT)
                && ip.hopLimit() == 255 && icmp.payloadLength() >= 20;
        if (!ndp) {
            if (isHostAddress(source)) {
                claims.add(AddressClaim.observed(source));
            }
            return;
        }
        int at = icmp.payloadOffset() + 4; // after the reserved (NS) or flags (NA) word
        IPv6Address target = IPv6Address.of(s64(frame, at), s64(frame, at + 8));
        if (type == Icmpv6.NEIGHBOR_SOLICITATION) {
            if (source.isUnspecified()) {
                if (isHostAddress(target)) {
                    claims.add(AddressClaim.observed(target));
                }
            } else if (isHostAddress(source)) {
                claims.add(AddressClaim.authoritative(source));
            }
        } else {
            if (isHostAddress(source)) {
                claims.add(AddressClaim.authoritative(source));
            }
            if (isHostAddress(target) && !target.equals(source)) {
                claims.add(AddressClaim.authoritative(target));
            }
        }
    }

    static boolean isHostAddress(IPv4Address address) {
        return !address.isUnspecified() && !address.isBroadcast() && !address.isMulticast() && !address.isLoopback();
    }

    static boolean isHostAddress(IPv6Address address) {
        return !address.isUnspecified() && !address.isMulticast() && !address.isLoopback();
    }

    private static long s64(byte[] data, int at) {
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = value << 8 | data[at + i] & 0xff;
        }
        return value;
    }
}
