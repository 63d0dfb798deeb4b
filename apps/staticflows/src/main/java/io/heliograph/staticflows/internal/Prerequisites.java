package io.heliograph.staticflows.internal;

import java.util.Map;
import java.util.Set;

import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.IpProtocol;
import org.projectfloodlight.openflow.types.OFVlanVidMatch;
import org.projectfloodlight.openflow.types.U8;

/**
 * OpenFlow's match field prerequisites (OpenFlow 1.3.5 table 12): a field may only be matched, or
 * set by an action, when the match pins down the headers it lives in, e.g. {@code tcp_dst} needs
 * {@code ip_proto=6} and an IP {@code eth_type}. Floodlight's pusher sent such flows anyway and
 * waited for an answer that never came; here they are refused with a message naming what is missing.
 */
final class Prerequisites {

    static final int IPV4 = 0x0800;
    static final int ARP = 0x0806;
    static final int IPV6 = 0x86dd;
    static final int MPLS = 0x8847;
    static final int MPLS_MC = 0x8848;

    /**
     * What the packet is known to carry: the exact fields of the match, plus headers pushed by
     * earlier actions (push_vlan, push_mpls).
     */
    record Context(Map<Field, FieldValue> match, boolean vlanPushed, Integer ethTypeOverride) {

        Integer ethType() {
            if (ethTypeOverride != null) {
                return ethTypeOverride;
            }
            FieldValue v = match.get(Field.ETH_TYPE);
            return v != null && v.exact() ? ((EthType) v.value()).getValue() : null;
        }

        Short ipProto() {
            FieldValue v = match.get(Field.IP_PROTO);
            return v != null && v.exact() ? ((IpProtocol) v.value()).getIpProtocolNumber() : null;
        }

        Short icmpv6Type() {
            FieldValue v = match.get(Field.ICMPV6_TYPE);
            return v != null && v.exact() ? ((U8) v.value()).getValue() : null;
        }

        boolean hasVlan() {
            if (vlanPushed) {
                return true;
            }
            FieldValue v = match.get(Field.VLAN_VID);
            if (v == null) {
                return false;
            }
            // A match on a VLAN id, or on "any tagged packet" (present bit with a mask), proves a tag.
            OFVlanVidMatch vid = (OFVlanVidMatch) v.value();
            return !vid.equals(OFVlanVidMatch.UNTAGGED) && (vid.getRawVid() & 0x1000) != 0;
        }
    }

    private Prerequisites() {
    }

    /** The problem with using {@code field} in this context, or null when its prerequisites hold. */
    static String check(Field field, Context c, String use) {
        switch (field) {
            case IN_PHYS_PORT:
                return c.match().containsKey(Field.IN_PORT) ? null : use + " needs in_port in the match";
            case VLAN_PCP:
                return c.hasVlan() ? null
                        : use + " needs a VLAN: match eth_vlan_vid with a VLAN id (or push_vlan first)";
            case IP_DSCP:
            case IP_ECN:
            case IP_PROTO:
                return ethType(c, use, Set.of(IPV4, IPV6), "eth_type=0x0800 (IPv4) or eth_type=0x86dd (IPv6)");
            case IPV4_SRC:
            case IPV4_DST:
                return ethType(c, use, Set.of(IPV4), "eth_type=0x0800 (IPv4)");
            case TCP_SRC:
            case TCP_DST:
                return ipProto(c, use, 6, "TCP");
            case UDP_SRC:
            case UDP_DST:
                return ipProto(c, use, 17, "UDP");
            case SCTP_SRC:
            case SCTP_DST:
                return ipProto(c, use, 132, "SCTP");
            case ICMPV4_TYPE:
            case ICMPV4_CODE: {
                String eth = ethType(c, use, Set.of(IPV4), "eth_type=0x0800 (IPv4)");
                return eth != null ? eth : proto(c, use, 1, "ICMP");
            }
            case ARP_OPCODE:
            case ARP_SPA:
            case ARP_TPA:
            case ARP_SHA:
            case ARP_THA:
                return ethType(c, use, Set.of(ARP), "eth_type=0x0806 (ARP)");
            case IPV6_SRC:
            case IPV6_DST:
            case IPV6_LABEL:
                return ethType(c, use, Set.of(IPV6), "eth_type=0x86dd (IPv6)");
            case ICMPV6_TYPE:
            case ICMPV6_CODE: {
                String eth = ethType(c, use, Set.of(IPV6), "eth_type=0x86dd (IPv6)");
                return eth != null ? eth : proto(c, use, 58, "ICMPv6");
            }
            case IPV6_ND_TARGET:
                return icmpv6(c, use, Set.of((short) 135, (short) 136), "icmpv6_type=135 or 136 (neighbour solicitation or advertisement)");
            case IPV6_ND_SLL:
                return icmpv6(c, use, Set.of((short) 135), "icmpv6_type=135 (neighbour solicitation)");
            case IPV6_ND_TLL:
                return icmpv6(c, use, Set.of((short) 136), "icmpv6_type=136 (neighbour advertisement)");
            case MPLS_LABEL:
            case MPLS_TC:
            case MPLS_BOS:
                return ethType(c, use, Set.of(MPLS, MPLS_MC), "eth_type=0x8847 or 0x8848 (MPLS)");
            default:
                return null;
        }
    }

    private static String ethType(Context c, String use, Set<Integer> allowed, String wanted) {
        Integer eth = c.ethType();
        if (eth == null) {
            return use + " needs " + wanted + " in the match; the entry has no exact eth_type";
        }
        if (!allowed.contains(eth)) {
            return use + " needs " + wanted + "; the entry has eth_type=0x" + String.format("%04x", eth);
        }
        return null;
    }

    private static String ipProto(Context c, String use, int proto, String name) {
        String eth = ethType(c, use, Set.of(IPV4, IPV6), "eth_type=0x0800 (IPv4) or eth_type=0x86dd (IPv6)");
        return eth != null ? eth : proto(c, use, proto, name);
    }

    private static String proto(Context c, String use, int proto, String name) {
        Short p = c.ipProto();
        if (p == null) {
            return use + " needs ip_proto=" + proto + " (" + name + ") in the match; the entry has no exact ip_proto";
        }
        if (p != proto) {
            return use + " needs ip_proto=" + proto + " (" + name + "); the entry has ip_proto=" + p;
        }
        return null;
    }

    private static String icmpv6(Context c, String use, Set<Short> types, String wanted) {
        String base = check(Field.ICMPV6_TYPE, c, use);
        if (base != null) {
            return base;
        }
        Short t = c.icmpv6Type();
        if (t == null || !types.contains(t)) {
            return use + " needs " + wanted + " in the match" + (t == null ? "" : "; the entry has icmpv6_type=" + t);
        }
        return null;
    }
}
