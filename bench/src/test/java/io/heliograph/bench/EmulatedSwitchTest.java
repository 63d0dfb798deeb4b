package io.heliograph.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.protocol.OFEchoReply;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFeaturesReply;
import org.projectfloodlight.openflow.protocol.OFHello;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadRequestErrorMsg;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U32;

/**
 * One emulated switch driven by messages Loxi encodes, as a controller would send them: the
 * handshake, what counts as a response, latency mode's one packet-in in flight, throughput mode's
 * full buffer, and refusing what cannot be read.
 */
class EmulatedSwitchTest {

    private static final long DPID = 7;

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void saysHelloAndStartsSendingAfterTheFeaturesReply(OpenFlowVersion v) throws Exception {
        EmulatedSwitch sw = new EmulatedSwitch(1, DPID, options(v, false, false));
        assertInstanceOf(OFHello.class, drain(sw).get(0));
        OFFactory f = factory(v);
        sw.startTest();
        assertEquals(List.of(), drain(sw), "no packet-in before the handshake");
        OFFeaturesReply features = (OFFeaturesReply) receive(sw, f.buildFeaturesRequest().setXid(5).build()).get(0);
        assertEquals(5, features.getXid());
        assertEquals(EmulatedSwitch.State.DELAYING, sw.state());
        sw.delayOver();
        List<OFMessage> sent = drain(sw);
        assertEquals(1, sent.size(), "latency mode: one packet-in in flight");
        assertInstanceOf(OFPacketIn.class, sent.get(0));
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void latencyModeSendsTheNextPacketInWhenTheResponseArrives(OpenFlowVersion v) throws Exception {
        EmulatedSwitch sw = sending(options(v, false, false));
        OFFactory f = factory(v);
        OFPacketIn first = (OFPacketIn) drain(sw).get(0);
        OFPacketIn second = (OFPacketIn) receive(sw, f.buildFlowAdd().setBufferId(first.getBufferId()).build()).get(0);
        assertEquals(first.getXid() + 1, second.getXid());
        assertEquals(OFBufferId.of(first.getBufferId().getInt() + 1), second.getBufferId());
        ByteBuffer frame = ByteBuffer.wrap(second.getData());
        assertEquals(MacAddress.of(PacketIn.source(DPID, 1)), MacAddress.of(slice(frame, 6, 6)),
                "the next source MAC");
        receive(sw, f.buildPacketOut().setBufferId(second.getBufferId()).setInPort(OFPort.of(1))
                .setActions(List.of(f.actions().output(OFPort.FLOOD, 0))).build());
        assertEquals(2, sw.endTest());
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void latencyModeReleasesTheNextPacketInOnlyWithTheAnswerToTheOneInFlight(OpenFlowVersion v) throws Exception {
        EmulatedSwitch sw = sending(options(v, false, false));
        OFFactory f = factory(v);
        OFPacketIn first = (OFPacketIn) drain(sw).get(0);
        assertEquals(List.of(), receive(sw, f.buildFlowAdd().setBufferId(OFBufferId.NO_BUFFER).build()),
                "a flow-mod with no buffer (the reverse direction) answers no packet-in");
        assertEquals(List.of(), receive(sw, f.buildFlowAdd().setBufferId(OFBufferId.of(first.getBufferId().getInt()
                + 7)).build()), "nor does one for another buffer");
        OFPacketIn second = (OFPacketIn) receive(sw, f.buildFlowAdd().setBufferId(first.getBufferId()).build()).get(0);
        assertEquals(first.getXid() + 1, second.getXid());
        assertEquals(1, sw.endTest(), "a round trip is counted, not the flow-mods that answered nothing");
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void onlyAddsModifiesAndNonLldpPacketOutsCount(OpenFlowVersion v) throws Exception {
        EmulatedSwitch sw = sending(options(v, true, false));
        drain(sw);
        OFFactory f = factory(v);
        byte[] lldp = new byte[64];
        ByteBuffer.wrap(lldp).putShort(12, (short) EthType.LLDP.getValue());
        byte[] ipv4 = new byte[64];
        ByteBuffer.wrap(ipv4).putShort(12, (short) EthType.IPv4.getValue());
        receive(sw,
                f.buildFlowAdd().build(),
                f.buildFlowModify().build(),
                f.buildFlowModifyStrict().build(),
                f.buildFlowDelete().build(),
                f.buildFlowDeleteStrict().build(),
                packetOut(f, lldp),
                packetOut(f, ipv4),
                f.buildBarrierRequest().setXid(3).build());
        assertEquals(4, sw.endTest(), "add, modify, modify-strict and the IPv4 packet-out");
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void throughputModeFillsItsBufferAndLeavesRoomForReplies(OpenFlowVersion v) throws Exception {
        EmulatedSwitch sw = sending(options(v, true, false));
        assertTrue(sw.wantsToFill());
        sw.fill();
        List<OFMessage> sent = drain(sw);
        int size = PacketIn.headerLength(v) + PacketIn.FRAME_LENGTH;
        int expected = (EmulatedSwitch.BUFFER_BYTES - 4 * SwitchMessages.MAX_LENGTH) / size;
        assertTrue(sent.size() >= expected - 1 && sent.size() <= expected + 1, sent.size() + " packet-ins");
        assertTrue(sent.stream().allMatch(OFPacketIn.class::isInstance));
        sw.endTest();
        assertTrue(!sw.wantsToFill(), "between tests nothing is sent");
    }

    @Test
    void learningSendsTheGratuitousArpFirstAndItsAnswerReleasesTheProbe() throws Exception {
        EmulatedSwitch sw = sending(options(OpenFlowVersion.OF_10, false, true));
        List<OFMessage> sent = drain(sw);
        assertEquals(1, sent.size(), "only the ARP in flight");
        OFPacketIn arp = (OFPacketIn) sent.get(0);
        assertEquals(OFBufferId.NO_BUFFER, arp.getBufferId());
        OFFactory f = factory(OpenFlowVersion.OF_10);
        List<OFMessage> next = receive(sw, packetOut(f, arp.getData()));
        OFPacketIn probe = (OFPacketIn) next.get(0);
        assertEquals(OFPort.of(PacketIn.PROBE_PORT), probe.getInPort());
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void aFlowModWithNoBufferAnswersTheArpAsTheRespondersDo(OpenFlowVersion v) throws Exception {
        EmulatedSwitch sw = sending(options(v, false, true));
        OFPacketIn arp = (OFPacketIn) drain(sw).get(0);
        assertEquals(OFBufferId.NO_BUFFER, arp.getBufferId());
        OFFactory f = factory(v);
        OFPacketIn probe = (OFPacketIn) receive(sw, f.buildFlowAdd().setBufferId(OFBufferId.NO_BUFFER).build()).get(0);
        assertEquals(arp.getXid() + 1, probe.getXid(), "the ARP answered, the probe follows");
        assertEquals(List.of(), receive(sw, f.buildFlowAdd().setBufferId(OFBufferId.NO_BUFFER).build()),
                "the probe is buffered: a flow-mod with no buffer does not answer it");
    }

    @Test
    void answersHousekeepingAndKeepsAPartialMessageForTheNextRead() throws Exception {
        EmulatedSwitch sw = new EmulatedSwitch(1, DPID, options(OpenFlowVersion.OF_13, false, false));
        drain(sw);
        OFFactory f = factory(OpenFlowVersion.OF_13);
        ByteBuffer echo = WireFormatTest.encode(f.buildEchoRequest().setXid(9).setData(new byte[] {4, 2}).build());
        ByteBuffer in = sw.input();
        in.put(echo.array(), 0, 5);
        sw.process();
        assertEquals(List.of(), drain(sw), "half a message is not answered");
        in.put(echo.array(), 5, echo.limit() - 5);
        sw.process();
        OFEchoReply reply = (OFEchoReply) drain(sw).get(0);
        assertEquals(9, reply.getXid());

        ByteBuffer queueConfig = WireFormatTest.encode(f.buildQueueGetConfigRequest().setXid(10)
                .setPort(OFPort.of(1)).build());
        sw.input().put(queueConfig);
        sw.process();
        OFBadRequestErrorMsg error = (OFBadRequestErrorMsg) drain(sw).get(0);
        assertEquals(OFBadRequestCode.BAD_TYPE, error.getCode());
    }

    @Test
    void aLongEchoIsAnsweredInFullEvenWhenTheBufferIsFullOfPacketIns() throws Exception {
        EmulatedSwitch sw = sending(options(OpenFlowVersion.OF_13, true, false));
        sw.fill();
        byte[] payload = new byte[30_000];
        payload[29_999] = 42;
        List<OFMessage> sent = receive(sw, factory(OpenFlowVersion.OF_13).buildEchoRequest().setXid(77)
                .setData(payload).build());
        OFEchoReply reply = (OFEchoReply) sent.get(sent.size() - 1);
        assertEquals(77, reply.getXid());
        assertEquals(30_000, reply.getData().length);
        assertEquals(42, reply.getData()[29_999]);
    }

    @Test
    void aControllerWithoutOurVersionIsRefusedByName() throws Exception {
        EmulatedSwitch sw = new EmulatedSwitch(3, DPID, options(OpenFlowVersion.OF_13, false, false));
        OFFactory f10 = OFFactories.getFactory(OFVersion.OF_10);
        sw.input().put(WireFormatTest.encode(f10.buildHello().build()));
        EmulatedSwitch.ProtocolException e = assertThrows(EmulatedSwitch.ProtocolException.class, sw::process);
        assertEquals("switch 3: the controller does not speak OpenFlow 1.3 (its HELLO offers up to wire version 1);"
                + " try another -V", e.getMessage());

        EmulatedSwitch bitmap = new EmulatedSwitch(4, DPID, options(OpenFlowVersion.OF_10, false, false));
        OFFactory f13 = OFFactories.getFactory(OFVersion.OF_13);
        bitmap.input().put(WireFormatTest.encode(f13.buildHello().setElements(List.of(
                f13.buildHelloElemVersionbitmap().setBitmaps(List.of(U32.of(1 << 4))).build())).build()));
        assertThrows(EmulatedSwitch.ProtocolException.class, bitmap::process, "a bitmap without 1.0");

        EmulatedSwitch fine = new EmulatedSwitch(5, DPID, options(OpenFlowVersion.OF_10, false, false));
        fine.input().put(WireFormatTest.encode(f13.buildHello().setElements(List.of(
                f13.buildHelloElemVersionbitmap().setBitmaps(List.of(U32.of(1 << 4 | 1 << 1))).build())).build()));
        fine.process();
    }

    @Test
    void anUnframeableStreamStopsTheRun() {
        EmulatedSwitch sw = new EmulatedSwitch(2, DPID, options(OpenFlowVersion.OF_10, false, false));
        sw.input().put(new byte[] {1, 14, 0, 4, 0, 0, 0, 0});
        EmulatedSwitch.ProtocolException e = assertThrows(EmulatedSwitch.ProtocolException.class, sw::process);
        assertTrue(e.getMessage().contains("length 4"), e.getMessage());
    }

    // --- helpers

    private static BenchOptions options(OpenFlowVersion v, boolean throughput, boolean learn) {
        return new BenchOptions("localhost", 6653, 1, 3, 100, 1000, throughput, 1, 0, 0, learn, 1, v, SwitchBehaviour.DEFAULT, false);
    }

    private static OFFactory factory(OpenFlowVersion v) {
        return OFFactories.getFactory(WireFormatTest.loxi(v));
    }

    /** A switch past its handshake, in a test, with its HELLO and FEATURES_REPLY already sent. */
    private static EmulatedSwitch sending(BenchOptions o) throws Exception {
        EmulatedSwitch sw = new EmulatedSwitch(1, DPID, o);
        receive(sw, factory(o.version()).buildFeaturesRequest().setXid(1).build());
        sw.delayOver();
        sw.startTest();
        return sw;
    }

    private static OFMessage packetOut(OFFactory f, byte[] data) {
        return f.buildPacketOut().setBufferId(OFBufferId.NO_BUFFER).setInPort(OFPort.of(1))
                .setActions(List.of(f.actions().output(OFPort.FLOOD, 0))).setData(data).build();
    }

    /** Delivers the messages as one read and returns what the switch sent (including earlier output). */
    static List<OFMessage> receive(EmulatedSwitch sw, OFMessage... messages) throws Exception {
        for (OFMessage m : messages) {
            sw.input().put(WireFormatTest.encode(m));
        }
        sw.process();
        return drain(sw);
    }

    /** What the switch has to send, as the socket would take it all. */
    static List<OFMessage> drain(EmulatedSwitch sw) {
        List<OFMessage> sent = WireFormatTest.readAll(sw.output());
        sw.output().clear();
        return sent;
    }

    private static byte[] slice(ByteBuffer b, int at, int length) {
        byte[] bytes = new byte[length];
        b.get(at, bytes);
        return bytes;
    }
}
