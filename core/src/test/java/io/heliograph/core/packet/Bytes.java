package io.heliograph.core.packet;

import java.io.ByteArrayOutputStream;

/** Builds packets byte by byte, big-endian, the way they go on the wire. */
final class Bytes {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Bytes u8(int... values) {
        for (int v : values) {
            out.write(v);
        }
        return this;
    }

    Bytes u16(int v) {
        return u8(v >>> 8, v);
    }

    Bytes u32(long v) {
        return u16((int) (v >>> 16)).u16((int) v);
    }

    Bytes u48(long v) {
        return u16((int) (v >>> 32)).u32(v);
    }

    Bytes u64(long v) {
        return u32(v >>> 32).u32(v);
    }

    Bytes bytes(byte[] b) {
        out.writeBytes(b);
        return this;
    }

    Bytes zeros(int n) {
        return bytes(new byte[n]);
    }

    int size() {
        return out.size();
    }

    byte[] build() {
        return out.toByteArray();
    }

    /** Sets the 16-bit one's complement checksum of {@code b[from, to)} at {@code at}. */
    static void checksum(byte[] b, int from, int to, int at) {
        int sum = 0;
        for (int i = from; i < to; i += 2) {
            sum += (b[i] & 0xff) << 8 | (i + 1 < to ? b[i + 1] & 0xff : 0);
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xffff) + (sum >>> 16);
        }
        sum = ~sum & 0xffff;
        b[at] = (byte) (sum >>> 8);
        b[at + 1] = (byte) sum;
    }
}
