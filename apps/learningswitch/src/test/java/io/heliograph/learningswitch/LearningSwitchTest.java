package io.heliograph.learningswitch;

import static io.heliograph.learningswitch.PacketIns.H1;
import static io.heliograph.learningswitch.PacketIns.H2;
import static io.heliograph.learningswitch.PacketIns.H3;
import static io.heliograph.learningswitch.PacketIns.packetIn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFPortConfig;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortState;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.action.OFActionOutput;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionApplyActions;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.MessageListener.Command;
import io.heliograph.core.SwitchListener.PortChange;
import io.heliograph.core.testing.FakeSwitch;

/**
 * The learning switch on every supported version, fed packet-ins as they come off the wire,
 * checked against the exact messages a correct learning switch sends.
 */
class LearningSwitchTest {

    private static final OFBufferId BUFFER = OFBufferId.of(0x100);

    private final LearningSwitch app = new LearningSwitch(LearningSwitchSettings.DEFAULTS);

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13", "OF_14", "OF_15"})
    void anUnknownDestinationIsFloodedWithThePacket(OFVersion version) {
        FakeSwitch sw = new FakeSwitch(1, version);
        OFPacketIn in = packetIn(version, 1, H2, H1);

        assertEquals(Command.CONTINUE, app.receive(sw, in));

        List<OFMessage> out = sw.take();
        assertEquals(1, out.size(), out.toString());
        assertMessage(packetOut(version, 1, OFPort.FLOOD, OFBufferId.NO_BUFFER, in.getData()), out.get(0));
        assertEquals(1, app.hostCount(sw.getId()), "the source was learned");
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13", "OF_14", "OF_15"})
    void aKnownDestinationGetsAFlowAndTheUnbufferedPacketIsSentAlong(OFVersion version) {
        FakeSwitch sw = new FakeSwitch(1, version);
        app.receive(sw, packetIn(version, 1, H2, H1)); // h1 on port 1 (flooded)
        sw.take();

        OFPacketIn reply = packetIn(version, 2, H1, H2); // h2 on port 2 answers h1
        app.receive(sw, reply);

        List<OFMessage> out = sw.take();
        assertEquals(2, out.size(), out.toString());
        assertMessage(flow(version, 2, H2, H1, 1, OFBufferId.NO_BUFFER, 5, 1), out.get(0));
        assertMessage(packetOut(version, 2, OFPort.of(1), OFBufferId.NO_BUFFER, reply.getData()), out.get(1));
        assertActionsOutputTo((OFFlowAdd) out.get(0), version, 1);
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13", "OF_14", "OF_15"})
    void aBufferedPacketIsReleasedByTheFlowItself(OFVersion version) {
        FakeSwitch sw = new FakeSwitch(1, version);
        app.receive(sw, packetIn(version, 1, H2, H1));
        sw.take();

        app.receive(sw, packetIn(version, 2, PacketIns.frame(H1, H2), BUFFER));

        List<OFMessage> out = sw.take();
        assertEquals(1, out.size(), "no packet-out: the switch applies the flow to its buffer " + out);
        assertMessage(flow(version, 2, H2, H1, 1, BUFFER, 5, 1), out.get(0));
        assertEquals(BUFFER, ((OFFlowAdd) out.get(0)).getBufferId());
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13", "OF_14", "OF_15"})
    void aBufferedPacketToAnUnknownDestinationIsFloodedFromTheBuffer(OFVersion version) {
        FakeSwitch sw = new FakeSwitch(1, version);

        app.receive(sw, packetIn(version, 3, PacketIns.frame(H2, H1), BUFFER));

        List<OFMessage> out = sw.take();
        assertMessage(packetOut(version, 3, OFPort.FLOOD, BUFFER, null), out.get(0));
        assertEquals(0, ((OFPacketOut) out.get(0)).getData().length, "the switch has the packet");
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13", "OF_14", "OF_15"})
    void broadcastAndMulticastAreAlwaysFlooded(OFVersion version) {
        FakeSwitch sw = new FakeSwitch(1, version);
        app.receive(sw, packetIn(version, 1, H2, H1));
        sw.take();

        app.receive(sw, packetIn(version, 2, 0xffff_ffff_ffffL, H2));
        app.receive(sw, packetIn(version, 2, 0x0100_5e00_0001L, H2)); // IPv4 all-hosts
        app.receive(sw, packetIn(version, 2, 0x3333_0000_0001L, H2)); // IPv6 all-nodes

        List<OFMessage> out = sw.take();
        assertEquals(3, out.size());
        for (OFMessage m : out) {
            assertMessage(packetOut(version, 2, OFPort.FLOOD, OFBufferId.NO_BUFFER, ((OFPacketOut) m).getData()), m);
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13", "OF_14", "OF_15"})
    void nothingIsSentWhenTheDestinationIsOnTheIngressPort(OFVersion version) {
        FakeSwitch sw = new FakeSwitch(1, version);
        app.receive(sw, packetIn(version, 4, H2, H1));
        app.receive(sw, packetIn(version, 4, H1, H3)); // h3 shares port 4 (a hub behind it) with h1
        sw.take();

        assertEquals(Command.CONTINUE, app.receive(sw, packetIn(version, 4, H1, H3)));

        assertEquals(List.of(), sw.take());
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13", "OF_14", "OF_15"})
    void aGroupSourceAddressIsNeverLearned(OFVersion version) {
        FakeSwitch sw = new FakeSwitch(1, version);
        long multicastSource = 0x0300_0000_0009L;
        app.receive(sw, packetIn(version, 1, H2, multicastSource));
        sw.take();

        app.receive(sw, packetIn(version, 2, multicastSource, H2));

        List<OFMessage> out = sw.take();
        assertInstanceOf(OFPacketOut.class, out.get(0));
        assertEquals(1, out.size(), "flooded, no flow: " + out);
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13", "OF_14", "OF_15"})
    void linkLocalControlFramesAreNotForwarded(OFVersion version) {
        FakeSwitch sw = new FakeSwitch(1, version);

        app.receive(sw, packetIn(version, 1, 0x0180_c200_000eL, H1)); // LLDP
        app.receive(sw, packetIn(version, 1, 0x0180_c200_0000L, H1)); // STP

        assertEquals(List.of(), sw.take());
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13", "OF_14", "OF_15"})
    void aHostThatMovedIsFollowed(OFVersion version) {
        FakeSwitch sw = new FakeSwitch(1, version);
        app.receive(sw, packetIn(version, 1, H2, H1));
        app.receive(sw, packetIn(version, 5, H2, H1)); // h1 now on port 5
        sw.take();

        app.receive(sw, packetIn(version, 2, H1, H2));

        assertMessage(flow(version, 2, H2, H1, 5, OFBufferId.NO_BUFFER, 5, 1), sw.take().get(0));
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13", "OF_14", "OF_15"})
    void configuredTimeoutsAndPriorityGoIntoTheFlow(OFVersion version) {
        app.configure(new LearningSwitchSettings(17, 300, 1000, 10, 10, 120_000));
        FakeSwitch sw = new FakeSwitch(1, version);
        app.receive(sw, packetIn(version, 1, H2, H1));
        sw.take();

        app.receive(sw, packetIn(version, 2, H1, H2));

        OFFlowAdd flow = (OFFlowAdd) sw.take().get(0);
        assertMessage(flow(version, 2, H2, H1, 1, OFBufferId.NO_BUFFER, 17, 1000).createBuilder()
                .setHardTimeout(300).build(), flow);
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13", "OF_14", "OF_15"})
    void aRemovedSwitchStartsAfresh(OFVersion version) {
        FakeSwitch sw = new FakeSwitch(1, version);
        app.receive(sw, packetIn(version, 1, H2, H1));
        sw.take();

        app.switchRemoved(sw);
        assertEquals(0, app.hostCount(sw.getId()));
        FakeSwitch reconnected = new FakeSwitch(1, version);
        app.receive(reconnected, packetIn(version, 2, H1, H2));

        assertInstanceOf(OFPacketOut.class, reconnected.take().get(0), "h1 is unknown again: flood");
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13", "OF_14", "OF_15"})
    void aNewConnectionNeverSeesTheOldConnectionsTable(OFVersion version) {
        FakeSwitch old = new FakeSwitch(1, version);
        app.receive(old, packetIn(version, 1, H2, H1));
        FakeSwitch reconnected = new FakeSwitch(1, version); // before the old one's switchRemoved

        app.receive(reconnected, packetIn(version, 2, H1, H2));
        app.switchRemoved(old); // late: must not drop the new connection's table

        List<OFMessage> out = reconnected.take();
        assertInstanceOf(OFPacketOut.class, out.get(0));
        assertEquals(OFPort.FLOOD, output(((OFPacketOut) out.get(0)).getActions()));
        assertEquals(1, app.hostCount(reconnected.getId()), "h2, learned on the new connection");
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13", "OF_14", "OF_15"})
    void switchesHaveTheirOwnTables(OFVersion version) {
        FakeSwitch s1 = new FakeSwitch(1, version);
        FakeSwitch s2 = new FakeSwitch(2, version);
        app.receive(s1, packetIn(version, 1, H2, H1));

        app.receive(s2, packetIn(version, 2, H1, H2));

        assertEquals(OFPort.FLOOD, output(((OFPacketOut) s2.take().get(0)).getActions()));
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13", "OF_14", "OF_15"})
    void hostsOnAPortThatGoesDownAreForgotten(OFVersion version) {
        FakeSwitch sw = new FakeSwitch(1, version);
        app.receive(sw, packetIn(version, 1, H2, H1));
        app.receive(sw, packetIn(version, 3, H2, H3));
        OFFactory f = sw.getFactory();
        OFPortDesc port1 = f.buildPortDesc().setPortNo(OFPort.of(1)).setHwAddr(MacAddress.of(1)).setName("p1")
                .setState(Set.of(OFPortState.LINK_DOWN)).setConfig(Set.<OFPortConfig>of()).build();
        OFPortDesc port3 = f.buildPortDesc().setPortNo(OFPort.of(3)).setHwAddr(MacAddress.of(3)).setName("p3")
                .setState(Set.<OFPortState>of()).setConfig(Set.<OFPortConfig>of()).build();

        app.portChanged(sw, port3, PortChange.MODIFIED); // still up: nothing forgotten
        assertEquals(2, app.hostCount(sw.getId()));
        app.portChanged(sw, port1, PortChange.MODIFIED);
        assertEquals(1, app.hostCount(sw.getId()));
        app.portChanged(sw, port3, PortChange.DELETED);
        assertEquals(0, app.hostCount(sw.getId()));
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13", "OF_14", "OF_15"})
    void aPacketInThatIsNotParseableIsLeftAlone(OFVersion version) {
        FakeSwitch sw = new FakeSwitch(1, version);

        assertEquals(Command.CONTINUE, app.receive(sw, packetIn(version, 1, new byte[] {1, 2, 3},
                OFBufferId.NO_BUFFER)));

        assertEquals(List.of(), sw.take());
        assertEquals(0, app.hostCount(sw.getId()));
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13"})
    void preparingForAMessageLearnsAndSendsNothing(OFVersion version) {
        FakeSwitch sw = new FakeSwitch(1, version);
        app.prepare(sw, List.of(packetIn(version, 1, H2, H1))); // before the switch has a table
        app.receive(sw, packetIn(version, 1, H2, H1));
        sw.take();

        app.prepare(sw, List.of(packetIn(version, 3, H1, H3), packetIn(version, 2, new byte[] {1, 2, 3}, OFBufferId.NO_BUFFER),
                sw.getFactory().echoRequest(new byte[0])));

        assertEquals(1, app.hostCount(sw.getId()), "h1 only: h3 was prepared for, not learned");
        assertEquals(List.of(), sw.take());
        app.receive(sw, packetIn(version, 2, H3, H2));
        assertEquals(1, sw.take().size(), "h3 is still unknown: h2's packet to it is flooded");
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13", "OF_14", "OF_15"})
    void otherMessagesAreIgnored(OFVersion version) {
        FakeSwitch sw = new FakeSwitch(1, version);

        assertEquals(Command.CONTINUE, app.receive(sw, sw.getFactory().echoRequest(new byte[0])));

        assertEquals(List.of(), sw.take());
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13"})
    void packetInBytesAsOpenVSwitchSendsThem(OFVersion version) {
        OFPacketIn in = (OFPacketIn) PacketIns.decode(version == OFVersion.OF_10
                ? PacketIns.OVS_OF10_ARP_REQUEST : PacketIns.OVS_OF13_ARP_REQUEST);
        assertEquals(version, in.getVersion());
        FakeSwitch sw = new FakeSwitch(1, version);

        app.receive(sw, in);

        OFPacketOut flood = (OFPacketOut) sw.take().get(0);
        if (version == OFVersion.OF_10) {
            assertMessage(packetOut(version, 1, OFPort.FLOOD, BUFFER, null), flood);
        } else {
            assertMessage(packetOut(version, 1, OFPort.FLOOD, OFBufferId.NO_BUFFER, in.getData()), flood);
            assertEquals(42, flood.getData().length);
        }
        assertEquals(1, app.hostCount(sw.getId()));
    }

    @ParameterizedTest
    @EnumSource(names = {"OF_15"})
    void onOpenFlow15ThePacketOutCarriesTheIngressPortInItsMatch(OFVersion version) {
        FakeSwitch sw = new FakeSwitch(1, version);

        app.receive(sw, packetIn(version, 7, H2, H1));

        OFPacketOut out = (OFPacketOut) sw.take().get(0);
        assertEquals(OFPort.of(7), out.getMatch().get(MatchField.IN_PORT));
    }

    // --- what a correct learning switch sends, written out independently of the code under test ---

    private static OFFlowAdd flow(OFVersion version, int inPort, long src, long dst, int out, OFBufferId buffer,
            int idle, int priority) {
        OFFactory f = OFFactories.getFactory(version);
        Match match = f.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(inPort))
                .setExact(MatchField.ETH_SRC, MacAddress.of(src)).setExact(MatchField.ETH_DST, MacAddress.of(dst))
                .build();
        List<OFAction> actions = List.of(f.actions().buildOutput().setPort(OFPort.of(out)).setMaxLen(0).build());
        OFFlowAdd.Builder b = f.buildFlowAdd().setMatch(match).setIdleTimeout(idle).setHardTimeout(0)
                .setPriority(priority).setBufferId(buffer).setCookie(LearningSwitch.COOKIE);
        return version == OFVersion.OF_10 ? b.setActions(actions).build()
                : b.setInstructions(List.of(f.instructions().applyActions(actions))).build();
    }

    private static OFPacketOut packetOut(OFVersion version, int inPort, OFPort out, OFBufferId buffer, byte[] data) {
        OFFactory f = OFFactories.getFactory(version);
        OFPacketOut.Builder b = f.buildPacketOut().setBufferId(buffer)
                .setActions(List.of(f.actions().buildOutput().setPort(out).setMaxLen(0).build()));
        if (version == OFVersion.OF_15) {
            b.setMatch(f.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(inPort)).build());
        } else {
            b.setInPort(OFPort.of(inPort));
        }
        if (data != null) {
            b.setData(data);
        }
        return b.build();
    }

    private static void assertMessage(OFMessage expected, OFMessage actual) {
        // The actual message on the left: it may be a template's flow, which equals Loxi's but not the other way round.
        assertTrue(actual.equalsIgnoreXid(expected), () -> "expected " + expected + "\n     got " + actual);
        // And the bytes a switch would parse are right too: what we send must survive encoding.
        OFMessage decoded = PacketIns.throughTheWire(actual);
        assertTrue(expected.equalsIgnoreXid(decoded), () -> "after encoding: " + decoded);
    }

    /** 1.0 carries the actions in the flow-mod; 1.3+ in one apply-actions instruction. */
    private static void assertActionsOutputTo(OFFlowAdd flow, OFVersion version, int port) {
        List<OFAction> actions;
        if (version == OFVersion.OF_10) {
            actions = flow.getActions();
        } else {
            assertEquals(1, flow.getInstructions().size());
            actions = ((OFInstructionApplyActions) flow.getInstructions().get(0)).getActions();
        }
        assertEquals(OFPort.of(port), output(actions));
    }

    private static OFPort output(List<OFAction> actions) {
        assertEquals(1, actions.size(), actions.toString());
        return ((OFActionOutput) actions.get(0)).getPort();
    }
}
