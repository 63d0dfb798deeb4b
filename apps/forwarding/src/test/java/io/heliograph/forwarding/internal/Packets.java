package io.heliograph.forwarding.internal;

import java.nio.ByteBuffer;

import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.testing.TableMiss;

/** Frames and packet-ins as hosts and switches send them. */
final class Packets {

    static final long BROADCAST = 0xffff_ffff_ffffL;

    private Packets() {
    }

    /** An Ethernet/IPv4/TCP segment (SYN) from (srcMac, srcIp, sport) to (dstMac, dstIp, dport). */
    static byte[] tcp(long srcMac, String srcIp, int sport, long dstMac, String dstIp, int dport) {
        return tcp(srcMac, srcIp, sport, dstMac, dstIp, dport, 1);
    }

    /** As {@link #tcp(long, String, int, long, String, int)} with sequence number {@code seq}: another segment of the connection. */
    static byte[] tcp(long srcMac, String srcIp, int sport, long dstMac, String dstIp, int dport, int seq) {
        ByteBuffer b = ByteBuffer.allocate(14 + 20 + 20);
        ethernet(b, dstMac, srcMac, 0x0800);
        b.put((byte) 0x45).put((byte) 0).putShort((short) 40).putShort((short) 1).putShort((short) 0x4000)
                .put((byte) 64).put((byte) 6).putShort((short) 0)
                .putInt(IPv4Address.of(srcIp).getInt()).putInt(IPv4Address.of(dstIp).getInt());
        b.putShort((short) sport).putShort((short) dport).putInt(seq).putInt(0).put((byte) 0x50).put((byte) 0x02)
                .putShort((short) 65535).putShort((short) 0).putShort((short) 0);
        return b.array();
    }

    /** An ARP request from (senderMac, senderIp) for targetIp, broadcast. */
    static byte[] arpRequest(long senderMac, String senderIp, String targetIp) {
        ByteBuffer b = ByteBuffer.allocate(60);
        ethernet(b, BROADCAST, senderMac, 0x0806);
        b.putShort((short) 1).putShort((short) 0x0800).put((byte) 6).put((byte) 4).putShort((short) 1);
        putMac(b, senderMac);
        b.putInt(IPv4Address.of(senderIp).getInt());
        putMac(b, 0);
        b.putInt(IPv4Address.of(targetIp).getInt());
        return b.array();
    }

    /** A frame of some other EtherType (LLDP 0x88cc, or anything) to dst. */
    static byte[] frame(long dstMac, long srcMac, int etherType) {
        ByteBuffer b = ByteBuffer.allocate(60);
        ethernet(b, dstMac, srcMac, etherType);
        return b.array();
    }

    private static void ethernet(ByteBuffer b, long dst, long src, int type) {
        putMac(b, dst);
        putMac(b, src);
        b.putShort((short) type);
    }

    private static void putMac(ByteBuffer b, long mac) {
        b.putShort((short) (mac >>> 32)).putInt((int) mac);
    }

    static OFPacketIn packetIn(OFVersion version, int inPort, byte[] frame) {
        return packetIn(version, inPort, frame, OFBufferId.NO_BUFFER);
    }

    static OFPacketIn packetIn(OFVersion version, int inPort, byte[] frame, OFBufferId buffer) {
        return TableMiss.packetIn(version, OFPort.of(inPort), frame, buffer);
    }
}
