package io.heliograph.learningswitch;

import static io.heliograph.learningswitch.PacketIns.H1;
import static io.heliograph.learningswitch.PacketIns.H2;
import static io.heliograph.learningswitch.PacketIns.H3;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPortConfig;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortState;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.MessageListener.Command;
import io.heliograph.core.SwitchListener.PortChange;
import io.heliograph.core.testing.FakeSwitch;

/**
 * The guard for the fast path: one recorded sequence of packet-ins on one switch (hosts talking,
 * broadcast and multicast, unknown and known destinations, buffered and unbuffered packets, a hub,
 * link-local frames, a host moving to another port, a port going down) and, for every step, the
 * exact messages the learning switch must send, in order: match, actions, timeouts, priority,
 * cookie, buffer id and the data of packet-outs. Any change in what the learning switch sends
 * fails the step that shows it, with the step's story in the message.
 *
 * <p>The packet-ins come from core's {@code TableMiss} through the wire ({@link PacketIns}); the
 * expected messages come from {@link ExpectedMessages}, built with Loxi's generic builders
 * independently of how the app builds them, and are compared to what the app sent both as objects
 * and after encoding and decoding. Each sequence runs with the default settings and with configured
 * ones, on OpenFlow 1.0 (actions in the flow-mod) and 1.3 (an apply-actions instruction, in_port in
 * the packet-in's match).
 */
class RecordedSequenceTest {

    private static final long H4 = 0x0200_0000_0004L;
    private static final long H5 = 0x0200_0000_0005L;
    private static final long H6 = 0x0200_0000_0006L;
    private static final long BROADCAST = 0xffff_ffff_ffffL;
    private static final long MDNS_V4 = 0x0100_5e00_00fbL; // 224.0.0.251
    private static final long ALL_NODES_V6 = 0x3333_0000_0001L; // ff02::1
    private static final long LLDP = 0x0180_c200_000eL;
    private static final long STP = 0x0180_c200_0000L;
    /** A group address as a source: bogus, never learned. */
    private static final long GROUP_SOURCE = 0x0300_0000_0009L;

    private static final OFBufferId BUFFER_A = OFBufferId.of(0x101);
    private static final OFBufferId BUFFER_B = OFBufferId.of(0x102);
    private static final OFBufferId BUFFER_C = OFBufferId.of(0x103);
    private static final OFBufferId NO_BUFFER = OFBufferId.NO_BUFFER;

    /** The default settings, and configured ones whose timers and priority must show in every flow. */
    static Stream<Arguments> versionsAndSettings() {
        LearningSwitchSettings configured = new LearningSwitchSettings(17, 300, 1000, 100, 100, 120_000);
        return Stream.of(OFVersion.OF_10, OFVersion.OF_13).flatMap(version -> Stream.of(
                Arguments.of(LearningSwitchSettings.DEFAULTS, ExpectedMessages.withDefaults(version)),
                Arguments.of(configured, new ExpectedMessages(version, 17, 300, 1000))));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("versionsAndSettings")
    void everyStepSendsExactlyTheRecordedMessages(LearningSwitchSettings settings, ExpectedMessages expect) {
        LearningSwitch app = new LearningSwitch(settings);
        FakeSwitch sw = new FakeSwitch(1, expect.version());

        List<Step> recording = recording(expect);
        for (int i = 0; i < recording.size(); i++) {
            Step step = recording.get(i);
            step.event().happenTo(app, sw);
            ExpectedMessages.assertSentExactly("step " + (i + 1) + " (" + step.story() + ") on " + expect.version(),
                    step.replies(), sw.take());
        }
        assertEquals(6, app.hostCount(sw.getId()), "h1, h2, h3, h4 (back on port 7), h5 and h6; never the group source");
    }

    /**
     * The recording. Hosts h1..h6 on one switch; h2 and h5 share port 2 (a hub behind it).
     * Read each step as: what arrives, then what the learning switch must send for it.
     */
    private static List<Step> recording(ExpectedMessages expect) {
        return List.of(
                step("h1 on port 1 broadcasts an ARP request: flooded with its frame; h1 learned on port 1",
                        packetIn(1, H1, BROADCAST),
                        expect.flood(1, H1, BROADCAST)),
                step("h2 on port 2 answers h1: h1 is on port 1, so a flow h2->h1 out 1, and the frame sent along",
                        packetIn(2, H2, H1),
                        expect.flow(2, H2, H1, 1), expect.sendAlong(2, H2, H1, 1)),
                step("h1 talks back to h2: a flow h1->h2 out 2, and the frame sent along",
                        packetIn(1, H1, H2),
                        expect.flow(1, H1, H2, 2), expect.sendAlong(1, H1, H2, 2)),
                step("h3 on port 3 sends to h4, never seen: flooded",
                        packetIn(3, H3, H4),
                        expect.flood(3, H3, H4)),
                step("h1 sends to h3, buffered: the flow carries the buffer and releases it; no packet-out",
                        packetIn(1, H1, H3, BUFFER_A),
                        expect.flow(1, H1, H3, 3, BUFFER_A)),
                step("h4 shows up on port 4 and sends to h3, buffered: a flow h4->h3 out 3 with the buffer",
                        packetIn(4, H4, H3, BUFFER_B),
                        expect.flow(4, H4, H3, 3, BUFFER_B)),
                step("h3 sends to h4 again, now known on port 4: a flow out 4, and the frame sent along",
                        packetIn(3, H3, H4),
                        expect.flow(3, H3, H4, 4), expect.sendAlong(3, H3, H4, 4)),
                step("h2 sends to an IPv4 multicast group: always flooded, never a flow",
                        packetIn(2, H2, MDNS_V4),
                        expect.flood(2, H2, MDNS_V4)),
                step("h2 sends to IPv6 all-nodes: always flooded, never a flow",
                        packetIn(2, H2, ALL_NODES_V6),
                        expect.flood(2, H2, ALL_NODES_V6)),
                step("h1 sends to h6, never seen, buffered: flooded from the switch's buffer, without the frame",
                        packetIn(1, H1, H6, BUFFER_C),
                        expect.floodFromBuffer(1, BUFFER_C)),
                step("h3 sends an LLDP frame: link-local, the learning switch leaves it alone",
                        packetIn(3, H3, LLDP)),
                step("h3 sends an STP frame: link-local, left alone too",
                        packetIn(3, H3, STP)),
                step("h5 on port 2 (a hub, with h2) sends to h2: the destination is on the ingress port, nothing sent",
                        packetIn(2, H5, H2)),
                step("h1 sends to h5, learned on port 2 by the previous packet: a flow out 2",
                        packetIn(1, H1, H5),
                        expect.flow(1, H1, H5, 2), expect.sendAlong(1, H1, H5, 2)),
                step("h1 moves to port 5 and sends to h2: the flow matches in_port 5",
                        packetIn(5, H1, H2),
                        expect.flow(5, H1, H2, 2), expect.sendAlong(5, H1, H2, 2)),
                step("h2 answers h1: out of port 5 now, not port 1",
                        packetIn(2, H2, H1),
                        expect.flow(2, H2, H1, 5), expect.sendAlong(2, H2, H1, 5)),
                step("h3 sends to h1: out of port 5 as well",
                        packetIn(3, H3, H1),
                        expect.flow(3, H3, H1, 5), expect.sendAlong(3, H3, H1, 5)),
                step("a frame with a group source address on port 6 to h1: forwarded like any to a known host",
                        packetIn(6, GROUP_SOURCE, H1),
                        expect.flow(6, GROUP_SOURCE, H1, 5), expect.sendAlong(6, GROUP_SOURCE, H1, 5)),
                step("h2 sends to that group address: a group destination is flooded, the source was not learned",
                        packetIn(2, H2, GROUP_SOURCE),
                        expect.flood(2, H2, GROUP_SOURCE)),
                step("h6 shows up on port 6 and sends to h1: a flow out 5",
                        packetIn(6, H6, H1),
                        expect.flow(6, H6, H1, 5), expect.sendAlong(6, H6, H1, 5)),
                step("port 4 goes down: h4 is forgotten; nothing sent",
                        portDown(4)),
                step("h3 sends to h4: unknown again, flooded",
                        packetIn(3, H3, H4),
                        expect.flood(3, H3, H4)),
                step("h4 comes back on port 7 and sends to h3: a flow out 3",
                        packetIn(7, H4, H3),
                        expect.flow(7, H4, H3, 3), expect.sendAlong(7, H4, H3, 3)),
                step("h3 sends to h4: out of port 7",
                        packetIn(3, H3, H4),
                        expect.flow(3, H3, H4, 7), expect.sendAlong(3, H3, H4, 7)),
                step("h5 (port 2) sends to h6, learned on port 6: a flow out 6",
                        packetIn(2, H5, H6),
                        expect.flow(2, H5, H6, 6), expect.sendAlong(2, H5, H6, 6)));
    }

    // --- the recording's vocabulary ---

    private record Step(String story, Event event, List<OFMessage> replies) {
    }

    /** What happens to the switch in one step. */
    @FunctionalInterface
    private interface Event {
        void happenTo(LearningSwitch app, FakeSwitch sw);
    }

    private static Step step(String story, Event event, OFMessage... replies) {
        return new Step(story, event, List.of(replies));
    }

    /** An unbuffered table-miss packet-in of a frame from {@code src} to {@code dst} arriving at {@code port}. */
    private static Event packetIn(int port, long src, long dst) {
        return packetIn(port, src, dst, NO_BUFFER);
    }

    /** Prepared for, then received, as the switch's connection hands it over. */
    private static Event packetIn(int port, long src, long dst, OFBufferId buffer) {
        return (app, sw) -> {
            OFPacketIn in = PacketIns.packetIn(sw.getVersion(), port, PacketIns.frame(dst, src), buffer);
            app.prepare(sw, List.of(in));
            assertEquals(Command.CONTINUE, app.receive(sw, in), "the learning switch never stops the pipeline");
        };
    }

    /** The port goes down (link down), as PORT_STATUS reports it. */
    private static Event portDown(int port) {
        return (app, sw) -> {
            OFPortDesc desc = sw.getFactory().buildPortDesc().setPortNo(OFPort.of(port)).setHwAddr(MacAddress.of(port))
                    .setName("p" + port).setConfig(Set.<OFPortConfig>of()).setState(Set.of(OFPortState.LINK_DOWN))
                    .build();
            app.portChanged(sw, desc, PortChange.MODIFIED);
        };
    }
}
