package io.heliograph.core;

import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;

/** What apps read from a packet-in the same way whatever its OpenFlow version. */
public final class PacketIns {

    /** The most bytes one OpenFlow message can have: its length field has 16 bits. */
    public static final int MAX_MESSAGE_LENGTH = 0xffff;

    private PacketIns() {
    }

    /**
     * Whether a PACKET_OUT with {@code outputActions} output actions (and, from 1.5 on, a match on the
     * in_port alone) can send this packet-in's packet: always when the switch buffered it, else only
     * when the frame and the actions fit in one message. A frame that does not (close to 64 KiB) cannot
     * be sent back at all; the encoder would refuse the message.
     */
    public static boolean fitsPacketOut(OFPacketIn packetIn, int outputActions) {
        return !OFBufferId.NO_BUFFER.equals(packetIn.getBufferId())
                || fitsPacketOut(packetIn.getVersion(), outputActions, packetIn.getData().length);
    }

    /**
     * Whether a PACKET_OUT of {@code version} with {@code outputActions} output actions (and, from 1.5
     * on, a match on the in_port alone) can carry {@code dataLength} bytes of frame.
     */
    public static boolean fitsPacketOut(OFVersion version, int outputActions, int dataLength) {
        int fixed = switch (version) {
            case OF_10 -> 16; // header 8, buffer_id 4, in_port 2, actions_len 2
            case OF_15 -> 32; // header 8, buffer_id 4, actions_len 2, pad 2, in_port match 16
            default -> 24; // header 8, buffer_id 4, in_port 4, actions_len 2, pad 6
        };
        int perOutput = version == OFVersion.OF_10 ? 8 : 16;
        return (long) fixed + (long) perOutput * outputActions + dataLength <= MAX_MESSAGE_LENGTH;
    }

    /** The ingress port: a field up to 1.1, a match field from 1.2 on; null when the switch left it out. */
    public static OFPort inPort(OFPacketIn packetIn) {
        if (packetIn.getVersion().compareTo(OFVersion.OF_12) < 0) {
            return packetIn.getInPort();
        }
        Match match = packetIn.getMatch();
        return match == null ? null : match.get(MatchField.IN_PORT);
    }
}
