package io.heliograph.bench;

import static io.heliograph.bench.EmulatedSwitchTest.drain;
import static io.heliograph.bench.EmulatedSwitchTest.receive;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFeaturesReply;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFPortStatsEntry;
import org.projectfloodlight.openflow.protocol.OFPortStatsReply;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;

/**
 * A switch of the fabric mode, driven by messages Loxi encodes: it has the fabric's ports, hands
 * LLDP packet-outs (and only those) to its cables, and turns a frame that came over a cable into
 * a packet-in Loxi reads with the right in_port and the frame intact.
 */
class FabricSwitchTest {

    private static final long DPID = 0x11;

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void describesItsPortsInFeaturesPortDescriptionsAndStatistics(OpenFlowVersion v) throws Exception {
        EmulatedSwitch sw = fabricSwitch(v, 28, new Recorder());
        drain(sw);
        OFFactory f = factory(v);
        List<OFPortDesc> ports;
        if (v == OpenFlowVersion.OF_10) {
            ports = ((OFFeaturesReply) receive(sw, f.buildFeaturesRequest().setXid(2).build()).get(0)).getPorts();
        } else {
            ports = ((OFPortDescStatsReply) receive(sw, f.buildPortDescStatsRequest().setXid(2).build()).get(0))
                    .getEntries();
        }
        assertEquals(28, ports.size());
        assertEquals(OFPort.of(28), ports.get(27).getPortNo());
        OFPortStatsReply stats = (OFPortStatsReply) receive(sw, f.buildPortStatsRequest().setXid(3)
                .setPortNo(OFPort.ANY).build()).get(0);
        assertEquals(28, stats.getEntries().size());
        for (int i = 0; i < 28; i++) {
            OFPortStatsEntry entry = stats.getEntries().get(i);
            assertEquals(OFPort.of(i + 1), entry.getPortNo());
            assertEquals(U64.ZERO, entry.getRxPackets());
        }
    }

    @Test
    void cbenchSwitchesStillReportFourPortsAndNoPortStatistics() throws Exception {
        EmulatedSwitch sw = new EmulatedSwitch(1, DPID, options(OpenFlowVersion.OF_13));
        OFFactory f = factory(OpenFlowVersion.OF_13);
        drain(sw);
        assertEquals(SwitchMessages.PORTS, ((OFPortDescStatsReply) receive(sw, f.buildPortDescStatsRequest().build())
                .get(0)).getEntries().size());
        assertEquals(List.of(), ((OFPortStatsReply) receive(sw, f.buildPortStatsRequest().setPortNo(OFPort.ANY)
                .build()).get(0)).getEntries());
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void onlyLldpPacketOutsGoToTheCables(OpenFlowVersion v) throws Exception {
        Recorder cables = new Recorder();
        EmulatedSwitch sw = fabricSwitch(v, 4, cables);
        OFFactory f = factory(v);
        byte[] lldp = frame(EthType.LLDP.getValue(), 60);
        List<OFAction> out3 = List.of(f.actions().output(OFPort.of(3), 0));
        receive(sw, packetOut(f, out3, frame(EthType.IPv4.getValue(), 60)), packetOut(f, out3, lldp),
                f.buildFlowAdd().build());
        assertEquals(1, cables.messages.size(), "the LLDP packet-out, not the IPv4 one");
        OFPacketOut seen = (OFPacketOut) WireFormatTest.readAll(ByteBuffer.wrap(cables.messages.get(0))
                .position(cables.messages.get(0).length)).get(0);
        assertArrayEquals(lldp, seen.getData());
        assertEquals(sw, cables.from.get(0));
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void aFrameFromACableGoesUpAsAnUnbufferedPacketInAtThatPort(OpenFlowVersion v) throws Exception {
        EmulatedSwitch sw = fabricSwitch(v, 4, new Recorder());
        drain(sw);
        byte[] lldp = frame(EthType.LLDP.getValue(), 77);
        ByteBuffer carrier = ByteBuffer.allocate(200);
        carrier.position(13).put(lldp);
        sw.lldpIn(4, carrier, 13, lldp.length);
        sw.lldpIn(2, carrier, 13, lldp.length);
        List<OFMessage> sent = drain(sw);
        assertEquals(2, sent.size());
        OFPacketIn in = assertInstanceOf(OFPacketIn.class, sent.get(0));
        assertEquals(OFPort.of(4), inPort(in));
        assertEquals(OFBufferId.NO_BUFFER, in.getBufferId());
        assertArrayEquals(lldp, in.getData());
        assertEquals(OFPort.of(2), inPort((OFPacketIn) sent.get(1)));
        assertTrue(sent.get(1).getXid() != in.getXid(), "each packet-in its own xid");
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void aPacketOutNamesItsOutputPortsAndWhereItsFrameStarts(OpenFlowVersion v) {
        OFFactory f = factory(v);
        byte[] lldp = frame(EthType.LLDP.getValue(), 60);
        OFAction untag = v == OpenFlowVersion.OF_10 ? f.actions().stripVlan() : f.actions().popVlan();
        OFMessage m = packetOut(f, List.of(f.actions().output(OFPort.of(2), 0), untag,
                f.actions().output(OFPort.of(7), 0), f.actions().output(OFPort.FLOOD, 0)), lldp);
        ByteBuffer b = ByteBuffer.allocate(512);
        b.position(5).put(WireFormatTest.encode(m));
        int length = b.position() - 5;
        List<Integer> ports = new ArrayList<>();
        int frame = PacketOut.outputs(v, b, 5, length, ports::add);
        assertEquals(List.of(2, 7, OFPort.FLOOD.getPortNumber() & (v == OpenFlowVersion.OF_10 ? 0xffff : -1)), ports);
        assertEquals(5 + length - lldp.length, frame);
        assertEquals(EthType.LLDP.getValue(), b.getShort(frame + 12) & 0xffff);
    }

    @Test
    void aPacketOutWhoseActionsOverrunItIsRefused() {
        ByteBuffer b = WireFormatTest.encode(packetOut(factory(OpenFlowVersion.OF_13),
                List.of(factory(OpenFlowVersion.OF_13).actions().output(OFPort.of(1), 0)), new byte[0]));
        b.putShort(16, (short) 200);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PacketOut.outputs(OpenFlowVersion.OF_13, b, 0, b.limit(), port -> { }));
        assertEquals("a PACKET_OUT whose actions (200 bytes) overrun the message (40 bytes)", e.getMessage());
    }

    // --- helpers

    /** What the switch handed its cables: a copy of each message, and from whom. */
    static final class Recorder implements EmulatedSwitch.Cabling {
        final List<byte[]> messages = new ArrayList<>();
        final List<EmulatedSwitch> from = new ArrayList<>();

        @Override
        public void packetOut(EmulatedSwitch sw, ByteBuffer message, int at, int length) {
            byte[] copy = new byte[length];
            message.get(at, copy);
            messages.add(copy);
            from.add(sw);
        }
    }

    private static EmulatedSwitch fabricSwitch(OpenFlowVersion v, int ports, EmulatedSwitch.Cabling cabling) {
        return new EmulatedSwitch(1, DPID, options(v), ports, cabling);
    }

    private static BenchOptions options(OpenFlowVersion v) {
        return new BenchOptions("localhost", 6653, 1, 3, 100, 1000, false, 1, 0, 0, false, 1, v, SwitchBehaviour.DEFAULT, false);
    }

    private static OFFactory factory(OpenFlowVersion v) {
        return OFFactories.getFactory(WireFormatTest.loxi(v));
    }

    static byte[] frame(int etherType, int length) {
        byte[] frame = new byte[length];
        ByteBuffer b = ByteBuffer.wrap(frame);
        b.putShort(0, (short) 0x0180).putInt(2, 0xc200000e);        // the LLDP nearest-bridge group
        b.putShort(12, (short) etherType);
        for (int i = 14; i < length; i++) {
            frame[i] = (byte) i;
        }
        return frame;
    }

    private static OFMessage packetOut(OFFactory f, List<OFAction> actions, byte[] data) {
        OFPacketOut.Builder b = f.buildPacketOut().setBufferId(OFBufferId.NO_BUFFER).setActions(actions).setData(data);
        return b.setInPort(OFPort.CONTROLLER).build();
    }

    private static OFPort inPort(OFPacketIn in) {
        return in.getVersion() == OFVersion.OF_10 ? in.getInPort() : in.getMatch().get(MatchField.IN_PORT);
    }
}
