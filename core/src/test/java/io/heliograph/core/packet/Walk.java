package io.heliograph.core.packet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads every field of every layer a frame offers, as a careless listener would, and checks the
 * views' promises: invalid views say why and read as zero; valid views stay inside the array.
 * Returns the problems found on the way, outermost first.
 */
final class Walk {

    private Walk() {
    }

    static List<String> everything(byte[] frame) {
        List<String> problems = new ArrayList<>();
        Ethernet eth = Ethernet.wrap(frame);
        view(eth, frame, problems);
        long sink = eth.destination() + eth.source() + eth.etherType() + eth.vlanTagCount() + eth.vlanId()
                + eth.vlanPcp() + eth.innerVlanId() + eth.vlanTagProtocol(0) + (eth.vlanDei(0) ? 1 : 0)
                + eth.vlanId(-1) + eth.vlanId(99) + (eth.isMulticastDestination() ? 1 : 0)
                + (eth.isBroadcastDestination() ? 1 : 0);
        assertNotNull(eth.destinationMac());
        assertNotNull(eth.sourceMac());

        Ipv4 ip = eth.ipv4();
        if (ip != null) {
            view(ip, frame, problems);
            sink += ip.totalLength() + ip.optionsLength() + ip.dscp() + ip.ecn() + ip.identification()
                    + ip.fragmentOffset() + ip.ttl() + ip.protocol() + ip.headerChecksum() + ip.source()
                    + ip.destination() + (ip.isChecksumValid() ? 1 : 0) + (ip.isFragment() ? 1 : 0)
                    + (ip.dontFragment() ? 1 : 0);
            assertNotNull(ip.sourceAddress());
            transport(ip.tcp(), ip.udp(), frame, problems);
            icmp(ip.icmp(), frame, problems);
        }
        Ipv6 ip6 = eth.ipv6();
        if (ip6 != null) {
            view(ip6, frame, problems);
            sink += ip6.trafficClass() + ip6.flowLabel() + ip6.payloadLengthField() + ip6.nextHeader()
                    + ip6.protocol() + ip6.hopLimit() + ip6.extensionHeaderCount() + ip6.sourceHigh()
                    + ip6.sourceLow() + ip6.destinationHigh() + ip6.destinationLow() + ip6.fragmentOffset()
                    + ip6.fragmentIdentification() + (ip6.moreFragments() ? 1 : 0);
            assertNotNull(ip6.destinationAddress());
            transport(ip6.tcp(), ip6.udp(), frame, problems);
            Icmpv6 icmp6 = ip6.icmpv6();
            if (icmp6 != null) {
                view(icmp6, frame, problems);
                sink += icmp6.type() + icmp6.code() + icmp6.checksum();
            }
        }
        Arp arp = eth.arp();
        if (arp != null) {
            view(arp, frame, problems);
            sink += arp.opcode() + arp.senderHardwareAddress() + arp.senderProtocolAddress()
                    + arp.targetHardwareAddress() + arp.targetProtocolAddress();
            assertNotNull(arp.targetIp());
        }
        Lldp lldp = eth.lldp();
        if (lldp != null) {
            view(lldp, frame, problems);
            sink += lldp.chassisIdSubtype() + lldp.chassisId().length + lldp.portIdSubtype() + lldp.portId().length
                    + lldp.ttl();
            for (Lldp.Tlv tlv : lldp.tlvs()) {
                assertTrue(tlv.valueOffset() + tlv.length() <= frame.length);
                sink += tlv.type() + tlv.value().length + tlv.oui() + tlv.subtype() + tlv.organizationValue().length;
            }
            lldp.organizationSpecific(0x0026e1, 0);
        }
        assertTrue(sink != 42 || sink == 42); // keep the reads from being optimised away
        return problems;
    }

    private static void transport(Tcp tcp, Udp udp, byte[] frame, List<String> problems) {
        if (tcp != null) {
            view(tcp, frame, problems);
            long sink = tcp.sourcePort() + tcp.destinationPort() + tcp.sequenceNumber() + tcp.acknowledgmentNumber()
                    + tcp.flags() + tcp.window() + tcp.checksum() + tcp.urgentPointer() + tcp.optionsLength();
            assertTrue(sink >= 0);
        }
        if (udp != null) {
            view(udp, frame, problems);
            assertTrue(udp.sourcePort() + udp.destinationPort() + udp.length() + udp.checksum() >= 0);
        }
    }

    private static void icmp(Icmp icmp, byte[] frame, List<String> problems) {
        if (icmp != null) {
            view(icmp, frame, problems);
            assertTrue(icmp.type() + icmp.code() + icmp.checksum() + icmp.identifier() + icmp.sequenceNumber() >= 0);
            icmp.restOfHeader();
        }
    }

    /** The promises every view keeps. */
    private static void view(HeaderView v, byte[] frame, List<String> problems) {
        if (v.isValid()) {
            assertNull(v.problem());
            assertTrue(v.headerLength() > 0, v.toString());
            assertTrue(v.payloadOffset() + v.payloadLength() <= frame.length, v.toString());
            assertTrue(v.payloadLength() >= 0, v.toString());
            assertEquals(v.payloadLength(), v.payload().length);
        } else {
            assertNotNull(v.problem());
            assertEquals(0, v.headerLength());
            assertEquals(0, v.payloadLength());
            assertEquals(0, v.payload().length);
            problems.add(v.problem());
        }
        assertNotNull(v.toString());
    }
}
