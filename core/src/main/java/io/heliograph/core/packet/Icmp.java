package io.heliograph.core.packet;

/** An ICMP (for IPv4, RFC 792) header as a zero-copy view: type, code, checksum and the 4 bytes after them. */
public final class Icmp extends HeaderView {

    public static final int ECHO_REPLY = 0;
    public static final int DESTINATION_UNREACHABLE = 3;
    public static final int REDIRECT = 5;
    public static final int ECHO_REQUEST = 8;
    public static final int TIME_EXCEEDED = 11;

    static final int HEADER = 8;

    Icmp(byte[] data, int offset, int limit) {
        super(data, offset, limit);
        validate();
    }

    @Override
    String check() {
        return available() < HEADER ? "ICMP: " + available() + " bytes, the header needs " + HEADER : null;
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

    /** The identifier of an echo request or reply (the first half of the rest-of-header word). */
    public int identifier() {
        return isValid() ? u16(offset + 4) : 0;
    }

    /** The sequence number of an echo request or reply. */
    public int sequenceNumber() {
        return isValid() ? u16(offset + 6) : 0;
    }

    /** The 4 bytes after the checksum, whose meaning depends on the type. */
    public int restOfHeader() {
        return isValid() ? s32(offset + 4) : 0;
    }
}
