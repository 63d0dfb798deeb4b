package io.heliograph.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.projectfloodlight.openflow.protocol.OFAggregateStatsReply;
import org.projectfloodlight.openflow.protocol.OFAsyncGetReply;
import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.protocol.OFBarrierReply;
import org.projectfloodlight.openflow.protocol.OFControllerRole;
import org.projectfloodlight.openflow.protocol.OFDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFEchoReply;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFeaturesReply;
import org.projectfloodlight.openflow.protocol.OFFeaturesRequest;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowStatsReply;
import org.projectfloodlight.openflow.protocol.OFGetConfigReply;
import org.projectfloodlight.openflow.protocol.OFHello;
import org.projectfloodlight.openflow.protocol.OFHelloElemVersionbitmap;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFRoleReply;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFActionOutput;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadRequestErrorMsg;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionApplyActions;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/** What we encode by hand, read back by Loxi: a wrong offset or length fails here. */
class WireFormatTest {

    private static final long DPID = 0x2a;

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void hello(OpenFlowVersion v) {
        OFHello hello = read(b -> SwitchMessages.hello(b, v, 7), OFHello.class);
        assertEquals(loxi(v), hello.getVersion());
        if (v == OpenFlowVersion.OF_13) {
            OFHelloElemVersionbitmap bitmap = (OFHelloElemVersionbitmap) hello.getElements().get(0);
            assertEquals(1L << 4, bitmap.getBitmaps().get(0).getValue(), "offers 1.3 only");
        }
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void featuresReplyNamesTheSwitchAndItsPorts(OpenFlowVersion v) {
        OFFeaturesReply reply = read(b -> SwitchMessages.featuresReply(b, v, 9, DPID), OFFeaturesReply.class);
        assertEquals(9, reply.getXid());
        assertEquals(DatapathId.of(DPID), reply.getDatapathId());
        assertEquals(SwitchMessages.BUFFERS, reply.getNBuffers());
        if (v == OpenFlowVersion.OF_10) {
            assertPorts(reply.getPorts());
        }
    }

    @ParameterizedTest
    @EnumSource(value = OpenFlowVersion.class, names = "OF_13")
    void portDescriptions(OpenFlowVersion v) {
        OFPortDescStatsReply reply = read(b -> SwitchMessages.portDescReply(b, v, 3, DPID), OFPortDescStatsReply.class);
        assertEquals(3, reply.getXid());
        assertPorts(reply.getEntries());
    }

    static void assertPorts(List<OFPortDesc> ports) {
        assertEquals(SwitchMessages.PORTS, ports.size());
        for (int i = 0; i < ports.size(); i++) {
            OFPortDesc port = ports.get(i);
            assertEquals(OFPort.of(i + 1), port.getPortNo());
            assertEquals("bench" + (i + 1), port.getName());
            assertEquals(MacAddress.of(0x02_0000_002a_00L | (i + 1)), port.getHwAddr());
        }
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void description(OpenFlowVersion v) {
        OFDescStatsReply desc = read(b -> SwitchMessages.descReply(b, v, 4, DPID), OFDescStatsReply.class);
        assertEquals("Heliograph", desc.getMfrDesc());
        assertEquals("42", desc.getSerialNum());
        assertEquals("emulated switch 42", desc.getDpDesc());
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void emptyAndAggregateStatistics(OpenFlowVersion v) {
        OFFlowStatsReply flows = read(b -> SwitchMessages.emptyStatsReply(b, v, 5, SwitchMessages.STATS_FLOW),
                OFFlowStatsReply.class);
        assertEquals(List.of(), flows.getEntries());
        OFAggregateStatsReply aggregate = read(b -> SwitchMessages.aggregateReply(b, v, 6), OFAggregateStatsReply.class);
        assertEquals(0, aggregate.getFlowCount());
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void configEchoBarrierAndError(OpenFlowVersion v) {
        OFGetConfigReply config = read(b -> SwitchMessages.configReply(b, v, 8, 0, 0xffff), OFGetConfigReply.class);
        assertEquals(0xffff, config.getMissSendLen());

        OFFactory f = OFFactories.getFactory(loxi(v));
        ByteBuffer request = encode(f.buildEchoRequest().setXid(11).setData(new byte[] {1, 2, 3}).build());
        OFEchoReply echo = read(b -> SwitchMessages.echoReply(b, v, request, 0, request.limit()), OFEchoReply.class);
        assertEquals(11, echo.getXid());
        assertArrayEquals(new byte[] {1, 2, 3}, echo.getData());

        assertEquals(12, read(b -> SwitchMessages.barrierReply(b, v, 12), OFBarrierReply.class).getXid());

        ByteBuffer unknown = encode(f.buildQueueGetConfigRequest().setXid(13).setPort(OFPort.of(1)).build());
        OFBadRequestErrorMsg error = read(b -> SwitchMessages.error(b, v, SwitchMessages.ERROR_BAD_REQUEST,
                SwitchMessages.BAD_REQUEST_TYPE, unknown, 0, unknown.limit()), OFBadRequestErrorMsg.class);
        assertEquals(13, error.getXid());
        assertEquals(OFBadRequestCode.BAD_TYPE, error.getCode());
    }

    @ParameterizedTest
    @EnumSource(value = OpenFlowVersion.class, names = "OF_13")
    void roleAndAsyncReplies(OpenFlowVersion v) {
        OFFactory f = OFFactories.getFactory(loxi(v));
        ByteBuffer request = encode(f.buildRoleRequest().setXid(21).setRole(OFControllerRole.ROLE_MASTER)
                .setGenerationId(U64.of(77)).build());
        OFRoleReply role = read(b -> SwitchMessages.roleReply(b, v, request, 0), OFRoleReply.class);
        assertEquals(21, role.getXid());
        assertEquals(OFControllerRole.ROLE_MASTER, role.getRole());
        assertEquals(U64.of(77), role.getGenerationId());
        OFAsyncGetReply async = read(b -> SwitchMessages.asyncReply(b, v, 22), OFAsyncGetReply.class);
        assertEquals(0x3, async.getPacketInMaskEqualMaster());
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void packetInCarriesTheVaryingFieldsWhereTheTemplatePatchesThem(OpenFlowVersion v) {
        PacketIn probe = PacketIn.probe(v, DPID);
        ByteBuffer b = ByteBuffer.allocate(256);
        probe.writeTo(b, 0x01020304, 17, 99_999);
        assertEquals(probe.length(), b.position());
        OFPacketIn pi = (OFPacketIn) readAll(b).get(0);
        assertEquals(0x01020304, pi.getXid());
        assertEquals(OFBufferId.of(17), pi.getBufferId());
        assertEquals(OFPacketInReason.NO_MATCH, pi.getReason());
        OFPort inPort = v == OpenFlowVersion.OF_10 ? pi.getInPort() : pi.getMatch().get(MatchField.IN_PORT);
        assertEquals(OFPort.of(PacketIn.PROBE_PORT), inPort);
        byte[] frame = pi.getData();
        assertEquals(PacketIn.FRAME_LENGTH, frame.length);
        assertEquals(PacketIn.FRAME_LENGTH, pi.getTotalLen());
        ByteBuffer eth = ByteBuffer.wrap(frame);
        assertEquals(MacAddress.of("80:00:00:00:00:2a"), mac(eth, 0));
        assertEquals(MacAddress.of(PacketIn.source(DPID, 99_999)), mac(eth, 6));
        assertEquals(MacAddress.of("02:00:01:86:9f:2a"), mac(eth, 6), "index 99999 = 0x0001869f");
        assertEquals(0x0800, eth.getShort(12) & 0xffff);
        assertEquals(0, ipChecksumOf(eth, 14), "the IPv4 header checksum holds");
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void gratuitousArpComesFromTheProbesDestinationOnPort2(OpenFlowVersion v) {
        ByteBuffer b = ByteBuffer.allocate(256);
        PacketIn.writeGratuitousArp(b, v, DPID, 5);
        OFPacketIn pi = (OFPacketIn) readAll(b).get(0);
        assertEquals(OFBufferId.NO_BUFFER, pi.getBufferId());
        OFPort inPort = v == OpenFlowVersion.OF_10 ? pi.getInPort() : pi.getMatch().get(MatchField.IN_PORT);
        assertEquals(OFPort.of(PacketIn.LEARN_PORT), inPort);
        ByteBuffer eth = ByteBuffer.wrap(pi.getData());
        assertEquals(MacAddress.BROADCAST, mac(eth, 0));
        assertEquals(MacAddress.of(PacketIn.destination(DPID)), mac(eth, 6));
        assertEquals(0x0806, eth.getShort(12) & 0xffff);
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void responderMessages(OpenFlowVersion v) {
        ByteBuffer b = ByteBuffer.allocate(256);
        ControllerMessages.hello(b, v);
        ControllerMessages.featuresRequest(b, v);
        ByteBuffer flowMod = ControllerMessages.flowMod(v);
        b.put(flowMod);
        List<OFMessage> messages = readAll(b);
        assertInstanceOf(OFHello.class, messages.get(0));
        assertInstanceOf(OFFeaturesRequest.class, messages.get(1));
        OFFlowAdd add = assertInstanceOf(OFFlowAdd.class, messages.get(2));
        assertEquals(loxi(v), add.getVersion());
        OFActionOutput output = (OFActionOutput) (v == OpenFlowVersion.OF_10 ? add.getActions().get(0)
                : ((OFInstructionApplyActions) add.getInstructions().get(0)).getActions().get(0));
        assertEquals(OFPort.of(2), output.getPort());
        assertTrue(add.getMatch().isFullyWildcarded(MatchField.ETH_SRC));
    }

    // --- helpers

    interface Encoder {
        void encode(ByteBuffer b);
    }

    static OFVersion loxi(OpenFlowVersion v) {
        return v == OpenFlowVersion.OF_10 ? OFVersion.OF_10 : OFVersion.OF_13;
    }

    private static <T> T read(Encoder encoder, Class<T> type) {
        ByteBuffer b = ByteBuffer.allocate(2048);
        encoder.encode(b);
        List<OFMessage> messages = readAll(b);
        assertEquals(1, messages.size(), "one message: " + messages);
        return assertInstanceOf(type, messages.get(0));
    }

    /** Reads every message from 0 to the buffer's position; each must be exactly as long as it says. */
    static List<OFMessage> readAll(ByteBuffer written) {
        ByteBuffer b = written.duplicate().flip();
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        List<OFMessage> messages = new java.util.ArrayList<>();
        while (buf.isReadable()) {
            int start = buf.readerIndex();
            int length = buf.getUnsignedShort(start + 2);
            try {
                messages.add(OFFactories.getGenericReader().readFrom(buf));
            } catch (Exception e) {
                throw new AssertionError("Loxi cannot read the message at " + start, e);
            }
            assertEquals(start + length, buf.readerIndex(), "Loxi read exactly the message's length");
        }
        return messages;
    }

    static ByteBuffer encode(OFMessage m) {
        ByteBuf buf = Unpooled.buffer();
        m.writeTo(buf);
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return ByteBuffer.wrap(bytes);
    }

    private static MacAddress mac(ByteBuffer b, int at) {
        byte[] six = new byte[6];
        b.get(at, six);
        return MacAddress.of(six);
    }

    private static int ipChecksumOf(ByteBuffer b, int at) {
        int sum = 0;
        for (int i = 0; i < 20; i += 2) {
            sum += b.getShort(at + i) & 0xffff;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xffff) + (sum >>> 16);
        }
        return ~sum & 0xffff;
    }
}
