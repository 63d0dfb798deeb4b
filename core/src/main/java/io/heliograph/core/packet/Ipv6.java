package io.heliograph.core.packet;

import org.projectfloodlight.openflow.types.IPv6Address;

/**
 * An IPv6 header (RFC 8200) and its extension headers, as a zero-copy view. Creating it walks the
 * extension headers this view knows how to skip (hop-by-hop options, routing, fragment, destination
 * options, authentication) to find the upper-layer protocol; the view is invalid when that chain is
 * cut off or runs past the declared payload.
 */
public final class Ipv6 extends IpHeader {

    public static final int HOP_BY_HOP = 0;
    public static final int PROTOCOL_TCP = 6;
    public static final int PROTOCOL_UDP = 17;
    public static final int ROUTING = 43;
    public static final int FRAGMENT = 44;
    public static final int ESP = 50;
    public static final int AUTHENTICATION = 51;
    public static final int PROTOCOL_ICMPV6 = 58;
    public static final int NO_NEXT_HEADER = 59;
    public static final int DESTINATION_OPTIONS = 60;

    static final int FIXED_HEADER = 40;

    private int headerLength;
    private int protocol;
    private int extensionHeaders;
    private int fragmentHeader = -1;

    Ipv6(byte[] data, int offset, int limit) {
        super(data, offset, limit);
        validate();
    }

    @Override
    String check() {
        if (available() < FIXED_HEADER) {
            return "IPv6: " + available() + " bytes, the header needs " + FIXED_HEADER;
        }
        int version = u8(offset) >>> 4;
        if (version != 6) {
            return "IPv6: version field is " + version;
        }
        int end = declaredEnd();
        int next = u8(offset + 6);
        int at = offset + FIXED_HEADER;
        int count = 0;
        while (isExtension(next)) {
            String name = name(next);
            if (end - at < 8) {
                return "IPv6: " + name + " header " + (count + 1) + " at byte " + (at - offset)
                        + " is cut off (" + Math.max(0, end - at) + " bytes left)";
            }
            int length = switch (next) {
                case FRAGMENT -> 8;
                case AUTHENTICATION -> (u8(at + 1) + 2) * 4;
                default -> (u8(at + 1) + 1) * 8;
            };
            if (length > end - at) {
                return "IPv6: " + name + " header " + (count + 1) + " at byte " + (at - offset) + " claims "
                        + length + " bytes, " + (end - at) + " left";
            }
            if (next == FRAGMENT) {
                fragmentHeader = at;
            }
            next = u8(at);
            at += length;
            count++;
        }
        headerLength = at - offset;
        protocol = next;
        extensionHeaders = count;
        return null;
    }

    /** Where the payload ends by the header's own account, within the bytes present. */
    private int declaredEnd() {
        int declared = u16(offset + 4);
        // A zero payload length means a jumbogram (RFC 2675): its length is in a hop-by-hop option.
        return declared == 0 ? limit : Math.min(limit, offset + FIXED_HEADER + declared);
    }

    private static boolean isExtension(int next) {
        return next == HOP_BY_HOP || next == ROUTING || next == FRAGMENT || next == DESTINATION_OPTIONS
                || next == AUTHENTICATION;
    }

    private static String name(int next) {
        return switch (next) {
            case HOP_BY_HOP -> "hop-by-hop options";
            case ROUTING -> "routing";
            case FRAGMENT -> "fragment";
            case DESTINATION_OPTIONS -> "destination options";
            default -> "authentication";
        };
    }

    /** The fixed header plus the extension headers. */
    @Override
    public int headerLength() {
        return isValid() ? headerLength : 0;
    }

    @Override
    int payloadEnd() {
        return declaredEnd();
    }

    @Override
    public boolean isTruncated() {
        return isValid() && payloadLengthField() != 0 && offset + FIXED_HEADER + payloadLengthField() > limit;
    }

    public int trafficClass() {
        return isValid() ? (u16(offset) >>> 4) & 0xff : 0;
    }

    public int flowLabel() {
        return isValid() ? s32(offset) & 0x000f_ffff : 0;
    }

    /** The payload length field: the bytes after the fixed header, extension headers included. */
    public int payloadLengthField() {
        return isValid() ? u16(offset + 4) : 0;
    }

    /** The next header field of the fixed header (the first extension header, or the upper layer). */
    public int nextHeader() {
        return isValid() ? u8(offset + 6) : 0;
    }

    /**
     * The upper-layer protocol after the extension headers, e.g. {@link #PROTOCOL_TCP}, or
     * {@link #NO_NEXT_HEADER}, or {@link #ESP} (whose contents are encrypted).
     */
    public int protocol() {
        return isValid() ? protocol : 0;
    }

    public int hopLimit() {
        return isValid() ? u8(offset + 7) : 0;
    }

    /** The number of extension headers skipped to reach {@link #protocol()}. */
    public int extensionHeaderCount() {
        return isValid() ? extensionHeaders : 0;
    }

    /** The high 64 bits of the source address. */
    public long sourceHigh() {
        return isValid() ? s64(offset + 8) : 0;
    }

    public long sourceLow() {
        return isValid() ? s64(offset + 16) : 0;
    }

    public long destinationHigh() {
        return isValid() ? s64(offset + 24) : 0;
    }

    public long destinationLow() {
        return isValid() ? s64(offset + 32) : 0;
    }

    public IPv6Address sourceAddress() {
        return IPv6Address.of(sourceHigh(), sourceLow());
    }

    public IPv6Address destinationAddress() {
        return IPv6Address.of(destinationHigh(), destinationLow());
    }

    /** Whether a fragment header is present (any fragment, the first included). */
    public boolean isFragment() {
        return isValid() && fragmentHeader >= 0;
    }

    /** The fragment offset in bytes, 0 when there is no fragment header. */
    public int fragmentOffset() {
        return isFragment() ? u16(fragmentHeader + 2) & 0xfff8 : 0;
    }

    public boolean moreFragments() {
        return isFragment() && (u8(fragmentHeader + 3) & 0x01) != 0;
    }

    public long fragmentIdentification() {
        return isFragment() ? u32(fragmentHeader + 4) : 0;
    }

    /** The TCP header, or null when the upper layer is not TCP or this is not the first fragment. */
    public Tcp tcp() {
        return upperLayer(PROTOCOL_TCP, Tcp::new);
    }

    /** The UDP header, or null when the upper layer is not UDP or this is not the first fragment. */
    public Udp udp() {
        return upperLayer(PROTOCOL_UDP, Udp::new);
    }

    /** The ICMPv6 header, or null when the upper layer is not ICMPv6 or this is not the first fragment. */
    public Icmpv6 icmpv6() {
        return upperLayer(PROTOCOL_ICMPV6, Icmpv6::new);
    }

}
