package io.heliograph.core.packet;

import org.projectfloodlight.openflow.types.IPv4Address;

/**
 * An IPv4 header (RFC 791) as a zero-copy view. Valid when the whole header, options included, is
 * present and its version, header length and total length agree; a payload cut short by the switch
 * (miss_send_len) is not a problem, see {@link #isTruncated()}.
 */
public final class Ipv4 extends IpHeader {

    public static final int PROTOCOL_ICMP = 1;
    public static final int PROTOCOL_TCP = 6;
    public static final int PROTOCOL_UDP = 17;

    static final int MIN_HEADER = 20;

    private int headerLength;

    Ipv4(byte[] data, int offset, int limit) {
        super(data, offset, limit);
        validate();
    }

    @Override
    String check() {
        if (available() < MIN_HEADER) {
            return "IPv4: " + available() + " bytes, the header needs at least " + MIN_HEADER;
        }
        int version = u8(offset) >>> 4;
        if (version != 4) {
            return "IPv4: version field is " + version;
        }
        int length = (u8(offset) & 0x0f) * 4;
        if (length < MIN_HEADER) {
            return "IPv4: header length " + length + " is below the minimum " + MIN_HEADER;
        }
        if (length > available()) {
            return "IPv4: header length " + length + " exceeds the " + available() + " bytes present";
        }
        int total = u16(offset + 2);
        if (total < length) {
            return "IPv4: total length " + total + " is less than the header length " + length;
        }
        headerLength = length;
        return null;
    }

    @Override
    public int headerLength() {
        return isValid() ? headerLength : 0;
    }

    @Override
    int payloadEnd() {
        // Ethernet pads short frames: the total length, not the frame, says where IPv4 ends.
        return Math.min(limit, offset + totalLength());
    }

    @Override
    public boolean isTruncated() {
        return isValid() && offset + totalLength() > limit;
    }

    /** The number of option bytes after the fixed 20-byte header. */
    public int optionsLength() {
        return isValid() ? headerLength - MIN_HEADER : 0;
    }

    /** The offset of the first option byte in the packet array. */
    public int optionsOffset() {
        return offset + MIN_HEADER;
    }

    public int dscp() {
        return isValid() ? u8(offset + 1) >>> 2 : 0;
    }

    public int ecn() {
        return isValid() ? u8(offset + 1) & 0x03 : 0;
    }

    /** The total length field: header plus payload, as sent. */
    public int totalLength() {
        return isValid() ? u16(offset + 2) : 0;
    }

    public int identification() {
        return isValid() ? u16(offset + 4) : 0;
    }

    public boolean dontFragment() {
        return isValid() && (u8(offset + 6) & 0x40) != 0;
    }

    public boolean moreFragments() {
        return isValid() && (u8(offset + 6) & 0x20) != 0;
    }

    /** The fragment offset in bytes (the field counts 8-byte units). */
    public int fragmentOffset() {
        return isValid() ? (u16(offset + 6) & 0x1fff) * 8 : 0;
    }

    /** Whether this is part of a fragmented datagram (any fragment, the first included). */
    public boolean isFragment() {
        return moreFragments() || fragmentOffset() != 0;
    }

    public int ttl() {
        return isValid() ? u8(offset + 8) : 0;
    }

    /** The protocol number of the payload, e.g. {@link #PROTOCOL_TCP}. */
    public int protocol() {
        return isValid() ? u8(offset + 9) : 0;
    }

    public int headerChecksum() {
        return isValid() ? u16(offset + 10) : 0;
    }

    /** Whether the header checksum is right (the one's complement sum over the header is all ones). */
    public boolean isChecksumValid() {
        if (!isValid()) {
            return false;
        }
        int sum = 0;
        for (int i = 0; i < headerLength; i += 2) {
            sum += u16(offset + i);
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xffff) + (sum >>> 16);
        }
        return sum == 0xffff;
    }

    /** The source address as a 32-bit int. */
    public int source() {
        return isValid() ? s32(offset + 12) : 0;
    }

    /** The destination address as a 32-bit int. */
    public int destination() {
        return isValid() ? s32(offset + 16) : 0;
    }

    public IPv4Address sourceAddress() {
        return IPv4Address.of(source());
    }

    public IPv4Address destinationAddress() {
        return IPv4Address.of(destination());
    }

    /**
     * The TCP header, or null when the payload is not TCP or this is a fragment other than the
     * first (which carries no TCP header).
     */
    public Tcp tcp() {
        return upperLayer(PROTOCOL_TCP, Tcp::new);
    }

    /** The UDP header, or null when the payload is not UDP or this is not the first fragment. */
    public Udp udp() {
        return upperLayer(PROTOCOL_UDP, Udp::new);
    }

    /** The ICMP header, or null when the payload is not ICMP or this is not the first fragment. */
    public Icmp icmp() {
        return upperLayer(PROTOCOL_ICMP, Icmp::new);
    }

}
