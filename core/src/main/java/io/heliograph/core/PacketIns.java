package io.heliograph.core;

import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.OFPort;

/** What apps read from a packet-in the same way whatever its OpenFlow version. */
public final class PacketIns {

    private PacketIns() {
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
