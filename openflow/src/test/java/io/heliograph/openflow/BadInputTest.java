package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import java.util.List;

import org.projectfloodlight.openflow.protocol.OFBadPropertyCode;
import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFPortReason;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadPropertyErrorMsg;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.protocol.OFEchoReply;
import org.projectfloodlight.openflow.protocol.OFErrorType;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadRequestErrorMsg;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.TableId;

import io.heliograph.core.OFSwitch;

/**
 * Every kind of bad input: logged, answered with the error the spec gives (carrying the offending
 * message's first bytes), and neither this connection nor the other switch is affected. Only a
 * stream that cannot be framed closes the connection, and only that one.
 */
class BadInputTest {

    private ControllerFixture controller;
    private FakeSwitch bad;
    private FakeSwitch good;
    private OFSwitch goodSwitch;

    @BeforeEach
    void connect() throws Exception {
        // One I/O thread: both switches share it, so "unaffected" covers a shared loop too.
        controller = new ControllerFixture(ControllerFixture.testSettings().withIoThreads(1));
        bad = FakeSwitch.connect(controller.port(), 0xbad, OFVersion.OF_13);
        good = FakeSwitch.connect(controller.port(), 0x600d, OFVersion.OF_13);
        controller.awaitSwitch(0xbad);
        goodSwitch = controller.awaitSwitch(0x600d);
    }

    @AfterEach
    void close() throws IOException {
        bad.close();
        good.close();
        controller.close();
    }

    /** A raw OpenFlow message: header (version, type, length, xid) and body. */
    private static byte[] raw(int version, int type, long xid, int... body) {
        ByteBuffer b = ByteBuffer.allocate(8 + body.length);
        b.put((byte) version).put((byte) type).putShort((short) (8 + body.length)).putInt((int) xid);
        for (int x : body) {
            b.put((byte) x);
        }
        return b.array();
    }

    private void assertAnswered(byte[] offending, OFBadRequestCode code) throws Exception {
        long xid = ByteBuffer.wrap(offending).getInt(4) & 0xffffffffL;
        bad.sendRaw(offending);
        OFBadRequestErrorMsg error = bad.expect(OFBadRequestErrorMsg.class, e -> e.getXid() == xid);
        assertEquals(OFErrorType.BAD_REQUEST, error.getErrType());
        assertEquals(code, error.getCode());
        assertEquals(OFVersion.OF_13, error.getVersion());
        assertArrayEquals(Arrays.copyOf(offending, Math.min(64, offending.length)), error.getData().getData());
        assertStillWorking();
    }

    /** The bad switch's connection still works, in both directions, and the good switch is untouched. */
    private void assertStillWorking() throws Exception {
        bad.send(bad.factory.buildEchoRequest().setXid(4242).setData(new byte[0]).build());
        bad.expect(OFEchoReply.class, r -> r.getXid() == 4242);
        OFPacketIn pin = bad.factory.buildPacketIn().setXid(99).setBufferId(OFBufferId.NO_BUFFER)
                .setReason(OFPacketInReason.NO_MATCH).setTableId(TableId.of(0))
                .setMatch(bad.factory.buildMatch().build()).setData(new byte[] {1, 2, 3}).build();
        bad.send(pin);
        ControllerFixture.await(() -> controller.pipeline.dispatched.stream().anyMatch(m -> m.getXid() == 99),
                "a later message from the same switch reaches the pipeline");
        assertTrue(controller.registry.getSwitch(DatapathId.of(0xbad)).isConnected());
        goodSwitch.barrier().get(5, TimeUnit.SECONDS);
        assertTrue(good.seen().stream().noneMatch(m -> m instanceof OFBadRequestErrorMsg), "no error on the good switch");
    }

    @Test
    void unknownMessageTypeIsAnsweredWithBadType() throws Exception {
        assertAnswered(raw(4, 99, 0x1234, 1, 2, 3, 4, 5, 6, 7, 8), OFBadRequestCode.BAD_TYPE);
    }

    @Test
    void unknownExperimenterIsAnsweredWithBadExperimenter() throws Exception {
        // experimenter id 0x00abcdef is nobody Loxi knows; exp_type 1
        assertAnswered(raw(4, 4, 0x2345, 0, 0xab, 0xcd, 0xef, 0, 0, 0, 1),
                OFBadRequestCode.BAD_EXPERIMENTER);
    }

    @Test
    void knownExperimenterWithUnknownSubtypeIsAnsweredWithBadExperimenterType() throws Exception {
        // Nicira (0x00002320), subtype 0x7fff7fff
        assertAnswered(raw(4, 4, 0x2346, 0, 0, 0x23, 0x20, 0x7f, 0xff, 0x7f, 0xff),
                OFBadRequestCode.BAD_EXPERIMENTER_TYPE);
    }

    @Test
    void truncatedBodyIsAnsweredWithBadLen() throws Exception {
        // PORT_STATUS (type 12) needs 80 bytes; this one has 16
        assertAnswered(raw(4, 12, 0x3456, 0, 0, 0, 0, 0, 0, 0, 0), OFBadRequestCode.BAD_LEN);
    }

    @Test
    void unknownMultipartTypeIsAnsweredWithBadMultipart() throws Exception {
        // MULTIPART_REPLY (type 19) of multipart type 0x7777
        assertAnswered(raw(4, 19, 0x4567, 0x77, 0x77, 0, 0, 0, 0, 0, 0), OFBadRequestCode.BAD_STAT);
    }

    @Test
    void unknownVersionIsAnsweredWithBadVersion() throws Exception {
        assertAnswered(raw(0x09, 2, 0x5678), OFBadRequestCode.BAD_VERSION);
    }

    @Test
    void messageOfAnotherVersionThanNegotiatedIsAnsweredWithBadVersion() throws Exception {
        assertAnswered(raw(1, 2, 0x6789), OFBadRequestCode.BAD_VERSION); // an OpenFlow 1.0 ECHO_REQUEST
    }

    /** An OpenFlow 1.4 PORT_STATUS whose first port property is patched to the given type and experimenter id. */
    private static byte[] portStatusWithProperty(int propertyType, int experimenter) {
        OFFactory f = OFFactories.getFactory(OFVersion.OF_14);
        OFMessage status = f.buildPortStatus().setXid(0x1414).setReason(OFPortReason.MODIFY)
                .setDesc(f.buildPortDesc().setPortNo(OFPort.of(1)).setName("eth1").setHwAddr(MacAddress.of(1))
                        .setProperties(List.of(f.buildPortDescPropEthernet().build())).build())
                .build();
        io.netty.buffer.ByteBuf buf = io.netty.buffer.Unpooled.buffer();
        status.writeTo(buf);
        int property = 16 + 40; // PORT_STATUS header and reason, then the fixed part of ofp_port
        buf.setShort(property, propertyType);
        buf.setInt(property + 4, experimenter);
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    private void assertPropertyAnswered(byte[] offending, OFBadPropertyCode code) throws Exception {
        try (FakeSwitch sw14 = FakeSwitch.connect(controller.port(), 0x1414, OFVersion.OF_14)) {
            controller.awaitSwitch(0x1414);
            sw14.sendRaw(offending);
            OFBadPropertyErrorMsg error = sw14.expect(OFBadPropertyErrorMsg.class, e -> e.getXid() == 0x1414);
            assertEquals(OFErrorType.BAD_PROPERTY, error.getErrType());
            assertEquals(code, error.getCode());
            assertArrayEquals(Arrays.copyOf(offending, 64), error.getData().getData());
            sw14.send(sw14.factory.buildEchoRequest().setXid(4343).setData(new byte[0]).build());
            sw14.expect(OFEchoReply.class, r -> r.getXid() == 4343);
        }
        assertStillWorking();
    }

    @Test
    void unknownPropertyTypeIsAnsweredWithBadPropertyType() throws Exception {
        assertPropertyAnswered(portStatusWithProperty(0x0777, 0), OFBadPropertyCode.BAD_TYPE);
    }

    @Test
    void unknownExperimenterPropertyIsAnsweredWithBadPropertyExperimenter() throws Exception {
        assertPropertyAnswered(portStatusWithProperty(0xffff, 0x00abcdef), OFBadPropertyCode.BAD_EXPERIMENTER);
    }

    @Test
    void aBadPropertyOfAnOpenFlow14MessageOnAnOpenFlow10ConnectionIsAnsweredInOpenFlow10() throws Exception {
        // D4: the decoder's answer (1.4's BAD_PROPERTY) does not exist in 1.0; the message's version is what is wrong.
        try (FakeSwitch sw10 = FakeSwitch.connect(controller.port(), 0x1004, OFVersion.OF_10)) {
            controller.awaitSwitch(0x1004);
            byte[] offending = portStatusWithProperty(0x0777, 0);
            sw10.sendRaw(offending);
            OFBadRequestErrorMsg error = sw10.expect(OFBadRequestErrorMsg.class, e -> e.getXid() == 0x1414);
            assertEquals(OFVersion.OF_10, error.getVersion());
            assertEquals(OFBadRequestCode.BAD_VERSION, error.getCode());
            assertArrayEquals(Arrays.copyOf(offending, 64), error.getData().getData());
            sw10.send(sw10.factory.buildEchoRequest().setXid(4545).setData(new byte[0]).build());
            sw10.expect(OFEchoReply.class, r -> r.getXid() == 4545);
            assertEquals(1L, controller.registry.getSwitch(DatapathId.of(0x1004)).getCounters()
                    .get("badInput.BAD_REQUEST/BAD_VERSION"));
        }
        assertStillWorking();
    }

    @Test
    void badInputIsCountedByKindOnItsSwitchAndInTheTotals() throws Exception {
        for (long xid = 2001; xid <= 2005; xid++) {
            bad.sendRaw(raw(4, 99, xid));
        }
        bad.sendRaw(raw(4, 12, 2006, 0, 0, 0, 0, 0, 0, 0, 0)); // a truncated PORT_STATUS
        bad.expect(OFBadRequestErrorMsg.class, e -> e.getXid() == 2006);
        OFSwitch badSwitch = controller.registry.getSwitch(DatapathId.of(0xbad));
        assertEquals(java.util.Map.of("badInput.BAD_REQUEST/BAD_TYPE", 5L, "badInput.BAD_REQUEST/BAD_LEN", 1L),
                badSwitch.getCounters());
        assertEquals(5L, controller.server.counters().badInputByKind().get("BAD_REQUEST/BAD_TYPE"));
        assertTrue(goodSwitch.getCounters().isEmpty(), "nothing counted on the other switch");
        assertStillWorking();
    }

    @Test
    void unknownVendorOnOpenFlow10IsAnsweredWithBadVendor() throws Exception {
        try (FakeSwitch sw10 = FakeSwitch.connect(controller.port(), 0x1010, OFVersion.OF_10)) {
            controller.awaitSwitch(0x1010);
            byte[] vendor = raw(1, 4, 0x1011, 0, 0xab, 0xcd, 0xef, 0, 0, 0, 1); // OFPT_VENDOR, unknown vendor id
            sw10.sendRaw(vendor);
            OFBadRequestErrorMsg error = sw10.expect(OFBadRequestErrorMsg.class, e -> e.getXid() == 0x1011);
            assertEquals(OFVersion.OF_10, error.getVersion());
            assertEquals(OFBadRequestCode.BAD_EXPERIMENTER, error.getCode()); // OFPBRC_BAD_VENDOR on the wire
            assertArrayEquals(vendor, error.getData().getData());
            sw10.send(sw10.factory.buildEchoRequest().setXid(4444).setData(new byte[0]).build());
            sw10.expect(OFEchoReply.class, r -> r.getXid() == 4444);
        }
        assertStillWorking();
    }

    @Test
    void anUndecodableErrorIsNotAnsweredWithAnError() throws Exception {
        bad.sendRaw(raw(4, 1, 0x789a, 0, 1)); // ERROR, too short for type + code + data framing rules
        assertStillWorking();
        assertTrue(bad.seen().stream().noneMatch(m -> m instanceof OFBadRequestErrorMsg e && e.getXid() == 0x789a));
    }

    @Test
    void manyBadMessagesInOneBatchAreAllAnswered() throws Exception {
        byte[] a = raw(4, 99, 1001);
        byte[] b = raw(4, 98, 1002);
        byte[] c = raw(4, 97, 1003);
        byte[] all = new byte[a.length * 3];
        System.arraycopy(a, 0, all, 0, 8);
        System.arraycopy(b, 0, all, 8, 8);
        System.arraycopy(c, 0, all, 16, 8);
        bad.sendRaw(all);
        for (long xid = 1001; xid <= 1003; xid++) {
            long x = xid;
            assertEquals(OFBadRequestCode.BAD_TYPE, bad.expect(OFBadRequestErrorMsg.class, e -> e.getXid() == x).getCode());
        }
        assertStillWorking();
    }

    @Test
    void anUnframeableStreamClosesOnlyThatConnection() throws Exception {
        bad.sendRaw(new byte[] {4, 2, 0, 4, 0, 0, 0, 1}); // declares a length of 4 < the 8-byte header
        bad.awaitClosed();
        ControllerFixture.await(() -> controller.registry.getSwitch(DatapathId.of(0xbad)) == null, "bad switch removed");
        goodSwitch.barrier().get(5, TimeUnit.SECONDS);
        good.send(good.factory.buildEchoRequest().setXid(5151).setData(new byte[0]).build());
        good.expect(OFEchoReply.class, r -> r.getXid() == 5151);
        assertTrue(goodSwitch.isConnected());
    }

    @Test
    void aListenerThatThrowsDoesNotReachNetty() throws Exception {
        controller.pipeline.hook = (sw, m) -> {
            if (m.getXid() == 31337) {
                throw new IllegalStateException("listener bug");
            }
        };
        OFMessage pin = bad.factory.buildPacketIn().setXid(31337).setBufferId(OFBufferId.NO_BUFFER)
                .setReason(OFPacketInReason.NO_MATCH).setTableId(TableId.of(0))
                .setMatch(bad.factory.buildMatch().build()).setData(new byte[0]).build();
        bad.send(pin);
        ControllerFixture.await(() -> controller.pipeline.dispatched.stream().anyMatch(m -> m.getXid() == 31337), "dispatched");
        controller.pipeline.hook = (sw, m) -> { };
        assertStillWorking();
    }
}
