package io.heliograph.bench;

import static io.heliograph.bench.EmulatedSwitchTest.drain;
import static io.heliograph.bench.EmulatedSwitchTest.receive;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.projectfloodlight.openflow.protocol.OFAggregateStatsReply;
import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.protocol.OFBarrierReply;
import org.projectfloodlight.openflow.protocol.OFControllerRole;
import org.projectfloodlight.openflow.protocol.OFDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFEchoReply;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFeaturesReply;
import org.projectfloodlight.openflow.protocol.OFFlowStatsReply;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFNiciraControllerRole;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPortDescStatsReply;
import org.projectfloodlight.openflow.protocol.OFPortStatsReply;
import org.projectfloodlight.openflow.protocol.OFRoleReply;
import org.projectfloodlight.openflow.protocol.OFRoleRequestFailedCode;
import org.projectfloodlight.openflow.protocol.OFStatsRequest;
import org.projectfloodlight.openflow.protocol.OFTableStatsReply;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadRequestErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFRoleRequestFailedErrorMsg;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.bench.SwitchBehaviour.Reply;
import io.heliograph.bench.SwitchBehaviour.StatsType;

/**
 * The switch behaviours of {@code --stats...} and {@code --role...}, driven by requests Loxi encodes:
 * what is ignored, refused or answered late, and that the handshake, housekeeping and packet-ins go
 * on regardless.
 */
class SwitchBehaviourTest {

    private static final long DPID = 9;
    private static final int LATE_MS = 20_000;

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void byDefaultEveryStatisticsTypeIsAnsweredAndTheNiciraRoleRequestGetsBadVendor(OpenFlowVersion v)
            throws Exception {
        EmulatedSwitch sw = switchWith(v, SwitchBehaviour.DEFAULT);
        OFFactory f = factory(v);
        List<OFMessage> replies = receive(sw, flowStats(f, 11), f.buildPortStatsRequest().setXid(12)
                .setPortNo(OFPort.ANY).build(), f.buildTableStatsRequest().setXid(13).build(), aggregate(f, 14),
                f.buildDescStatsRequest().setXid(15).build());
        assertEquals(List.of(OFFlowStatsReply.class, OFPortStatsReply.class, OFTableStatsReply.class,
                OFAggregateStatsReply.class, OFDescStatsReply.class), classes(replies));
        assertEquals(List.of(11L, 12L, 13L, 14L, 15L), replies.stream().map(OFMessage::getXid).toList());
        OFMessage role = receive(sw, roleRequest(f, 16)).get(0);
        if (v == OpenFlowVersion.OF_10) {
            assertEquals(OFBadRequestCode.BAD_EXPERIMENTER, ((OFBadRequestErrorMsg) role).getCode(),
                    "1.0's BAD_VENDOR: no Nicira extension, as before the behaviours existed");
        } else {
            assertEquals(OFControllerRole.ROLE_MASTER, ((OFRoleReply) role).getRole());
        }
        assertEquals(16, role.getXid());
        assertEquals(4, sw.statsRequests().received, "counted: the types of --stats-types (all but desc)");
        assertEquals(0, sw.statsRequests().ignored + sw.statsRequests().late + sw.statsRequests().refused);
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void ignoringStatisticsLeavesTheHandshakeDescriptionAndHousekeepingAnswered(OpenFlowVersion v)
            throws Exception {
        EmulatedSwitch sw = switchWith(v, new SwitchBehaviour(Reply.IGNORE, StatsType.ALL, 0, Reply.ANSWER, 0));
        OFFactory f = factory(v);
        List<OFMessage> requests = List.of(flowStats(f, 21), aggregate(f, 22),
                f.buildPortStatsRequest().setXid(23).setPortNo(OFPort.ANY).build(),
                f.buildTableStatsRequest().setXid(24).build(),
                f.buildQueueStatsRequest().setXid(25).setPortNo(OFPort.ANY).setQueueId(0xffffffffL).build());
        assertEquals(List.of(), receive(sw, requests.toArray(OFMessage[]::new)), "every statistics request ignored");

        List<OFMessage> handshake = receive(sw, f.buildFeaturesRequest().setXid(31).build(),
                f.buildDescStatsRequest().setXid(32).build(), f.buildEchoRequest().setXid(33).build(),
                f.buildBarrierRequest().setXid(34).build());
        assertEquals(List.of(OFFeaturesReply.class, OFDescStatsReply.class, OFEchoReply.class, OFBarrierReply.class),
                classes(handshake), "desc is answered unless named");
        if (v == OpenFlowVersion.OF_13) {
            List<OFMessage> more = receive(sw, f.buildGroupStatsRequest().setXid(41).setGroup(OFGroup.ALL).build(),
                    f.buildMeterStatsRequest().setXid(42).setMeterId(0xffffffffL).build(),
                    f.buildPortDescStatsRequest().setXid(43).build());
            assertEquals(List.of(OFPortDescStatsReply.class), classes(more),
                    "groups and meters ignored; the port description belongs to the handshake");
        }
        EmulatedSwitch.Requests counts = sw.statsRequests();
        int asked = v == OpenFlowVersion.OF_13 ? 7 : 5;
        assertEquals(asked, counts.received, "desc and port-desc are not among the types ignored");
        assertEquals(asked, counts.ignored);
    }

    @Test
    void descIsIgnoredWhenNamedAndOtherTypesStayAnswered() throws Exception {
        OFFactory f = factory(OpenFlowVersion.OF_10);
        EmulatedSwitch all = switchWith(OpenFlowVersion.OF_10, behaviourIgnoring(
                SwitchBehaviour.parseStatsTypes("--stats-types", "all,desc")));
        assertEquals(List.of(), receive(all, f.buildDescStatsRequest().setXid(1).build(), flowStats(f, 2)));

        EmulatedSwitch flowOnly = switchWith(OpenFlowVersion.OF_10, behaviourIgnoring(EnumSet.of(StatsType.FLOW)));
        List<OFMessage> replies = receive(flowOnly, flowStats(f, 3), aggregate(f, 4),
                f.buildPortStatsRequest().setXid(5).setPortNo(OFPort.ANY).build());
        assertEquals(List.of(OFAggregateStatsReply.class, OFPortStatsReply.class), classes(replies));
        assertEquals(1, flowOnly.statsRequests().received, "counted: the requests the behaviour applies to");
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void statisticsRefusedWithBadStat(OpenFlowVersion v) throws Exception {
        EmulatedSwitch sw = switchWith(v, new SwitchBehaviour(Reply.ERROR, StatsType.ALL, 0, Reply.ANSWER, 0));
        OFFactory f = factory(v);
        List<OFMessage> replies = receive(sw, flowStats(f, 51), f.buildDescStatsRequest().setXid(52).build());
        OFBadRequestErrorMsg error = assertInstanceOf(OFBadRequestErrorMsg.class, replies.get(0));
        assertEquals(OFBadRequestCode.BAD_STAT, error.getCode(), "1.3 calls the same code BAD_MULTIPART");
        assertEquals(51, error.getXid());
        assertInstanceOf(OFDescStatsReply.class, replies.get(1));
        assertEquals(1, sw.statsRequests().refused);
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void ignoredRoleRequestsGetNothingWhileOtherVendorMessagesStillGetBadVendor(OpenFlowVersion v)
            throws Exception {
        EmulatedSwitch sw = switchWith(v, new SwitchBehaviour(Reply.ANSWER, StatsType.ALL, 0, Reply.IGNORE, 0));
        OFFactory f = factory(v);
        assertEquals(List.of(), receive(sw, roleRequest(f, 61)));
        assertEquals(1, sw.roleRequests().ignored);
        if (v == OpenFlowVersion.OF_10) {
            OFMessage other = f.buildBsnGetMirroringRequest().setXid(62).build();
            OFBadRequestErrorMsg error = (OFBadRequestErrorMsg) receive(sw, other).get(0);
            assertEquals(OFBadRequestCode.BAD_EXPERIMENTER, error.getCode());
            assertEquals(1, sw.roleRequests().received, "a vendor message that is not a role request");
        }
    }

    @Test
    void aRoleRequestRefusedOnOneThreeSaysUnsupported() throws Exception {
        EmulatedSwitch sw = switchWith(OpenFlowVersion.OF_13,
                new SwitchBehaviour(Reply.ANSWER, StatsType.ALL, 0, Reply.ERROR, 0));
        OFRoleRequestFailedErrorMsg error = (OFRoleRequestFailedErrorMsg) receive(sw,
                roleRequest(factory(OpenFlowVersion.OF_13), 71)).get(0);
        assertEquals(OFRoleRequestFailedCode.UNSUP, error.getCode());
        assertEquals(71, error.getXid());
    }

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void lateAnswersWaitWhileEverythingElseGoesOn(OpenFlowVersion v) throws Exception {
        EmulatedSwitch sw = switchWith(v, new SwitchBehaviour(Reply.ANSWER, StatsType.ALL, LATE_MS, Reply.ERROR,
                LATE_MS));
        OFFactory f = factory(v);
        long asked = System.nanoTime();
        List<OFMessage> now = receive(sw, flowStats(f, 81), roleRequest(f, 82), f.buildBarrierRequest().setXid(83)
                .build());
        assertEquals(List.of(OFBarrierReply.class), classes(now), "only the barrier at once");
        long due = sw.nextLateReplyNanos();
        assertTrue(due - asked >= LATE_MS * 1_000_000L, "due " + (due - asked) / 1_000_000 + " ms after the request");
        sw.sendLateReplies(System.nanoTime());
        assertEquals(List.of(), drain(sw), "nothing before it is due");

        sw.delayOver();
        sw.startTest();
        OFPacketIn first = (OFPacketIn) drain(sw).get(0);
        OFPacketIn second = (OFPacketIn) receive(sw, f.buildFlowAdd().setBufferId(first.getBufferId()).build())
                .get(0);
        assertEquals(first.getXid() + 1, second.getXid(), "packet-ins carry on while the replies wait");

        sw.sendLateReplies(System.nanoTime() + LATE_MS * 1_000_000L);
        List<OFMessage> late = drain(sw);
        assertEquals(81, late.get(0).getXid());
        assertInstanceOf(OFFlowStatsReply.class, late.get(0));
        assertEquals(82, late.get(1).getXid());
        assertEquals(v == OpenFlowVersion.OF_10 ? OFBadRequestErrorMsg.class : OFRoleRequestFailedErrorMsg.class,
                late.get(1).getClass().getInterfaces()[0], "the role error, late");
        assertEquals(Long.MAX_VALUE, sw.nextLateReplyNanos());
        assertEquals(1, sw.statsRequests().late);
        assertEquals(1, sw.roleRequests().late);
        assertEquals(1, sw.roleRequests().refused);
    }

    @Test
    void theEarliestLateReplyIsDueFirstWhicheverKindItIs() throws Exception {
        EmulatedSwitch sw = switchWith(OpenFlowVersion.OF_13, new SwitchBehaviour(Reply.ANSWER, StatsType.ALL, LATE_MS,
                Reply.ANSWER, 100));
        OFFactory f = factory(OpenFlowVersion.OF_13);
        assertEquals(Long.MAX_VALUE, sw.nextLateReplyNanos(), "none waits");
        long asked = System.nanoTime();
        receive(sw, flowStats(f, 91), roleRequest(f, 92));
        long due = sw.nextLateReplyNanos();
        assertTrue(due - asked < LATE_MS * 1_000_000L, "the role reply, due 100 ms after its request, comes first");
        sw.sendLateReplies(due);
        assertEquals(List.of(92L), drain(sw).stream().map(OFMessage::getXid).toList());
        assertTrue(sw.nextLateReplyNanos() - asked >= LATE_MS * 1_000_000L, "then the statistics answer");
    }

    // --- helpers

    private static SwitchBehaviour behaviourIgnoring(Set<StatsType> types) {
        return new SwitchBehaviour(Reply.IGNORE, types, 0, Reply.ANSWER, 0);
    }

    /** A switch past its FEATURES_REPLY (latency mode, learning off), its output drained. */
    private static EmulatedSwitch switchWith(OpenFlowVersion v, SwitchBehaviour behaviour) throws Exception {
        BenchOptions o = new BenchOptions("localhost", 6653, 1, 3, 100, 1000, false, 1, 0, 0, false, 1, v, behaviour,
                false);
        EmulatedSwitch sw = new EmulatedSwitch(1, DPID, o);
        receive(sw, factory(v).buildFeaturesRequest().setXid(1).build());
        return sw;
    }

    private static OFFactory factory(OpenFlowVersion v) {
        return OFFactories.getFactory(WireFormatTest.loxi(v));
    }

    private static OFStatsRequest<?> flowStats(OFFactory f, long xid) {
        var b = f.buildFlowStatsRequest().setXid(xid).setMatch(f.buildMatch().build()).setTableId(TableId.ALL)
                .setOutPort(OFPort.ANY);
        if (f.getVersion() != OFVersion.OF_10) {
            b.setOutGroup(OFGroup.ANY);
        }
        return b.build();
    }

    private static OFStatsRequest<?> aggregate(OFFactory f, long xid) {
        var b = f.buildAggregateStatsRequest().setXid(xid).setMatch(f.buildMatch().build()).setTableId(TableId.ALL)
                .setOutPort(OFPort.ANY);
        if (f.getVersion() != OFVersion.OF_10) {
            b.setOutGroup(OFGroup.ANY);
        }
        return b.build();
    }

    /** What the controller sends: 1.3's ROLE_REQUEST, or Nicira's on 1.0. */
    private static OFMessage roleRequest(OFFactory f, long xid) {
        if (f.getVersion() == OFVersion.OF_10) {
            return f.buildNiciraControllerRoleRequest().setXid(xid).setRole(OFNiciraControllerRole.ROLE_MASTER)
                    .build();
        }
        return f.buildRoleRequest().setXid(xid).setRole(OFControllerRole.ROLE_MASTER).setGenerationId(U64.of(3))
                .build();
    }

    private static List<Class<?>> classes(List<OFMessage> messages) {
        return messages.stream().<Class<?>>map(m -> m.getClass().getInterfaces()[0]).toList();
    }
}
