package io.heliograph.devices.internal;

import static io.heliograph.devices.internal.TestFrames.BROADCAST;
import static io.heliograph.devices.internal.TestFrames.IP_A;
import static io.heliograph.devices.internal.TestFrames.IP_B;
import static io.heliograph.devices.internal.TestFrames.IP_SERVER;
import static io.heliograph.devices.internal.TestFrames.MAC_A;
import static io.heliograph.devices.internal.TestFrames.MAC_B;
import static io.heliograph.devices.internal.TestFrames.MAC_SERVER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.VlanVid;

import io.heliograph.core.SwitchPort;

class SightingReaderTest {

    private static final DatapathId DPID = DatapathId.of(7);
    private static final SwitchPort PORT = SwitchPort.of(DPID, OFPort.of(3));
    private static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");
    private static final IPv6Address LINK_LOCAL_A = IPv6Address.of("fe80::a");
    private static final IPv6Address GLOBAL_A = IPv6Address.of("2001:db8::a");
    private static final IPv6Address GLOBAL_B = IPv6Address.of("2001:db8::b");

    private static List<Sighting> read(byte[] frame) {
        return SightingReader.read(PORT, frame, NOW);
    }

    private static Sighting only(byte[] frame) {
        List<Sighting> sightings = read(frame);
        assertEquals(1, sightings.size(), () -> "sightings: " + sightings);
        return sightings.get(0);
    }

    private static AddressClaim authoritative(String address) {
        return AddressClaim.authoritative(address.contains(":") ? IPv6Address.of(address) : IPv4Address.of(address));
    }

    private static AddressClaim observed(String address) {
        return AddressClaim.observed(address.contains(":") ? IPv6Address.of(address) : IPv4Address.of(address));
    }

    @Test
    void anArpRequestPlacesItsSenderAndClaimsTheSenderAddress() {
        Sighting s = only(TestFrames.arpRequest(MAC_A, IP_A, IP_B));

        assertEquals(new HostKey(MacAddress.of(MAC_A), VlanVid.ZERO), s.host());
        assertEquals(PORT, s.port());
        assertEquals(NOW, s.at());
        assertEquals(List.of(authoritative("10.0.0.1")), s.claims(), "the target address is someone else's");
    }

    @Test
    void anArpProbeFromTheUnspecifiedAddressClaimsNothing() {
        assertEquals(List.of(), only(TestFrames.arpRequest(MAC_A, 0, IP_A)).claims());
    }

    @Test
    void proxyArpForAnotherMacClaimsNothingForTheProxy() {
        byte[] proxied = TestFrames.arp(MAC_B, 2, MAC_A, IP_A, MAC_SERVER, IP_SERVER);

        Sighting s = only(proxied);
        assertEquals(MacAddress.of(MAC_B), s.host().mac());
        assertEquals(List.of(), s.claims());
    }

    @Test
    void anIpv4PacketOffersItsSourceButItTakesNothingFromOthers() {
        Sighting s = only(TestFrames.ping4(MAC_B, MAC_A, IP_A, IP_B));
        assertEquals(List.of(observed("10.0.0.1")), s.claims());
    }

    @Test
    void unspecifiedBroadcastMulticastAndLoopbackSourcesAreNotAddresses() {
        for (String source : List.of("0.0.0.0", "255.255.255.255", "224.0.0.251", "127.0.0.1")) {
            int ip = IPv4Address.of(source).getInt();
            assertEquals(List.of(), only(TestFrames.ping4(MAC_B, MAC_A, ip, IP_B)).claims(), source);
        }
    }

    @Test
    void aVlanTagMakesPartOfTheIdentity() {
        Sighting s = only(TestFrames.withVlan(TestFrames.arpRequest(MAC_A, IP_A, IP_B), 42));
        assertEquals(new HostKey(MacAddress.of(MAC_A), VlanVid.ofVlan(42)), s.host());
        assertEquals(List.of(authoritative("10.0.0.1")), s.claims());
    }

    @Test
    void aNeighbourSolicitationClaimsItsSourceNotItsTarget() {
        Sighting s = only(TestFrames.ndp(135, MAC_A, LINK_LOCAL_A, IPv6Address.of("ff02::1:ff00:b"), GLOBAL_B, 255));
        assertEquals(List.of(authoritative("fe80::a")), s.claims());
    }

    @Test
    void duplicateAddressDetectionOffersTheTentativeTargetWithoutTakingIt() {
        Sighting s = only(TestFrames.ndp(135, MAC_A, IPv6Address.NONE, IPv6Address.of("ff02::1:ff00:a"), GLOBAL_A,
                255));
        assertEquals(List.of(observed("2001:db8::a")), s.claims());
    }

    @Test
    void aNeighbourAdvertisementClaimsItsSourceAndTarget() {
        Sighting s = only(TestFrames.ndp(136, MAC_A, LINK_LOCAL_A, IPv6Address.of("fe80::b"), GLOBAL_A, 255));
        assertEquals(List.of(authoritative("fe80::a"), authoritative("2001:db8::a")), s.claims());
    }

    @Test
    void neighbourDiscoveryBelowHopLimit255IsOnlyAnIpv6Packet() {
        // Routed from off-link: not neighbour discovery (RFC 4861 7.1.2), so the target teaches nothing.
        Sighting s = only(TestFrames.ndp(136, MAC_A, GLOBAL_B, IPv6Address.of("fe80::b"), GLOBAL_A, 64));
        assertEquals(List.of(observed("2001:db8::b")), s.claims());
    }

    @Test
    void anIpv6PacketOffersItsSourceUnlessUnspecifiedOrMulticast() {
        assertEquals(List.of(observed("2001:db8::a")),
                only(TestFrames.udp6(MAC_B, MAC_A, GLOBAL_A, GLOBAL_B)).claims());
        assertEquals(List.of(), only(TestFrames.udp6(MAC_B, MAC_A, IPv6Address.NONE, GLOBAL_B)).claims());
        assertEquals(List.of(), only(TestFrames.udp6(MAC_B, MAC_A, IPv6Address.of("ff02::1"), GLOBAL_B)).claims());
    }

    @Test
    void aDhcpRequestFromTheClientOffersTheRequestedAddress() {
        Sighting s = only(TestFrames.dhcpRequest(MAC_A, IP_A));
        assertEquals(MacAddress.of(MAC_A), s.host().mac());
        assertEquals(List.of(observed("10.0.0.1")), s.claims(), "the source 0.0.0.0 is no address");
    }

    @Test
    void aDhcpAckPlacesTheServerAndGivesTheClientItsAddressWithoutPlacingIt() {
        List<Sighting> sightings = read(TestFrames.dhcpAck(MAC_SERVER, IP_SERVER, MAC_A, IP_A));

        assertEquals(2, sightings.size());
        Sighting server = sightings.get(0);
        assertEquals(MacAddress.of(MAC_SERVER), server.host().mac());
        assertEquals(PORT, server.port());
        assertEquals(List.of(observed("10.0.0.254")), server.claims());
        Sighting client = sightings.get(1);
        assertEquals(new HostKey(MacAddress.of(MAC_A), VlanVid.ZERO), client.host());
        assertNull(client.port(), "the ACK did not come from the client");
        assertEquals(List.of(authoritative("10.0.0.1")), client.claims());
    }

    @Test
    void otherDhcpMessagesClaimNothingForTheClient() {
        byte[] discover = TestFrames.udp4(BROADCAST, MAC_A, 0, -1, 68, 67, TestFrames.dhcp(1, MAC_A, 0, 0, 1, 0));
        assertEquals(List.of(), only(discover).claims());
        byte[] offer = TestFrames.udp4(BROADCAST, MAC_SERVER, IP_SERVER, -1, 67, 68,
                TestFrames.dhcp(2, MAC_A, 0, IP_A, 2, 0));
        assertEquals(1, read(offer).size(), "an OFFER is not yet the client's address");
    }

    @Test
    void framesFromGroupAddressesOrTheZeroMacTeachNothing() {
        assertEquals(List.of(), read(TestFrames.arpRequest(0x0100_5e00_0001L, IP_A, IP_B)));
        assertEquals(List.of(), read(TestFrames.arpRequest(BROADCAST, IP_A, IP_B)));
        assertEquals(List.of(), read(TestFrames.arpRequest(0, IP_A, IP_B)));
    }

    @Test
    void lldpAndOtherLinkControlFramesTeachNothing() {
        assertEquals(List.of(), read(TestFrames.lldp(MAC_A)));
        byte[] stp = TestFrames.ethernet(0x0180_c200_0000L, MAC_A, 0x0026).zeros(46).build();
        assertEquals(List.of(), read(stp));
        byte[] bddp = TestFrames.ethernet(BROADCAST, MAC_A, 0x8942).zeros(46).build();
        assertEquals(List.of(), read(bddp));
    }

    @Test
    void packetInsOfEveryVersionGiveTheInPort() {
        for (OFVersion version : List.of(OFVersion.OF_10, OFVersion.OF_13, OFVersion.OF_14, OFVersion.OF_15)) {
            List<Sighting> sightings = SightingReader.read(DPID,
                    TestFrames.packetIn(version, 3, TestFrames.arpRequest(MAC_A, IP_A, IP_B)), NOW);
            assertEquals(1, sightings.size(), version::toString);
            assertEquals(PORT, sightings.get(0).port(), version::toString);
        }
    }

    @Test
    void theSwitchsOwnLocalPortIsNoHostPort() {
        byte[] frame = TestFrames.arpRequest(MAC_A, IP_A, IP_B);
        assertEquals(List.of(), SightingReader.read(DPID, TestFrames.packetIn(OFVersion.OF_13, OFPort.LOCAL, frame),
                NOW));
        assertEquals(List.of(), SightingReader.read(DPID, TestFrames.packetIn(OFVersion.OF_10, OFPort.LOCAL, frame),
                NOW));
    }

    @Test
    void aBrokenUpperLayerStillPlacesTheSenderWithoutAddresses() {
        byte[] arp = TestFrames.arpRequest(MAC_A, IP_A, IP_B);
        Sighting s = only(Arrays.copyOf(arp, 14 + 20)); // ARP cut off before the sender address
        assertEquals(MacAddress.of(MAC_A), s.host().mac());
        assertEquals(List.of(), s.claims());

        byte[] ack = TestFrames.dhcpAck(MAC_SERVER, IP_SERVER, MAC_A, IP_A);
        assertEquals(1, read(Arrays.copyOf(ack, ack.length - 40)).size(), "a DHCP message cut short names no client");
    }

    @Test
    void aDhcpOptionRunningPastTheEndIsRefused() {
        byte[] message = TestFrames.dhcp(2, MAC_A, 0, IP_A, 5, 0);
        byte[] broken = Arrays.copyOf(message, message.length + 2);
        broken[message.length - 1] = 12; // the end option becomes "host name", 200 bytes long, 2 present
        broken[message.length] = (byte) 200;
        assertNull(DhcpMessage.parse(broken, 0, broken.length));
        assertEquals(IP_A, DhcpMessage.parse(message, 0, message.length).yourAddress());
    }

    @Test
    void truncatedAndRandomFramesNeverThrow() {
        Random random = new Random(42);
        List<byte[]> samples = List.of(TestFrames.arpRequest(MAC_A, IP_A, IP_B),
                TestFrames.dhcpAck(MAC_SERVER, IP_SERVER, MAC_A, IP_A), TestFrames.dhcpRequest(MAC_A, IP_A),
                TestFrames.ndp(136, MAC_A, LINK_LOCAL_A, GLOBAL_B, GLOBAL_A, 255),
                TestFrames.udp6(MAC_B, MAC_A, GLOBAL_A, GLOBAL_B), TestFrames.lldp(MAC_A));
        for (byte[] sample : samples) {
            for (int length = 0; length <= sample.length; length++) {
                read(Arrays.copyOf(sample, length));
            }
            for (int round = 0; round < 500; round++) {
                byte[] mangled = sample.clone();
                for (int flips = 0; flips < 4; flips++) {
                    mangled[random.nextInt(mangled.length)] = (byte) random.nextInt(256);
                }
                read(mangled);
            }
        }
        assertEquals(List.of(), read(null));
        assertEquals(List.of(), read(new byte[0]));
        assertTrue(read(new byte[13]).isEmpty());
    }
}
