package io.heliograph.core.testing;

import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

/** The PACKET_IN a switch with a table-miss flow to the controller sends for a frame arriving at a port. */
public final class TableMiss {

    private TableMiss() {
    }

    /** Unbuffered, reason NO_MATCH; the in-port is a field in 1.0 and in the match from 1.2 on (table 0, cookie 0). */
    public static OFPacketIn packetIn(OFFactory f, OFPort inPort, byte[] frame) {
        return packetIn(f, inPort, frame, OFBufferId.NO_BUFFER);
    }

    /** As {@link #packetIn(OFFactory, OFPort, byte[])}, with the packet held in the switch's buffer {@code buffer}. */
    public static OFPacketIn packetIn(OFFactory f, OFPort inPort, byte[] frame, OFBufferId buffer) {
        OFPacketIn.Builder b = f.buildPacketIn()
                .setBufferId(buffer)
                .setTotalLen(frame.length)
                .setReason(OFPacketInReason.NO_MATCH)
                .setData(frame);
        if (f.getVersion() == OFVersion.OF_10) {
            b.setInPort(inPort);
        } else {
            b.setMatch(f.buildMatch().setExact(MatchField.IN_PORT, inPort).build())
                    .setTableId(TableId.of(0)).setCookie(U64.ZERO);
        }
        return b.build();
    }

    public static OFPacketIn packetIn(OFVersion version, OFPort inPort, byte[] frame) {
        return packetIn(OFFactories.getFactory(version), inPort, frame);
    }

    public static OFPacketIn packetIn(OFVersion version, OFPort inPort, byte[] frame, OFBufferId buffer) {
        return packetIn(OFFactories.getFactory(version), inPort, frame, buffer);
    }
}
