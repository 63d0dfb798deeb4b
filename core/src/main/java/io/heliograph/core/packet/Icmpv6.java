package io.heliograph.core.packet;

/** An ICMPv6 (RFC 4443) header as a zero-copy view: type, code and checksum; the body follows. */
public final class Icmpv6 extends HeaderView {

    public static final int DESTINATION_UNREACHABLE = 1;
    public static final int PACKET_TOO_BIG = 2;
    public static final int TIME_EXCEEDED = 3;
    public static final int ECHO_REQUEST = 128;
    public static final int ECHO_REPLY = 129;
    public static final int ROUTER_SOLICITATION = 133;
    public static final int ROUTER_ADVERTISEMENT = 134;
    public static final int NEIGHBOR_SOLICITATION = 135;
    public static final int NEIGHBOR_ADVERTISEMENT = 136;

    static final int HEADER = 4;

    Icmpv6(byte[] data, int offset, int limit) {
        super(data, offset, limit);
        validate();
    }

    @Override
    String check() {
        return available() < HEADER ? "ICMPv6: " + available() + " bytes, the header needs " + HEADER : null;
    }

    @Override
    public int headerLength() {
        return isValid() ? HEADER : 0;
    }

    public int type() {
        return isValid() ? u8(offset) : 0;
    }

    public int code() {
        return isValid() ? u8(offset + 1) : 0;
    }

    public int checksum() {
        return isValid() ? u16(offset + 2) : 0;
    }
}
