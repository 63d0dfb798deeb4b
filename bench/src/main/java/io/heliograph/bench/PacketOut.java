package io.heliograph.bench;

import java.nio.ByteBuffer;

/**
 * Reads a PACKET_OUT in place: the ports its OUTPUT actions name and where its frame lies. Only
 * what the fabric mode needs to carry a frame over a cable; other actions are skipped.
 */
final class PacketOut {

    /** What the message's actions say, for one frame: out of which ports it leaves. */
    interface Outputs {
        void output(int port);
    }

    private static final int ACTION_OUTPUT = 0;

    private PacketOut() {
    }

    /**
     * Calls {@code outputs} with the port of every OUTPUT action of the message at {@code at}, in
     * order, and returns the offset of its frame (the end of the actions).
     *
     * @throws IllegalArgumentException when the actions overrun the message or an action is shorter
     *                                  than its header (the message cannot be read)
     */
    static int outputs(OpenFlowVersion v, ByteBuffer b, int at, int length, Outputs outputs) {
        boolean v10 = v == OpenFlowVersion.OF_10;
        int fixed = v10 ? 16 : 24;
        if (length < fixed) {
            throw new IllegalArgumentException("a PACKET_OUT of " + length + " bytes, shorter than its " + fixed
                    + "-byte fixed part");
        }
        int actions = at + fixed;
        int frame = actions + (b.getShort(at + (v10 ? 14 : 16)) & 0xffff);
        if (frame > at + length) {
            throw new IllegalArgumentException("a PACKET_OUT whose actions (" + (frame - actions)
                    + " bytes) overrun the message (" + length + " bytes)");
        }
        int action = actions;
        while (action + 4 <= frame) {
            int type = b.getShort(action) & 0xffff;
            int actionLength = b.getShort(action + 2) & 0xffff;
            if (actionLength < 8 || action + actionLength > frame) {
                throw new IllegalArgumentException("a PACKET_OUT action of type " + type + " with length "
                        + actionLength + " at offset " + (action - at));
            }
            if (type == ACTION_OUTPUT) {
                outputs.output(v10 ? b.getShort(action + 4) & 0xffff : b.getInt(action + 4));
            }
            action += actionLength;
        }
        return frame;
    }
}
