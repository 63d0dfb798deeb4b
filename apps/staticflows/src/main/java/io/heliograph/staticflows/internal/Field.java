package io.heliograph.staticflows.internal;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.ArpOpcode;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.ICMPv4Code;
import org.projectfloodlight.openflow.types.ICMPv4Type;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv4AddressWithMask;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.IPv6AddressWithMask;
import org.projectfloodlight.openflow.types.IPv6FlowLabel;
import org.projectfloodlight.openflow.types.IpDscp;
import org.projectfloodlight.openflow.types.IpEcn;
import org.projectfloodlight.openflow.types.IpProtocol;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBooleanValue;
import org.projectfloodlight.openflow.types.OFMetadata;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.OFValueType;
import org.projectfloodlight.openflow.types.OFVlanVidMatch;
import org.projectfloodlight.openflow.types.TransportPort;
import org.projectfloodlight.openflow.types.U32;
import org.projectfloodlight.openflow.types.U64;
import org.projectfloodlight.openflow.types.U8;
import org.projectfloodlight.openflow.types.VlanPcp;

import io.heliograph.staticflows.Ports;

/**
 * The match fields an entry may use, by Floodlight's names, each with its Loxi field and the
 * parser of its text value. Values out of the field's range are refused by the parser with a
 * message naming the field.
 */
enum Field {
    IN_PORT("in_port", MatchField.IN_PORT, v -> port(v)),
    IN_PHYS_PORT("in_phys_port", MatchField.IN_PHY_PORT, v -> port(v)),
    METADATA("metadata", MatchField.METADATA, v -> OFMetadata.of(U64.of(unsigned64(v)))),
    ETH_DST("eth_dst", MatchField.ETH_DST, MacAddress::of),
    ETH_SRC("eth_src", MatchField.ETH_SRC, MacAddress::of),
    ETH_TYPE("eth_type", MatchField.ETH_TYPE, v -> EthType.of((int) ranged(v, 0, 0xffff))),
    VLAN_VID("eth_vlan_vid", MatchField.VLAN_VID, Field::vlan),
    VLAN_PCP("eth_vlan_pcp", MatchField.VLAN_PCP, v -> VlanPcp.of((byte) ranged(v, 0, 7))),
    IP_DSCP("ip_dscp", MatchField.IP_DSCP, v -> IpDscp.of((byte) ranged(v, 0, 63))),
    IP_ECN("ip_ecn", MatchField.IP_ECN, v -> IpEcn.of((byte) ranged(v, 0, 3))),
    IP_PROTO("ip_proto", MatchField.IP_PROTO, v -> IpProtocol.of((short) ranged(v, 0, 255))),
    IPV4_SRC("ipv4_src", MatchField.IPV4_SRC, IPv4Address::of),
    IPV4_DST("ipv4_dst", MatchField.IPV4_DST, IPv4Address::of),
    TCP_SRC("tcp_src", MatchField.TCP_SRC, Field::transport),
    TCP_DST("tcp_dst", MatchField.TCP_DST, Field::transport),
    UDP_SRC("udp_src", MatchField.UDP_SRC, Field::transport),
    UDP_DST("udp_dst", MatchField.UDP_DST, Field::transport),
    SCTP_SRC("sctp_src", MatchField.SCTP_SRC, Field::transport),
    SCTP_DST("sctp_dst", MatchField.SCTP_DST, Field::transport),
    ICMPV4_TYPE("icmpv4_type", MatchField.ICMPV4_TYPE, v -> ICMPv4Type.of((short) ranged(v, 0, 255))),
    ICMPV4_CODE("icmpv4_code", MatchField.ICMPV4_CODE, v -> ICMPv4Code.of((short) ranged(v, 0, 255))),
    ARP_OPCODE("arp_opcode", MatchField.ARP_OP, v -> ArpOpcode.of((int) ranged(v, 0, 0xffff))),
    ARP_SPA("arp_spa", MatchField.ARP_SPA, IPv4Address::of),
    ARP_TPA("arp_tpa", MatchField.ARP_TPA, IPv4Address::of),
    ARP_SHA("arp_sha", MatchField.ARP_SHA, MacAddress::of),
    ARP_THA("arp_tha", MatchField.ARP_THA, MacAddress::of),
    IPV6_SRC("ipv6_src", MatchField.IPV6_SRC, IPv6Address::of),
    IPV6_DST("ipv6_dst", MatchField.IPV6_DST, IPv6Address::of),
    IPV6_LABEL("ipv6_label", MatchField.IPV6_FLABEL, v -> IPv6FlowLabel.of((int) ranged(v, 0, 0xfffff))),
    ICMPV6_TYPE("icmpv6_type", MatchField.ICMPV6_TYPE, v -> U8.of((short) ranged(v, 0, 255))),
    ICMPV6_CODE("icmpv6_code", MatchField.ICMPV6_CODE, v -> U8.of((short) ranged(v, 0, 255))),
    IPV6_ND_TARGET("ipv6_nd_target", MatchField.IPV6_ND_TARGET, IPv6Address::of),
    IPV6_ND_SLL("ipv6_nd_sll", MatchField.IPV6_ND_SLL, MacAddress::of),
    IPV6_ND_TLL("ipv6_nd_tll", MatchField.IPV6_ND_TLL, MacAddress::of),
    MPLS_LABEL("mpls_label", MatchField.MPLS_LABEL, v -> U32.of(ranged(v, 0, 0xfffff))),
    MPLS_TC("mpls_tc", MatchField.MPLS_TC, v -> U8.of((short) ranged(v, 0, 7))),
    MPLS_BOS("mpls_bos", MatchField.MPLS_BOS, v -> OFBooleanValue.of(ranged(v, 0, 1) == 1)),
    TUNNEL_ID("tunnel_id", MatchField.TUNNEL_ID, v -> U64.of(unsigned64(v)));

    private static final Map<String, Field> BY_NAME = new HashMap<>();

    static {
        for (Field f : values()) {
            BY_NAME.put(f.text, f);
        }
        // Floodlight also reads OpenFlow 1.0 names and the generic transport ports.
        BY_NAME.put("dl_type", ETH_TYPE);
        BY_NAME.put("dl_src", ETH_SRC);
        BY_NAME.put("dl_dst", ETH_DST);
        BY_NAME.put("dl_vlan", VLAN_VID);
        BY_NAME.put("dl_vlan_pcp", VLAN_PCP);
        BY_NAME.put("nw_proto", IP_PROTO);
        BY_NAME.put("nw_src", IPV4_SRC);
        BY_NAME.put("nw_dst", IPV4_DST);
    }

    final String text;
    final MatchField<?> loxi;
    private final Function<String, OFValueType<?>> parser;

    @SuppressWarnings("unchecked")
    <F extends OFValueType<F>> Field(String text, MatchField<F> loxi, Function<String, ? extends OFValueType<?>> parser) {
        this.text = text;
        this.loxi = loxi;
        this.parser = (Function<String, OFValueType<?>>) parser;
    }

    static Field byName(String name) {
        return BY_NAME.get(name.trim().toLowerCase(Locale.ROOT));
    }

    /**
     * Parses a value, with an optional mask after a slash (IPv4 and IPv6 also take a prefix length).
     * The message of the exception names the field and the value.
     */
    FieldValue parse(String text) {
        String t = text.trim();
        try {
            if (this == IPV4_SRC || this == IPV4_DST || this == ARP_SPA || this == ARP_TPA) {
                IPv4AddressWithMask m = IPv4AddressWithMask.of(t);
                return FieldValue.of(this, m.getValue(), m.getMask());
            }
            if (this == IPV6_SRC || this == IPV6_DST || this == IPV6_ND_TARGET) {
                IPv6AddressWithMask m = IPv6AddressWithMask.of(t);
                return FieldValue.of(this, m.getValue(), m.getMask());
            }
            if (this == VLAN_VID && t.equalsIgnoreCase("present")) {
                // Any tagged packet: the "VLAN present" bit, masked.
                return FieldValue.of(this, OFVlanVidMatch.PRESENT, OFVlanVidMatch.PRESENT);
            }
            int slash = t.indexOf('/');
            if (slash < 0) {
                return FieldValue.of(this, parser.apply(t), null);
            }
            return FieldValue.of(this, parser.apply(t.substring(0, slash)), parser.apply(t.substring(slash + 1)));
        } catch (RuntimeException e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new IllegalArgumentException(this.text + "=" + text + " is not a valid value: " + why, e);
        }
    }

    private static OFPort port(String v) {
        return Ports.parse(v);
    }

    private static TransportPort transport(String v) {
        return TransportPort.of((int) ranged(v, 0, 0xffff));
    }

    /** A VLAN id 0..4095 (a tagged packet), or "none" for untagged packets ("present" is handled in parse). */
    private static OFVlanVidMatch vlan(String v) {
        if (v.trim().equalsIgnoreCase("none") || v.trim().equalsIgnoreCase("untagged")) {
            return OFVlanVidMatch.UNTAGGED;
        }
        return OFVlanVidMatch.ofVlan((int) ranged(v, 0, 4095));
    }

    static long ranged(String v, long min, long max) {
        long n;
        try {
            n = Long.decode(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + v + "' is not a number");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(n + " is outside " + min + ".." + max);
        }
        return n;
    }

    private static long unsigned64(String v) {
        String t = v.trim();
        try {
            return t.startsWith("0x") || t.startsWith("0X") ? Long.parseUnsignedLong(t.substring(2), 16)
                    : Long.parseUnsignedLong(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + v + "' is not a 64-bit unsigned number");
        }
    }
}
