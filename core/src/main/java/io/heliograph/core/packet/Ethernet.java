package io.heliograph.core.packet;

import java.util.Objects;

import org.projectfloodlight.openflow.types.MacAddress;

/**
 * An Ethernet II frame, with any number of 802.1Q / 802.1ad (QinQ) tags, as a zero-copy view:
 *
 * <pre>{@code
 * Ethernet eth = Ethernet.wrap(packetIn.getData());
 * if (!eth.isValid()) { log.debug("not parseable: {}", eth.problem()); return CONTINUE; }
 * long src = eth.source();                       // 48-bit MAC in a long
 * Ipv4 ip = eth.ipv4();                          // null unless the frame carries IPv4
 * Tcp tcp = ip != null ? ip.tcp() : null;        // null unless a (first-fragment) TCP segment
 * if (tcp != null && tcp.isValid() && tcp.destinationPort() == 80) { ... }
 * }</pre>
 *
 * <p>The upper-layer accessors return null when the frame does not carry that protocol, and a view
 * (valid or not, see {@link HeaderView}) when it does. Creating the view reads the 14-byte header
 * and the VLAN tags, nothing more.
 */
public final class Ethernet extends HeaderView {

    public static final int TYPE_IPV4 = 0x0800;
    public static final int TYPE_ARP = 0x0806;
    public static final int TYPE_VLAN = 0x8100;
    public static final int TYPE_IPV6 = 0x86dd;
    public static final int TYPE_QINQ = 0x88a8;
    public static final int TYPE_LLDP = 0x88cc;
    /** The pre-standard QinQ tag protocol id some switches still use. */
    public static final int TYPE_QINQ_LEGACY = 0x9100;

    /** The all-ones broadcast address. */
    public static final long BROADCAST = 0xffff_ffff_ffffL;

    /** What {@link #vlanId()} answers for an untagged frame. */
    public static final int NO_VLAN = -1;

    static final int HEADER = 14;
    static final int TAG = 4;

    private int tags;
    private HeaderView upper;

    private Ethernet(byte[] data, int offset, int limit) {
        super(data, offset, limit);
        validate();
    }

    /** A view of a whole frame. A null array gives an invalid view. */
    public static Ethernet wrap(byte[] frame) {
        return frame == null ? new Ethernet(null, 0, 0) : new Ethernet(frame, 0, frame.length);
    }

    /**
     * A view of the frame in {@code frame[offset, offset + length)}.
     *
     * @throws IndexOutOfBoundsException when the range is not inside the array (a caller's bug, not
     *                                   a bad packet)
     */
    public static Ethernet wrap(byte[] frame, int offset, int length) {
        if (frame == null) {
            return new Ethernet(null, 0, 0);
        }
        Objects.checkFromIndexSize(offset, length, frame.length);
        return new Ethernet(frame, offset, offset + length);
    }

    @Override
    String check() {
        if (data == null) {
            return "Ethernet: no packet data";
        }
        if (available() < HEADER) {
            return "Ethernet: " + available() + " bytes, the header needs " + HEADER;
        }
        int n = 0;
        while (isTagProtocol(u16(offset + 12 + n * TAG))) {
            if (available() < HEADER + (n + 1) * TAG) {
                return "Ethernet: VLAN tag " + (n + 1) + " is cut off at byte " + available();
            }
            n++;
        }
        tags = n;
        return null;
    }

    private static boolean isTagProtocol(int type) {
        return type == TYPE_VLAN || type == TYPE_QINQ || type == TYPE_QINQ_LEGACY;
    }

    @Override
    public int headerLength() {
        return isValid() ? HEADER + tags * TAG : 0;
    }

    /** The destination MAC address in the low 48 bits. */
    public long destination() {
        return isValid() ? u48(offset) : 0;
    }

    /** The source MAC address in the low 48 bits. */
    public long source() {
        return isValid() ? u48(offset + 6) : 0;
    }

    public MacAddress destinationMac() {
        return MacAddress.of(destination());
    }

    public MacAddress sourceMac() {
        return MacAddress.of(source());
    }

    /** Whether the destination is a group address (multicast, broadcast included). */
    public boolean isMulticastDestination() {
        return isValid() && isMulticast(destination());
    }

    public boolean isBroadcastDestination() {
        return isValid() && destination() == BROADCAST;
    }

    /** Whether a 48-bit MAC address is a group (multicast or broadcast) address: the I/G bit. */
    public static boolean isMulticast(long mac) {
        return (mac & 0x0100_0000_0000L) != 0;
    }

    /**
     * The EtherType after the VLAN tags, e.g. {@link #TYPE_IPV4}. Values below 0x0600 are an 802.3
     * length field (an LLC frame), not a type.
     */
    public int etherType() {
        return isValid() ? u16(offset + 12 + tags * TAG) : 0;
    }

    /** The number of 802.1Q / QinQ tags, outermost first. */
    public int vlanTagCount() {
        return isValid() ? tags : 0;
    }

    /** The VLAN id of the outermost tag, or {@link #NO_VLAN}. */
    public int vlanId() {
        return vlanId(0);
    }

    /** The priority (PCP) of the outermost tag, or 0 when untagged. */
    public int vlanPcp() {
        return vlanPcp(0);
    }

    /** The VLAN id of the second tag (the customer tag of a QinQ frame), or {@link #NO_VLAN}. */
    public int innerVlanId() {
        return vlanId(1);
    }

    /** The VLAN id of tag {@code index} (0 is outermost), or {@link #NO_VLAN} when there is no such tag. */
    public int vlanId(int index) {
        return hasTag(index) ? u16(tagOffset(index) + 2) & 0x0fff : NO_VLAN;
    }

    /** The priority code point of tag {@code index}, or 0 when there is no such tag. */
    public int vlanPcp(int index) {
        return hasTag(index) ? u8(tagOffset(index) + 2) >>> 5 : 0;
    }

    /** The drop-eligible indicator of tag {@code index}. */
    public boolean vlanDei(int index) {
        return hasTag(index) && (u8(tagOffset(index) + 2) & 0x10) != 0;
    }

    /** The tag protocol id (0x8100, 0x88a8 or 0x9100) of tag {@code index}, or 0 when there is no such tag. */
    public int vlanTagProtocol(int index) {
        return hasTag(index) ? u16(tagOffset(index)) : 0;
    }

    private boolean hasTag(int index) {
        return isValid() && index >= 0 && index < tags;
    }

    private int tagOffset(int index) {
        return offset + 12 + index * TAG;
    }

    /** The IPv4 header, or null when the frame is not IPv4. */
    public Ipv4 ipv4() {
        if (etherType() != TYPE_IPV4) {
            return null;
        }
        if (upper == null) {
            upper = new Ipv4(data, payloadOffset(), limit);
        }
        return (Ipv4) upper;
    }

    /** The IPv6 header, or null when the frame is not IPv6. */
    public Ipv6 ipv6() {
        if (etherType() != TYPE_IPV6) {
            return null;
        }
        if (upper == null) {
            upper = new Ipv6(data, payloadOffset(), limit);
        }
        return (Ipv6) upper;
    }

    /** The ARP packet, or null when the frame is not ARP. */
    public Arp arp() {
        if (etherType() != TYPE_ARP) {
            return null;
        }
        if (upper == null) {
            upper = new Arp(data, payloadOffset(), limit);
        }
        return (Arp) upper;
    }

    /** The LLDP data unit, or null when the frame is not LLDP. */
    public Lldp lldp() {
        if (etherType() != TYPE_LLDP) {
            return null;
        }
        if (upper == null) {
            upper = new Lldp(data, payloadOffset(), limit);
        }
        return (Lldp) upper;
    }
}
