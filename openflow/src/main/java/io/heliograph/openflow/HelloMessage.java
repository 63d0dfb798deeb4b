package io.heliograph.openflow;

import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

import io.netty.buffer.ByteBuf;

/**
 * A HELLO as read from the wire. It is parsed here rather than by Loxi because a switch may say
 * HELLO in a version Loxi does not know (a newer one), and negotiation must still work then.
 *
 * @param bitmapVersions wire versions from the version-bitmap element, or null when there is none
 */
public record HelloMessage(int wireVersion, long xid, Set<Integer> bitmapVersions) {

    static final int TYPE = 0;
    private static final int ELEMENT_VERSION_BITMAP = 1;

    /** Reads a framed HELLO; elements that are truncated or unknown are skipped, as the spec asks. */
    static HelloMessage read(ByteBuf frame) {
        int start = frame.readerIndex();
        int version = frame.getUnsignedByte(start);
        int length = frame.getUnsignedShort(start + 2);
        long xid = frame.getUnsignedInt(start + 4);
        Set<Integer> versions = null;
        int offset = start + 8;
        int end = start + Math.min(length, frame.readableBytes());
        while (offset + 4 <= end) {
            int type = frame.getUnsignedShort(offset);
            int elementLength = frame.getUnsignedShort(offset + 2);
            if (elementLength < 4 || offset + elementLength > end) {
                break;
            }
            if (type == ELEMENT_VERSION_BITMAP) {
                versions = new TreeSet<>();
                for (int word = 0; 4 + word * 4 + 4 <= elementLength; word++) {
                    long bits = frame.getUnsignedInt(offset + 4 + word * 4);
                    for (int bit = 0; bit < 32; bit++) {
                        if ((bits & (1L << bit)) != 0) {
                            versions.add(word * 32 + bit);
                        }
                    }
                }
                versions = Collections.unmodifiableSet(versions);
            }
            offset += (elementLength + 7) / 8 * 8; // elements are padded to 8 bytes
        }
        return new HelloMessage(version, xid, versions);
    }
}
