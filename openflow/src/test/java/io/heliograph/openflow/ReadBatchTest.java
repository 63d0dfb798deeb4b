package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFBufferId;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * A switch's messages that arrive in one read are all prepared (so the listeners' cache misses of
 * the whole read overlap) before the first of them is dispatched, and then dispatched in order.
 */
class ReadBatchTest {

    private static final OFFactory F = OFFactories.getFactory(OFVersion.OF_13);
    private static final long HOLDING = 1000;

    @Test
    void everyMessageOfOneReadIsPreparedBeforeTheFirstIsDispatched() throws Exception {
        try (ControllerFixture controller = new ControllerFixture(ControllerFixture.testSettings().withIoThreads(1));
                FakeSwitch sw = FakeSwitch.connect(controller.port(), 0x90, OFVersion.OF_13)) {
            controller.awaitSwitch(0x90);
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch released = new CountDownLatch(1);
            controller.pipeline.hook = (s, m) -> {
                if (m.getXid() == HOLDING) {
                    held.countDown();
                    try {
                        released.await(FakeSwitch.WAIT.toMillis(), TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            };
            sw.sendRaw(packetIns(HOLDING, 1));
            assertTrue(held.await(FakeSwitch.WAIT.toMillis(), TimeUnit.MILLISECONDS), "the loop is held");
            // While the loop is held in a listener, eight packet-ins arrive in one write: the next read takes them all.
            sw.sendRaw(packetIns(HOLDING + 1, 8));
            released.countDown();
            ControllerFixture.await(() -> controller.pipeline.dispatched.stream().anyMatch(m -> m.getXid() == HOLDING + 8),
                    "the eight packet-ins dispatched");

            List<String> expected = new ArrayList<>();
            for (long xid = HOLDING + 1; xid <= HOLDING + 8; xid++) {
                expected.add("prepare " + xid);
            }
            for (long xid = HOLDING + 1; xid <= HOLDING + 8; xid++) {
                expected.add("dispatch " + xid);
            }
            List<String> calls = controller.pipeline.calls.stream()
                    .filter(c -> Long.parseLong(c.substring(c.indexOf(' ') + 1)) > HOLDING).toList();
            assertEquals(expected, calls);
        }
    }

    /** {@code count} packet-ins with xids from {@code firstXid}, as one byte array (one write). */
    private static byte[] packetIns(long firstXid, int count) {
        ByteBuf buf = Unpooled.buffer();
        for (int i = 0; i < count; i++) {
            F.buildPacketIn().setXid(firstXid + i).setBufferId(OFBufferId.NO_BUFFER).setReason(OFPacketInReason.NO_MATCH)
                    .setData(new byte[64]).build().writeTo(buf);
        }
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }
}
