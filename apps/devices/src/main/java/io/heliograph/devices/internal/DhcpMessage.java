package io.heliograph.devices.internal;

/**
 * The few fields of a DHCP message (RFC 2131) that host tracking uses, read from a UDP payload.
 * Core's packet views stop at UDP; DHCP is only needed here, so it lives here.
 */
record DhcpMessage(int op, long clientMac, int clientAddress, int yourAddress, int messageType,
        int requestedAddress) {

    static final int SERVER_PORT = 67;
    static final int CLIENT_PORT = 68;

    static final int BOOTREQUEST = 1;
    static final int BOOTREPLY = 2;

    static final int REQUEST = 3;
    static final int ACK = 5;

    /** op .. file: the BOOTP part before the magic cookie. */
    private static final int FIXED = 236;
    private static final int MAGIC_COOKIE = 0x6382_5363;
    private static final int OPTION_PAD = 0;
    private static final int OPTION_END = 255;
    private static final int OPTION_REQUESTED_ADDRESS = 50;
    private static final int OPTION_MESSAGE_TYPE = 53;

    /** What {@link #messageType()} and {@link #requestedAddress()} answer when the option is absent. */
    static final int ABSENT = 0;

    /**
     * The message in {@code data[offset, offset + length)}, or null when those bytes are not an
     * Ethernet DHCP message (too short, another hardware type, no magic cookie, an option running
     * past the end).
     */
    static DhcpMessage parse(byte[] data, int offset, int length) {
        if (length < FIXED + 4 || offset < 0 || offset + length > data.length) {
            return null;
        }
        int op = u8(data, offset);
        int hardwareType = u8(data, offset + 1);
        int hardwareLength = u8(data, offset + 2);
        if ((op != BOOTREQUEST && op != BOOTREPLY) || hardwareType != 1 || hardwareLength != 6
                || s32(data, offset + FIXED) != MAGIC_COOKIE) {
            return null;
        }
        int clientAddress = s32(data, offset + 12);
        int yourAddress = s32(data, offset + 16);
        long clientMac = (long) u16(data, offset + 28) << 32 | s32(data, offset + 30) & 0xffff_ffffL;
        int messageType = ABSENT;
        int requested = ABSENT;
        int at = offset + FIXED + 4;
        int end = offset + length;
        while (at < end) {
            int code = u8(data, at);
            if (code == OPTION_END) {
                break;
            }
            if (code == OPTION_PAD) {
                at++;
                continue;
            }
            if (at + 2 > end || at + 2 + u8(data, at + 1) > end) {
                return null;
            }
            int optionLength = u8(data, at + 1);
            if (code == OPTION_MESSAGE_TYPE && optionLength == 1) {
                messageType = u8(data, at + 2);
            } else if (code == OPTION_REQUESTED_ADDRESS && optionLength == 4) {
                requested = s32(data, at + 2);
            }
            at += 2 + optionLength;
        }
        return new DhcpMessage(op, clientMac, clientAddress, yourAddress, messageType, requested);
    }

    private static int u8(byte[] data, int at) {
        return data[at] & 0xff;
    }

    private static int u16(byte[] data, int at) {
        return u8(data, at) << 8 | u8(data, at + 1);
    }

    private static int s32(byte[] data, int at) {
        return u16(data, at) << 16 | u16(data, at + 2);
    }
}
