package io.heliograph.bench;

import java.nio.ByteBuffer;

/**
 * What the trivial responder says: HELLO, FEATURES_REQUEST, ECHO_REPLY, and the one FLOW_MOD it
 * answers every packet-in with (add, match everything, output to port 2, permanent), applied to the
 * packet-in's buffer as a controller answers a buffered packet.
 */
final class ControllerMessages {

    static final int FLOW_MOD_LENGTH = 80;

    private ControllerMessages() {
    }

    static void hello(ByteBuffer out, OpenFlowVersion v) {
        Header.put(out, v, OpenFlowVersion.HELLO, 8, 1);
    }

    static void featuresRequest(ByteBuffer out, OpenFlowVersion v) {
        Header.put(out, v, OpenFlowVersion.FEATURES_REQUEST, 8, 2);
    }

    static void echoReply(ByteBuffer out, OpenFlowVersion v, ByteBuffer request, int at, int length) {
        SwitchMessages.echoReply(out, v, request, at, length);
    }

    /**
     * The responder's answer to every packet-in, encoded once per version with no buffer; each answer
     * takes the packet-in's buffer id.
     */
    static ByteBuffer flowMod(OpenFlowVersion v) {
        ByteBuffer b = ByteBuffer.allocateDirect(FLOW_MOD_LENGTH);
        Header.put(b, v, OpenFlowVersion.FLOW_MOD, FLOW_MOD_LENGTH, 0);
        if (v == OpenFlowVersion.OF_10) {
            b.putInt(0x003f_ffff);                  // match: every field wildcarded
            Header.zeros(b, 36);
            b.putLong(0);                           // cookie
            b.putShort((short) 0);                  // ADD
            b.putShort((short) 0).putShort((short) 0);   // idle, hard timeout
            b.putShort((short) 0x8000);             // priority
            b.putInt(PacketIn.NO_BUFFER);
            b.putShort((short) 0xffff);             // out_port NONE
            b.putShort((short) 0);                  // flags
            b.putShort((short) 0).putShort((short) 8).putShort((short) 2).putShort((short) 0);   // output:2
        } else {
            b.putLong(0).putLong(0);                // cookie, cookie mask
            b.put((byte) 0).put((byte) 0);          // table 0, ADD
            b.putShort((short) 0).putShort((short) 0);
            b.putShort((short) 0x8000);
            b.putInt(PacketIn.NO_BUFFER);
            b.putInt(0xffff_ffff).putInt(0xffff_ffff);   // out_port ANY, out_group ANY
            b.putShort((short) 0).putShort((short) 0);   // flags, pad
            b.putShort((short) 1).putShort((short) 4).putInt(0);   // empty OXM match, padded to 8
            b.putShort((short) 4).putShort((short) 24).putInt(0);  // APPLY_ACTIONS
            b.putShort((short) 0).putShort((short) 16).putInt(2).putShort((short) 0xffff);   // output:2
            Header.zeros(b, 6);
        }
        return b.flip();
    }
}
