package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFEchoReply;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortReason;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.OFSwitch;

/**
 * D5: a switch that claims 65,000 ports, through its port description or through PORT_STATUS, is
 * bounded by {@code maxPorts} (the rest refused, counted) and stays connected; and a round of one
 * probe per port, written as a bulk writer should (waiting for {@link OFSwitch#whenWritable()} after
 * each {@link OFSwitch#WRITABLE_ROOM_BYTES}), never passes the write bound, even on the smallest
 * bound and a switch that pauses its reading, so a reading switch is never dropped as not reading.
 */
class PortBoundTest {

    private static final int PORTS = 65_000;
    private ControllerFixture controller;

    @AfterEach
    void stop() {
        if (controller != null) {
            controller.close();
        }
    }

    @Test
    void sixtyFiveThousandPortsInThePortDescriptionAreBoundedAndTheSwitchServed() throws Exception {
        controller = new ControllerFixture();
        try (FakeSwitch fake = withPorts(0xa0, PORTS)) {
            OFSwitch sw = controller.awaitSwitch(0xa0);
            int max = SwitchLimits.DEFAULT_MAX_PORTS;
            assertEquals(max, sw.getPorts().size());
            assertNotNull(sw.getPort(OFPort.of(max)), "the first ones listed are kept");
            assertNull(sw.getPort(OFPort.of(max + 1)));
            assertEquals((long) PORTS - max, sw.getCounters().get("portsRefused"));
            assertEquals((long) PORTS - max, controller.server.counters().portsRefused.sum());
            assertStillServed(fake, sw);
        }
    }

    @Test
    void sixtyFiveThousandPortsThroughPortStatusAreBoundedToo() throws Exception {
        controller = new ControllerFixture();
        try (FakeSwitch fake = FakeSwitch.connect(controller.port(), 0xa1, OFVersion.OF_13)) {
            OFSwitch sw = controller.awaitSwitch(0xa1);
            OFFactory f = sw.getFactory();
            ByteArrayOutputStream statuses = new ByteArrayOutputStream();
            for (int port = 4; port < 4 + PORTS; port++) {
                statuses.writeBytes(bytes(f.buildPortStatus().setXid(port).setReason(OFPortReason.ADD)
                        .setDesc(port(f, port)).build()));
            }
            fake.sendRaw(statuses.toByteArray());
            assertStillServed(fake, sw); // the echo is answered after every status before it was read
            int max = SwitchLimits.DEFAULT_MAX_PORTS;
            assertEquals(max, sw.getPorts().size());
            long refused = PORTS - (max - 3);
            assertEquals(refused, sw.getCounters().get("portsRefused"));
            long added = controller.listener.events.stream().filter(e -> e.startsWith("port ADDED")).count();
            assertEquals(max - 3, added, "the apps hear only of the ports kept");

            // A port that goes makes room for one that comes.
            fake.send(f.buildPortStatus().setXid(1).setReason(OFPortReason.DELETE).setDesc(port(f, 5)).build());
            fake.send(f.buildPortStatus().setXid(2).setReason(OFPortReason.ADD).setDesc(port(f, 100_000)).build());
            ControllerFixture.await(() -> sw.getPort(OFPort.of(100_000)) != null, "the new port kept");
            assertEquals(max, sw.getPorts().size());
        }
    }

    @Test
    void roundsOfOneProbePerPortWrittenAsTheySayNeverPassTheWriteBound() throws Exception {
        long bound = OpenFlowSettings.MIN_MAX_PENDING_WRITE_BYTES; // the smallest: 64 KiB
        controller = new ControllerFixture(ControllerFixture.testSettings().withMaxPendingWriteBytes(bound)
                .withLimits(SwitchLimits.DEFAULTS.withMaxPorts(PORTS)));
        try (FakeSwitch fake = withPorts(0xa2, PORTS)) {
            OFSwitch sw = controller.awaitSwitch(0xa2);
            assertEquals(PORTS, sw.getPorts().size());
            for (int round = 1; round <= 2; round++) {
                fake.stopReading(); // a switch busy with something else for a while
                AtomicReference<CompletableFuture<Void>> waitingFor = new AtomicReference<>();
                Thread writer = new Thread(() -> probeRound(sw, waitingFor), "probe-round-" + round);
                writer.start();
                ControllerFixture.await(() -> {
                    CompletableFuture<Void> w = waitingFor.get();
                    return w != null && !w.isDone() && !writer.getState().equals(Thread.State.RUNNABLE);
                }, "the round waits for the switch to read");
                long pending = ((SwitchConnection) sw).pendingWriteBytes();
                assertTrue(sw.isConnected(), "still connected while the switch does not read");
                assertTrue(pending <= bound, pending + " bytes pending, bound " + bound);

                fake.resumeReading();
                writer.join(30_000);
                assertFalse(writer.isAlive(), "round " + round + " written");
                for (int i = 0; i < PORTS; i++) {
                    fake.expect(OFPacketOut.class);
                }
                assertTrue(sw.isConnected(), "round " + round + ": the switch reads, and stays");
            }
            assertTrue(controller.listener.events.stream().noneMatch(e -> e.startsWith("removed")),
                    controller.listener.events.toString());
        }
    }

    /** An OpenFlow 1.3 switch that says it has {@code ports} ports, connected. */
    private FakeSwitch withPorts(long dpid, int ports) throws java.io.IOException {
        FakeSwitch fake = new FakeSwitch(new java.net.Socket("127.0.0.1", controller.port()),
                org.projectfloodlight.openflow.types.DatapathId.of(dpid), Set.of(OFVersion.OF_13));
        fake.portCount = ports;
        fake.sayHello();
        return fake;
    }

    /** One probe (1 KiB, to fill the socket buffers soon) out of every port, paced as OFSwitch.whenWritable says. */
    private static void probeRound(OFSwitch sw, AtomicReference<CompletableFuture<Void>> waitingFor) {
        OFFactory f = sw.getFactory();
        int written = 0;
        for (OFPortDesc port : List.copyOf(sw.getPorts())) {
            OFPacketOut probe = f.buildPacketOut().setBufferId(OFBufferId.NO_BUFFER).setInPort(OFPort.CONTROLLER)
                    .setActions(List.of(f.actions().output(port.getPortNo(), 0))).setData(new byte[1024]).build();
            int size = 1024 + 40;
            if (written + size > OFSwitch.WRITABLE_ROOM_BYTES) {
                CompletableFuture<Void> w = sw.whenWritable();
                waitingFor.set(w);
                try {
                    w.get(30, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new AssertionError("the switch was dropped during the round", e);
                }
                written = 0;
            }
            sw.write(probe);
            written += size;
        }
    }

    private static void assertStillServed(FakeSwitch fake, OFSwitch sw) throws Exception {
        fake.send(sw.getFactory().buildEchoRequest().setXid(0xecc0).setData(new byte[0]).build());
        fake.expect(OFEchoReply.class, r -> r.getXid() == 0xecc0);
        assertTrue(sw.isConnected());
    }

    private static OFPortDesc port(OFFactory f, int number) {
        return f.buildPortDesc().setPortNo(OFPort.of(number)).setName("p" + number)
                .setHwAddr(MacAddress.of(0x020000000000L + number)).build();
    }

    private static byte[] bytes(org.projectfloodlight.openflow.protocol.OFMessage m) {
        io.netty.buffer.ByteBuf b = io.netty.buffer.Unpooled.buffer();
        m.writeTo(b);
        byte[] out = new byte[b.readableBytes()];
        b.readBytes(out);
        b.release();
        return out;
    }
}
