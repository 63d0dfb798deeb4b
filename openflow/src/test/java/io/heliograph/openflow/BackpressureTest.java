package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFBarrierReply;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowStatsReply;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFBufferId;

import io.heliograph.core.OFSwitch;

/** The bound on bytes a switch may leave unread: a switch that stops reading is dropped, alone. */
class BackpressureTest {

    private static final int PAYLOAD = 1024;

    /** A packet-out of about 1 KiB on the wire. */
    private static OFMessage packetOut(OFFactory f, long xid) {
        return f.buildPacketOut().setXid(xid).setBufferId(OFBufferId.NO_BUFFER).setData(new byte[PAYLOAD]).build();
    }

    /**
     * One I/O thread, so both switches share a loop; requests wait long, so a request to the dropped
     * switch can only fail through the disconnect.
     */
    private static OpenFlowSettings settings(long maxPendingWriteBytes) {
        return ControllerFixture.testSettings().withIoThreads(1)
                .withTimeouts(Duration.ofSeconds(3), Duration.ofSeconds(30), Duration.ofSeconds(2), Duration.ofSeconds(30))
                .withMaxPendingWriteBytes(maxPendingWriteBytes);
    }

    @Test
    void aSwitchThatStopsReadingIsDroppedOnceTheBoundIsPassedWhileAnotherKeepsWorking() throws Exception {
        long bound = 256 << 10;
        try (ControllerFixture controller = new ControllerFixture(settings(bound));
                FakeSwitch slow = FakeSwitch.connect(controller.port(), 0x60, OFVersion.OF_13);
                FakeSwitch healthy = FakeSwitch.connect(controller.port(), 0x61, OFVersion.OF_13)) {
            OFSwitch slowSw = controller.awaitSwitch(0x60);
            OFSwitch healthySw = controller.awaitSwitch(0x61);
            OFFactory f = slowSw.getFactory();
            slow.stopReading();
            // The fake switch never answers flow statistics: only the disconnect can end this request.
            CompletableFuture<List<OFFlowStatsReply>> unanswered = slowSw.requestStatistics(f.buildFlowStatsRequest().build());

            // An app thread keeps writing while the switch reads nothing. The cap (64 MiB on the wire)
            // ends the writer, rather than the JVM, if the bound does not work.
            OFMessage out = packetOut(f, 7);
            long cap = 64L << 10;
            Thread writer = new Thread(() -> {
                for (long n = 0; n < cap && slowSw.write(out); n++) {
                    // keep writing until the switch is refused
                }
            }, "backpressure-writer");
            writer.start();
            ControllerFixture.await(() -> !slowSw.isConnected(), "the switch that does not read dropped");
            writer.join(FakeSwitch.WAIT.toMillis());
            assertFalse(writer.isAlive(), "writer done");
            assertFalse(slowSw.write(out), "writes to the dropped switch are refused");

            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> unanswered.get(FakeSwitch.WAIT.toMillis(), TimeUnit.MILLISECONDS));
            IOException cause = assertInstanceOf(IOException.class, e.getCause());
            assertTrue(cause.getMessage().contains("not reading")
                    && cause.getMessage().contains("over maxPendingWriteBytes " + bound), cause.getMessage());
            String removed = "removed " + slowSw.getId() + " " + slowSw.getRemoteAddress().getPort();
            ControllerFixture.await(() -> controller.listener.events.contains(removed), removed);
            assertNull(controller.registry.getSwitch(slow.dpid()));

            // The other switch, on the same loop, is untouched and still answers and receives.
            assertTrue(healthySw.isConnected());
            healthySw.barrier().get(FakeSwitch.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertTrue(healthySw.write(packetOut(f, 99)));
            healthy.expect(OFPacketOut.class, p -> p.getXid() == 99);
            assertFalse(controller.listener.events.stream().anyMatch(ev -> ev.startsWith("removed " + healthySw.getId())));

            // The connection is really closed: once the switch reads again it gets to the end of it.
            slow.resumeReading();
            slow.awaitClosed();
        }
    }

    @Test
    void aBurstUnderTheBoundWaitsForAPausedSwitchAndIsDeliveredInFull() throws Exception {
        try (ControllerFixture controller = new ControllerFixture(settings(OpenFlowSettings.DEFAULT_MAX_PENDING_WRITE_BYTES));
                FakeSwitch fake = FakeSwitch.connect(controller.port(), 0x62, OFVersion.OF_13)) {
            OFSwitch sw = controller.awaitSwitch(0x62);
            OFFactory f = sw.getFactory();
            fake.stopReading();
            // 3 MiB, below the 4 MiB bound: more than the socket buffers hold, so some waits in the controller.
            int count = 3 << 10;
            Thread writer = new Thread(() -> {
                for (long xid = 1; xid <= count; xid++) {
                    sw.write(packetOut(f, xid));
                }
            }, "burst-writer");
            writer.start();
            writer.join(FakeSwitch.WAIT.toMillis());
            assertFalse(writer.isAlive(), "burst written");
            // Written after the whole burst, so its reply proves the switch got all of it.
            CompletableFuture<OFBarrierReply> afterBurst = sw.barrier();

            fake.resumeReading();
            for (long xid = 1; xid <= count; xid++) {
                long expected = xid;
                OFPacketOut p = fake.expect(OFPacketOut.class, m -> true);
                assertEquals(expected, p.getXid(), "burst delivered in order, nothing lost");
            }
            afterBurst.get(FakeSwitch.WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertTrue(sw.isConnected(), "a burst under the bound keeps the switch");
            assertFalse(controller.listener.events.stream().anyMatch(ev -> ev.startsWith("removed ")),
                    controller.listener.events.toString());
        }
    }
}
