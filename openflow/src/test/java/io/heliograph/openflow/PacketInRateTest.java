package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFEchoReply;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;

import io.heliograph.core.OFSwitch;

/**
 * The drop path of the per-switch packet-in budget: on a clock that stands still, a flooding switch
 * gets exactly its burst through, the rest is dropped before decoding and counted, and another
 * switch on the same I/O thread is not held back.
 */
class PacketInRateTest {

    private static final int BURST = 10;
    private ControllerFixture controller;

    @AfterEach
    void stop() {
        if (controller != null) {
            controller.close();
        }
    }

    private static OFPacketIn packetIn(OFFactory f, long xid) {
        return f.buildPacketIn().setXid(xid).setBufferId(OFBufferId.NO_BUFFER).setReason(OFPacketInReason.NO_MATCH)
                .setTableId(TableId.of(0)).setMatch(f.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(1)).build())
                .setData(new byte[60]).build();
    }

    private static byte[] encoded(OFFactory f, long firstXid, int count) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < count; i++) {
            io.netty.buffer.ByteBuf b = io.netty.buffer.Unpooled.buffer();
            packetIn(f, firstXid + i).writeTo(b);
            byte[] bytes = new byte[b.readableBytes()];
            b.readBytes(bytes);
            b.release();
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    private long dispatchedFrom(long firstXid, int count) {
        return controller.pipeline.dispatched.stream()
                .filter(m -> m instanceof OFPacketIn && m.getXid() >= firstXid && m.getXid() < firstXid + count).count();
    }

    @Test
    void aFloodingSwitchGetsItsBurstThroughAndTheRestIsDroppedAndCounted() throws Exception {
        long frozen = 42;
        controller = new ControllerFixture(ControllerFixture.testSettings().withIoThreads(1)
                .withLimits(SwitchLimits.DEFAULTS.withPacketInRate(1000, BURST)), () -> frozen);
        try (FakeSwitch flooder = FakeSwitch.connect(controller.port(), 0x90, OFVersion.OF_13);
                FakeSwitch quiet = FakeSwitch.connect(controller.port(), 0x91, OFVersion.OF_13)) {
            OFSwitch flooding = controller.awaitSwitch(0x90);
            OFSwitch other = controller.awaitSwitch(0x91);
            OFFactory f = flooding.getFactory();

            flooder.sendRaw(encoded(f, 1000, 500));
            flooder.send(f.buildEchoRequest().setXid(1).setData(new byte[0]).build());
            flooder.expect(OFEchoReply.class, r -> r.getXid() == 1); // everything before it has been read
            assertEquals(BURST, dispatchedFrom(1000, 500), "the burst, and not one more on a clock that stands still");
            assertEquals(500L - BURST, flooding.getCounters().get("packetInsDropped"));
            assertEquals(500L - BURST, controller.server.counters().packetInsDropped.sum());

            // The other switch on the same thread has its own budget.
            quiet.sendRaw(encoded(f, 5000, BURST));
            ControllerFixture.await(() -> dispatchedFrom(5000, BURST) == BURST, "the other switch's packet-ins");
            assertTrue(other.getCounters().isEmpty(), other.getCounters().toString());
            assertTrue(flooding.isConnected(), "dropping is not disconnecting");
        }
    }

    @Test
    void zeroLetsEveryPacketInThrough() throws Exception {
        long frozen = 42;
        controller = new ControllerFixture(ControllerFixture.testSettings()
                .withLimits(SwitchLimits.DEFAULTS.withPacketInRate(0, 0)), () -> frozen);
        try (FakeSwitch flooder = FakeSwitch.connect(controller.port(), 0x92, OFVersion.OF_13)) {
            OFSwitch sw = controller.awaitSwitch(0x92);
            flooder.sendRaw(encoded(sw.getFactory(), 1000, 2000));
            ControllerFixture.await(() -> dispatchedFrom(1000, 2000) == 2000, "every packet-in");
            assertTrue(sw.getCounters().isEmpty());
        }
    }

    @Test
    void theDefaultsAreTheDocumentedOnes() {
        SwitchLimits l = OpenFlowController.settings(ConfigurationTest.config(java.util.Map.of())).limits();
        assertEquals(100_000, l.packetInRate());
        assertEquals(10_000, l.packetInBurst());
        assertEquals(4096, l.maxPorts());
        assertEquals(1000, l.maxPendingRequests());
    }
}
