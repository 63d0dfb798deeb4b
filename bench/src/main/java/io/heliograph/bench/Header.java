package io.heliograph.bench;

import java.nio.ByteBuffer;

/** The 8-byte OpenFlow header every message starts with: version, type, length, xid. */
final class Header {

    static final int LENGTH = 8;

    private Header() {
    }

    /** Writes a header at the buffer's position; the caller writes {@code length - 8} more bytes. */
    static void put(ByteBuffer out, OpenFlowVersion version, int type, int length, int xid) {
        out.put((byte) version.wire()).put((byte) type).putShort((short) length).putInt(xid);
    }

    static int version(ByteBuffer b, int at) {
        return b.get(at) & 0xff;
    }

    static int type(ByteBuffer b, int at) {
        return b.get(at + 1) & 0xff;
    }

    static int length(ByteBuffer b, int at) {
        return b.getShort(at + 2) & 0xffff;
    }

    static int xid(ByteBuffer b, int at) {
        return b.getInt(at + 4);
    }

    /** {@code text} in ASCII, cut or zero-padded to {@code size} bytes (OpenFlow's fixed-size strings). */
    static void putString(ByteBuffer out, String text, int size) {
        int n = Math.min(text.length(), size - 1);
        for (int i = 0; i < n; i++) {
            out.put((byte) text.charAt(i));
        }
        zeros(out, size - n);
    }

    static void zeros(ByteBuffer out, int count) {
        for (int i = 0; i < count; i++) {
            out.put((byte) 0);
        }
    }
}
