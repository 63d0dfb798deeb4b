package io.heliograph.core.packet;

/** A UDP header (RFC 768) as a zero-copy view. */
public final class Udp extends HeaderView {

    static final int HEADER = 8;

    Udp(byte[] data, int offset, int limit) {
        super(data, offset, limit);
        validate();
    }

    @Override
    String check() {
        if (available() < HEADER) {
            return "UDP: " + available() + " bytes, the header needs " + HEADER;
        }
        int length = u16(offset + 4);
        if (length < HEADER) {
            return "UDP: length field " + length + " is below the header size " + HEADER;
        }
        return null;
    }

    @Override
    public int headerLength() {
        return isValid() ? HEADER : 0;
    }

    @Override
    int payloadEnd() {
        return Math.min(limit, offset + length());
    }

    @Override
    public boolean isTruncated() {
        return isValid() && offset + length() > limit;
    }

    public int sourcePort() {
        return isValid() ? u16(offset) : 0;
    }

    public int destinationPort() {
        return isValid() ? u16(offset + 2) : 0;
    }

    /** The length field: header plus payload, as sent. */
    public int length() {
        return isValid() ? u16(offset + 4) : 0;
    }

    public int checksum() {
        return isValid() ? u16(offset + 6) : 0;
    }
}
