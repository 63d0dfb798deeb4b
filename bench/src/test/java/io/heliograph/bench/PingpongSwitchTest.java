package io.heliograph.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadRequestErrorMsg;
import org.projectfloodlight.openflow.protocol.OFBarrierReply;
import org.projectfloodlight.openflow.protocol.OFControllerRole;
import org.projectfloodlight.openflow.protocol.OFDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFEchoReply;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFeaturesReply;
import org.projectfloodlight.openflow.protocol.OFGetConfigReply;
import org.projectfloodlight.openflow.protocol.OFGroupStatsReply;
import org.projectfloodlight.openflow.protocol.OFHello;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPortDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFRoleReply;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;

/**
 * The reference latency client ({@code src/main/c/pingpong.c}) as a switch, against a controller
 * written with Loxi over a real socket: its answers to the handshake and housekeeping read as valid
 * OpenFlow, its packet-ins carry the generator's frames, and a round trip ends only with the answer to
 * the packet-in in flight, as in the generator's latency mode, so the two measure the same thing.
 */
@Timeout(60)
class PingpongSwitchTest {

    private static final Path BINARY = Path.of("target/pingpong-switch");
    private static final long DPID = 0x2a;

    @BeforeAll
    static void compile() throws Exception {
        CResponderTest.compile(CResponderTest.PINGPONG_SOURCE, BINARY);
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void aControllerSeesASwitchWhoseRoundTripsEndWithTheAnswerToThePacketInInFlight(OpenFlowVersion v) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Controller controller = new Controller(OFFactories.getFactory(WireFormatTest.loxi(v)), v, server);
            Thread thread = new Thread(controller::serve, "loxi-controller");
            thread.setDaemon(true);
            thread.start();

            CResponderTest.Finished pingpong = CResponderTest.runToEnd(BINARY.toString(), "-D", "200", "-d",
                    Long.toString(DPID), Integer.toString(server.getLocalPort()), Integer.toString(v.wire()), "1");
            thread.join(10_000);
            assertEquals(0, pingpong.status(), pingpong.output());
            assertEquals(List.of(), controller.problems, pingpong.output());

            Matcher line = CResponderTest.ROUND_TRIPS.matcher(pingpong.output().lines().findFirst().orElse(""));
            assertTrue(line.matches(), pingpong.output());
            long roundTrips = Long.parseLong(line.group(1));
            assertTrue(roundTrips >= 5 * GeneratorAgainstResponderTest.LATENCY_MODE_FLOOR, pingpong.output());
            int answered = controller.answered.get();
            assertTrue(roundTrips == answered || roundTrips == answered - 1, roundTrips + " round trips counted, "
                    + answered + " packet-ins answered (the last answer may arrive after the second ended)");
            assertFalse(pingpong.output().contains("unanswered"), "no answer was missed: " + pingpong.output());
            assertFalse(pingpong.output().contains("errors"), "it sent nothing the controller refused: "
                    + pingpong.output());

            housekeepingAnswered(v, controller.replies);
        }
    }

    private static void housekeepingAnswered(OpenFlowVersion v, Map<Long, OFMessage> replies) {
        OFFeaturesReply features = assertInstanceOf(OFFeaturesReply.class, replies.get(1L));
        assertEquals(DatapathId.of(DPID), features.getDatapathId());
        assertEquals(SwitchMessages.BUFFERS, features.getNBuffers());
        if (v == OpenFlowVersion.OF_10) {
            WireFormatTest.assertPorts(features.getPorts());
        }
        assertInstanceOf(OFBarrierReply.class, replies.get(2L));
        assertArrayEquals(new byte[] {'h', 'i'}, assertInstanceOf(OFEchoReply.class, replies.get(3L)).getData());
        assertEquals(Long.toString(DPID), assertInstanceOf(OFDescStatsReply.class, replies.get(4L)).getSerialNum());
        assertEquals(0xffff, assertInstanceOf(OFGetConfigReply.class, replies.get(5L)).getMissSendLen(),
                "the miss-send length the controller set");
        assertEquals(OFBadRequestCode.BAD_TYPE, assertInstanceOf(OFBadRequestErrorMsg.class, replies.get(6L)).getCode(),
                "no queues to describe");
        if (v == OpenFlowVersion.OF_13) {
            WireFormatTest.assertPorts(assertInstanceOf(OFPortDescStatsReply.class, replies.get(7L)).getEntries());
            OFRoleReply role = assertInstanceOf(OFRoleReply.class, replies.get(8L));
            assertEquals(OFControllerRole.ROLE_MASTER, role.getRole());
            assertEquals(U64.of(5), role.getGenerationId());
            assertEquals(List.of(), assertInstanceOf(OFGroupStatsReply.class, replies.get(9L)).getEntries());
            assertEquals(OFBadRequestCode.BAD_STAT, assertInstanceOf(OFBadRequestErrorMsg.class, replies.get(10L)).getCode(),
                    "meter features it cannot describe");
        }
    }

    /**
     * Asks the switch everything a controller asks at the start, then answers its packet-ins as
     * forwarding does: the ARP with a flooding packet-out, each probe with a flow-mod with no buffer (the
     * reverse direction, which answers nothing) and then one on the probe's buffer, with an LLDP
     * packet-out (which answers nothing either) before every tenth.
     */
    private static final class Controller {
        final OFFactory f;
        final OpenFlowVersion version;
        final ServerSocket server;
        final Map<Long, OFMessage> replies = new ConcurrentHashMap<>();
        final List<String> problems = new CopyOnWriteArrayList<>();
        final AtomicInteger answered = new AtomicInteger();
        private int probes;

        Controller(OFFactory f, OpenFlowVersion version, ServerSocket server) {
            this.f = f;
            this.version = version;
            this.server = server;
        }

        void serve() {
            try (Socket socket = server.accept()) {
                socket.setTcpNoDelay(true);   // an answer of two or three messages goes out at once
                DataInputStream in = new DataInputStream(socket.getInputStream());
                OutputStream out = socket.getOutputStream();
                ProbingController.send(out, f.buildHello().build());
                ProbingController.send(out, f.buildFeaturesRequest().setXid(1).build());
                while (true) {
                    OFMessage m = ProbingController.read(in);
                    if (m instanceof OFPacketIn packetIn) {
                        answer(out, packetIn);
                    } else if (!(m instanceof OFHello)) {
                        replies.put(m.getXid(), m);
                        if (m instanceof OFFeaturesReply) {
                            ask(out);
                        }
                    }
                }
            } catch (IOException e) {
                // pingpong is done and closed its socket
            }
        }

        private void ask(OutputStream out) throws IOException {
            List<OFMessage> asks = new ArrayList<>(List.of(f.buildBarrierRequest().setXid(2).build(),
                    f.buildEchoRequest().setXid(3).setData(new byte[] {'h', 'i'}).build(),
                    f.buildDescStatsRequest().setXid(4).build(),
                    f.buildSetConfig().setXid(100).setMissSendLen(0xffff).build(),
                    f.buildGetConfigRequest().setXid(5).build(),
                    f.buildQueueGetConfigRequest().setXid(6).setPort(OFPort.of(1)).build()));
            if (version == OpenFlowVersion.OF_13) {
                asks.addAll(List.of(f.buildPortDescStatsRequest().setXid(7).build(),
                        f.buildRoleRequest().setXid(8).setRole(OFControllerRole.ROLE_MASTER).setGenerationId(U64.of(5)).build(),
                        f.buildGroupStatsRequest().setXid(9).setGroup(OFGroup.ALL).build(),
                        f.buildMeterFeaturesStatsRequest().setXid(10).build()));
            }
            for (OFMessage ask : asks) {
                ProbingController.send(out, ask);
            }
        }

        private void answer(OutputStream out, OFPacketIn packetIn) throws IOException {
            OFPort inPort = version == OpenFlowVersion.OF_10 ? packetIn.getInPort() : packetIn.getMatch().get(MatchField.IN_PORT);
            if (answered.get() == 0) {
                expect(OFBufferId.NO_BUFFER.equals(packetIn.getBufferId()), "the ARP comes first, unbuffered");
                expect(OFPort.of(PacketIn.LEARN_PORT).equals(inPort), "the ARP comes from port 2");
                ProbingController.send(out, f.buildPacketOut().setBufferId(OFBufferId.NO_BUFFER).setInPort(inPort)
                        .setActions(List.of(f.actions().output(OFPort.FLOOD, 0))).setData(packetIn.getData()).build());
                answered.incrementAndGet();
                return;
            }
            int index = probes++;
            expect(OFPort.of(PacketIn.PROBE_PORT).equals(inPort), "probe " + index + " comes from port 1");
            expect(packetIn.getBufferId().getInt() == index % SwitchMessages.BUFFERS, "probe " + index + " on buffer "
                    + index % SwitchMessages.BUFFERS + ", not " + packetIn.getBufferId());
            expect(Arrays.equals(generatorFrame(index), packetIn.getData()),
                    "probe " + index + " carries the generator's frame");
            if (index % 10 == 0) {
                ProbingController.send(out, f.buildPacketOut().setBufferId(OFBufferId.NO_BUFFER).setInPort(OFPort.CONTROLLER)
                        .setActions(List.of(f.actions().output(OFPort.of(1), 0)))
                        .setData(ProbingController.probeFrame(DPID, 1)).build());
            }
            ProbingController.send(out, f.buildFlowAdd().setBufferId(OFBufferId.NO_BUFFER).build());
            ProbingController.send(out, f.buildFlowAdd().setBufferId(packetIn.getBufferId()).build());
            answered.incrementAndGet();
        }

        /** The frame of the generator's packet-in with source MAC index {@code index}. */
        private byte[] generatorFrame(int index) {
            PacketIn probe = PacketIn.probe(version, DPID);
            ByteBuffer b = ByteBuffer.allocate(probe.length());
            probe.writeTo(b, 0, 0, index);
            byte[] frame = new byte[PacketIn.FRAME_LENGTH];
            b.get(PacketIn.headerLength(version), frame);
            return frame;
        }

        private void expect(boolean condition, String what) {
            if (!condition && problems.size() < 5) {
                problems.add(what);
            }
        }
    }
}
