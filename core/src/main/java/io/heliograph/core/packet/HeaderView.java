package io.heliograph.core.packet;

import java.util.Arrays;

/**
 * A read-only view of one protocol header inside a packet's bytes. Views copy nothing: they keep the
 * array, the header's offset and the end of the bytes it may read, and decode a field only when it is
 * asked for. A view checks its own header when it is created (cheap bound and consistency checks);
 * the layers above it are looked at only when asked for ({@code eth.ipv4()}, {@code ip.tcp()}...).
 *
 * <p>A header that is truncated or inconsistent gives an invalid view: {@link #isValid()} is false,
 * {@link #problem()} says what is wrong, every field reads as zero and no upper layer is offered.
 * Nothing here throws on bad packet bytes.
 *
 * <p>Views are meant for the thread that handles the packet (they cache the upper-layer views they
 * create) and must not outlive a change to the array.
 */
public abstract class HeaderView {

    final byte[] data;
    final int offset;
    final int limit;
    private String problem;

    /**
     * @param limit one past the last byte this header and its payload may use (the end of the
     *              enclosing layer's payload, or of the captured bytes)
     */
    HeaderView(byte[] data, int offset, int limit) {
        this.data = data;
        this.offset = offset;
        this.limit = limit;
    }

    /**
     * Runs {@link #check()}; the last statement of every subclass constructor, so the fields check()
     * computes are not overwritten by field initializers that run after this constructor.
     */
    final void validate() {
        problem = check();
    }

    /**
     * Checks the header's bytes and computes the offsets the accessors need; returns a description
     * of the problem, or null when the header is parseable.
     */
    abstract String check();

    /** Whether this header is complete and consistent, so its fields can be read. */
    public final boolean isValid() {
        return problem == null;
    }

    /** Why this header cannot be parsed, naming the protocol and the field; null when it is valid. */
    public final String problem() {
        return problem;
    }

    /** The offset of this header's first byte in the packet array. */
    public final int offset() {
        return offset;
    }

    /** The number of header bytes, options and extension headers included; 0 when invalid. */
    public abstract int headerLength();

    /** The offset of the first byte after this header. */
    public final int payloadOffset() {
        return offset + headerLength();
    }

    /**
     * The number of payload bytes present in the array: what the header declares, or fewer when the
     * switch sent only the first bytes of the packet (miss_send_len). 0 when invalid.
     */
    public int payloadLength() {
        return isValid() ? Math.max(0, payloadEnd() - payloadOffset()) : 0;
    }

    /** Whether the header declares more payload than the array holds (a truncated packet-in). */
    public boolean isTruncated() {
        return false;
    }

    /** A copy of the payload bytes that are present. */
    public final byte[] payload() {
        return isValid() ? Arrays.copyOfRange(data, payloadOffset(), payloadOffset() + payloadLength()) : new byte[0];
    }

    /** One past the last payload byte present; protocols with a length field override it. */
    int payloadEnd() {
        return limit;
    }

    /** The number of bytes from this header's start to the limit. */
    final int available() {
        return limit - offset;
    }

    final int u8(int at) {
        return data[at] & 0xff;
    }

    final int u16(int at) {
        return (data[at] & 0xff) << 8 | data[at + 1] & 0xff;
    }

    final int s32(int at) {
        return (data[at] & 0xff) << 24 | (data[at + 1] & 0xff) << 16 | (data[at + 2] & 0xff) << 8 | data[at + 3] & 0xff;
    }

    final long u32(int at) {
        return s32(at) & 0xffff_ffffL;
    }

    final long u48(int at) {
        return (long) u16(at) << 32 | u32(at + 2);
    }

    final long s64(int at) {
        return (long) s32(at) << 32 | u32(at + 4);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + (isValid() ? "[offset=" + offset + ", header=" + headerLength()
                + ", payload=" + payloadLength() + "]" : "[invalid: " + problem + "]");
    }
}
