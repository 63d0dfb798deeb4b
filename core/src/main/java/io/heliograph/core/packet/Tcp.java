package io.heliograph.core.packet;

/** A TCP header (RFC 9293) as a zero-copy view; valid when the whole header, options included, is present. */
public final class Tcp extends HeaderView {

    public static final int FIN = 0x001;
    public static final int SYN = 0x002;
    public static final int RST = 0x004;
    public static final int PSH = 0x008;
    public static final int ACK = 0x010;
    public static final int URG = 0x020;
    public static final int ECE = 0x040;
    public static final int CWR = 0x080;

    static final int MIN_HEADER = 20;

    private int headerLength;

    Tcp(byte[] data, int offset, int limit) {
        super(data, offset, limit);
        validate();
    }

    @Override
    String check() {
        if (available() < MIN_HEADER) {
            return "TCP: " + available() + " bytes, the header needs at least " + MIN_HEADER;
        }
        int length = (u8(offset + 12) >>> 4) * 4;
        if (length < MIN_HEADER) {
            return "TCP: data offset " + length + " is below the minimum " + MIN_HEADER;
        }
        if (length > available()) {
            return "TCP: header length " + length + " exceeds the " + available() + " bytes present";
        }
        headerLength = length;
        return null;
    }

    @Override
    public int headerLength() {
        return isValid() ? headerLength : 0;
    }

    public int sourcePort() {
        return isValid() ? u16(offset) : 0;
    }

    public int destinationPort() {
        return isValid() ? u16(offset + 2) : 0;
    }

    /** The sequence number, unsigned. */
    public long sequenceNumber() {
        return isValid() ? u32(offset + 4) : 0;
    }

    /** The acknowledgment number, unsigned. */
    public long acknowledgmentNumber() {
        return isValid() ? u32(offset + 8) : 0;
    }

    /** The control bits (CWR, ECE, URG, ACK, PSH, RST, SYN, FIN), as the constants of this class. */
    public int flags() {
        return isValid() ? u8(offset + 13) : 0;
    }

    public boolean isSyn() {
        return (flags() & SYN) != 0;
    }

    public boolean isAck() {
        return (flags() & ACK) != 0;
    }

    public boolean isFin() {
        return (flags() & FIN) != 0;
    }

    public boolean isRst() {
        return (flags() & RST) != 0;
    }

    public int window() {
        return isValid() ? u16(offset + 14) : 0;
    }

    public int checksum() {
        return isValid() ? u16(offset + 16) : 0;
    }

    public int urgentPointer() {
        return isValid() ? u16(offset + 18) : 0;
    }

    /** The offset of the first option byte in the packet array. */
    public int optionsOffset() {
        return offset + MIN_HEADER;
    }

    public int optionsLength() {
        return isValid() ? headerLength - MIN_HEADER : 0;
    }
}
