package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFBadActionCode;
import org.projectfloodlight.openflow.protocol.OFBundleAddMsg;
import org.projectfloodlight.openflow.protocol.OFBundleCtrlMsg;
import org.projectfloodlight.openflow.protocol.OFBundleCtrlType;
import org.projectfloodlight.openflow.protocol.OFBundleFailedCode;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowModFailedCode;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.errormsg.OFBundleFailedErrorMsg;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.OFBundle;
import io.heliograph.core.OFBundleException;
import io.heliograph.core.OFSwitch;

/** Bundles against the in-JVM fake switch: what goes on the wire, in what order, and what the app is told. */
class BundlesTest {

    private ControllerFixture controller;
    private FakeSwitch fake;
    private OFSwitch sw;
    private OFFactory f;

    private void connect(OFVersion version, Duration requestTimeout) throws Exception {
        controller = new ControllerFixture(ControllerFixture.testSettings()
                .withTimeouts(Duration.ofSeconds(3), Duration.ofSeconds(30), Duration.ofSeconds(2), requestTimeout));
        fake = FakeSwitch.connect(controller.port(), 0x14, version);
        sw = controller.awaitSwitch(0x14);
        f = sw.getFactory();
    }

    @AfterEach
    void close() throws IOException {
        if (fake != null) {
            fake.close();
        }
        if (controller != null) {
            controller.close();
        }
    }

    /** A day's entry: traffic in at {@code in} goes out at {@code out}. */
    private OFFlowAdd circuit(int in, int out) {
        return f.buildFlowAdd().setPriority(100)
                .setMatch(f.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(in)).build())
                .setActions(List.of(f.actions().output(OFPort.of(out), 0))).build();
    }

    private OFBundleCtrlMsg expectControl(OFBundleCtrlType type) throws InterruptedException {
        return fake.expect(OFBundleCtrlMsg.class, m -> m.getBundleCtrlType() == type);
    }

    private void reply(OFBundleCtrlMsg request, OFBundleCtrlType type) throws IOException {
        fake.send(f.buildBundleCtrlMsg().setXid(request.getXid()).setBundleId(request.getBundleId())
                .setBundleCtrlType(type).setFlags(request.getFlags()).build());
    }

    private List<OFBundleAddMsg> expectAdds(int n) throws InterruptedException {
        List<OFBundleAddMsg> adds = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            adds.add(fake.expect(OFBundleAddMsg.class));
        }
        return adds;
    }

    @Test
    void aBundleBuiltOnAnotherThreadGoesOutInOrderAndItsCommitCompletesWithTheReply() throws Exception {
        connect(OFVersion.OF_14, Duration.ofSeconds(3));
        assertTrue(sw.supportsBundles());
        CompletableFuture<OFBundleCtrlMsg> committed = CompletableFuture.supplyAsync(() -> {
            OFBundle day = sw.bundle();
            day.add(circuit(1, 2), circuit(2, 3)).add(List.of(circuit(3, 1)));
            assertEquals(3, day.size());
            return day.commit();
        }).thenCompose(x -> x);

        OFBundleCtrlMsg open = expectControl(OFBundleCtrlType.OPEN_REQUEST);
        assertEquals(Bundles.FLAGS, open.getFlags());
        reply(open, OFBundleCtrlType.OPEN_REPLY);
        List<OFBundleAddMsg> adds = expectAdds(3);
        List<Integer> outs = new ArrayList<>();
        for (OFBundleAddMsg add : adds) {
            assertEquals(open.getBundleId(), add.getBundleId());
            assertEquals(Bundles.FLAGS, add.getFlags());
            assertEquals(add.getXid(), add.getData().getXid(), "the switch answers an add by its message's xid");
            outs.add(((OFFlowAdd) add.getData()).getActions().get(0) instanceof
                    org.projectfloodlight.openflow.protocol.action.OFActionOutput o ? o.getPort().getPortNumber() : -1);
        }
        assertEquals(List.of(2, 3, 1), outs, "in the order added");
        OFBundleCtrlMsg close = expectControl(OFBundleCtrlType.CLOSE_REQUEST);
        assertFalse(committed.isDone());
        reply(close, OFBundleCtrlType.CLOSE_REPLY);
        OFBundleCtrlMsg commit = expectControl(OFBundleCtrlType.COMMIT_REQUEST);
        assertEquals(open.getBundleId(), commit.getBundleId());
        assertFalse(committed.isDone(), "not before the switch answers");
        reply(commit, OFBundleCtrlType.COMMIT_REPLY);
        OFBundleCtrlMsg reply = committed.get(5, TimeUnit.SECONDS);
        assertEquals(OFBundleCtrlType.COMMIT_REPLY, reply.getBundleCtrlType());
        assertTrue(controller.pipeline.dispatched.stream().noneMatch(m -> m instanceof OFBundleCtrlMsg),
                "the answers are the bundle's, not the apps'");
    }

    @Test
    void bundleIdsAreUniqueOnAConnectionAndAnEndedBundleRefusesMore() throws Exception {
        connect(OFVersion.OF_15, Duration.ofSeconds(3));
        OFBundle a = sw.bundle();
        OFBundle b = sw.bundle();
        assertNotEquals(a.getId(), b.getId());
        b.add(circuit(1, 1)); // 1.5 carries the message in its own field
        OFBundleAddMsg add = fake.expect(OFBundleAddMsg.class);
        assertEquals(b.getId(), add.getBundleId());
        assertEquals(add.getXid(), add.getMessage().getXid());
        a.discard();
        OFBundleCtrlMsg discard = expectControl(OFBundleCtrlType.DISCARD_REQUEST);
        assertEquals(a.getId(), discard.getBundleId());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> a.add(circuit(1, 2)));
        assertTrue(e.getMessage().contains("discarded"), e.getMessage());
        assertThrows(IllegalStateException.class, a::commit);
    }

    @Test
    void aRefusalAtCommitFailsTheCommitNamingTheSwitchsErrorsAndTheMessage() throws Exception {
        connect(OFVersion.OF_14, Duration.ofSeconds(3));
        OFBundle day = sw.bundle().add(circuit(1, 2), circuit(2, 1));
        CompletableFuture<OFBundleCtrlMsg> committed = day.commit();
        reply(expectControl(OFBundleCtrlType.OPEN_REQUEST), OFBundleCtrlType.OPEN_REPLY);
        List<OFBundleAddMsg> adds = expectAdds(2);
        reply(expectControl(OFBundleCtrlType.CLOSE_REQUEST), OFBundleCtrlType.CLOSE_REPLY);
        OFBundleCtrlMsg commit = expectControl(OFBundleCtrlType.COMMIT_REQUEST);
        // As Open vSwitch does: the error of the message that failed (by its xid), then the commit's.
        fake.send(f.errorMsgs().buildFlowModFailedErrorMsg().setXid(adds.get(1).getXid())
                .setCode(OFFlowModFailedCode.OVERLAP).build());
        fake.send(f.errorMsgs().buildBundleFailedErrorMsg().setXid(commit.getXid())
                .setCode(OFBundleFailedCode.MSG_FAILED).build());
        ExecutionException e = assertThrows(ExecutionException.class, () -> committed.get(5, TimeUnit.SECONDS));
        OFBundleException refused = assertInstanceOf(OFBundleException.class, e.getCause());
        assertEquals(OFBundleFailedCode.MSG_FAILED, ((OFBundleFailedErrorMsg) refused.getError()).getCode());
        assertEquals(1, refused.getMessageErrors().size());
        assertEquals(day.getId(), refused.getBundleId());
        String text = refused.getMessage();
        assertTrue(text.contains("BUNDLE_FAILED/MSG_FAILED") && text.contains("FLOW_MOD_FAILED/OVERLAP for message 2"),
                text);
        assertTrue(controller.pipeline.dispatched.stream().noneMatch(m -> m instanceof OFErrorMsg),
                "the bundle's errors are reported through its commit, not dispatched");
    }

    @Test
    void aMessageRefusedAsItIsAddedMeansTheBundleIsDiscardedNotCommittedInPart() throws Exception {
        connect(OFVersion.OF_14, Duration.ofSeconds(3));
        OFBundle day = sw.bundle().add(circuit(1, 2), circuit(2, 99), circuit(3, 1));
        CompletableFuture<OFBundleCtrlMsg> committed = day.commit();
        reply(expectControl(OFBundleCtrlType.OPEN_REQUEST), OFBundleCtrlType.OPEN_REPLY);
        List<OFBundleAddMsg> adds = expectAdds(3);
        fake.send(f.errorMsgs().buildBadActionErrorMsg().setXid(adds.get(1).getXid())
                .setCode(OFBadActionCode.BAD_OUT_PORT).build());
        reply(expectControl(OFBundleCtrlType.CLOSE_REQUEST), OFBundleCtrlType.CLOSE_REPLY);
        OFBundleCtrlMsg discard = expectControl(OFBundleCtrlType.DISCARD_REQUEST);
        assertEquals(day.getId(), discard.getBundleId());
        ExecutionException e = assertThrows(ExecutionException.class, () -> committed.get(5, TimeUnit.SECONDS));
        OFBundleException refused = assertInstanceOf(OFBundleException.class, e.getCause());
        assertTrue(refused.getMessage().contains("not committed, discarded: BAD_ACTION/BAD_OUT_PORT for message 2"),
                refused.getMessage());
        assertTrue(fake.seen().stream().noneMatch(m -> m instanceof OFBundleCtrlMsg c
                && c.getBundleCtrlType() == OFBundleCtrlType.COMMIT_REQUEST), "never committed");
    }

    @Test
    void aBundleLeftOpenIsDiscardedAfterTheRequestTimeout() throws Exception {
        connect(OFVersion.OF_14, Duration.ofMillis(300));
        OFBundle forgotten = sw.bundle().add(circuit(1, 2));
        reply(expectControl(OFBundleCtrlType.OPEN_REQUEST), OFBundleCtrlType.OPEN_REPLY);
        OFBundleCtrlMsg discard = expectControl(OFBundleCtrlType.DISCARD_REQUEST);
        assertEquals(forgotten.getId(), discard.getBundleId());
        IllegalStateException e = assertThrows(IllegalStateException.class, forgotten::commit);
        assertTrue(e.getMessage().contains("without a commit"), e.getMessage());
        assertTrue(forgotten.discard().isDone(), "discarding a discarded bundle is done at once");
    }

    @Test
    void anUnansweredCommitTimesOutAndADisconnectFailsIt() throws Exception {
        connect(OFVersion.OF_14, Duration.ofMillis(500));
        CompletableFuture<OFBundleCtrlMsg> unanswered = sw.bundle().add(circuit(1, 2)).commit();
        reply(expectControl(OFBundleCtrlType.OPEN_REQUEST), OFBundleCtrlType.OPEN_REPLY);
        reply(expectControl(OFBundleCtrlType.CLOSE_REQUEST), OFBundleCtrlType.CLOSE_REPLY);
        expectControl(OFBundleCtrlType.COMMIT_REQUEST);
        ExecutionException timedOut = assertThrows(ExecutionException.class, () -> unanswered.get(5, TimeUnit.SECONDS));
        assertInstanceOf(TimeoutException.class, timedOut.getCause());

        CompletableFuture<OFBundleCtrlMsg> cut = sw.bundle().add(circuit(1, 2)).commit();
        expectControl(OFBundleCtrlType.CLOSE_REQUEST);
        fake.close();
        ExecutionException gone = assertThrows(ExecutionException.class, () -> cut.get(5, TimeUnit.SECONDS));
        assertInstanceOf(IOException.class, gone.getCause());
    }

    @Test
    void aSwitchBelowOneFourIsRefusedSayingWhichVersionItSpeaks() throws Exception {
        connect(OFVersion.OF_13, Duration.ofSeconds(3));
        assertFalse(sw.supportsBundles());
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, sw::bundle);
        assertTrue(e.getMessage().contains("negotiated OpenFlow 1.3") && e.getMessage().contains("1.4 or later"),
                e.getMessage());
    }

    @Test
    void openBundlesAreBounded() throws Exception {
        connect(OFVersion.OF_14, Duration.ofSeconds(3));
        List<OFBundle> open = new ArrayList<>();
        for (int i = 0; i < Bundles.MAX_OPEN_BUNDLES; i++) {
            open.add(sw.bundle());
        }
        assertThrows(java.util.concurrent.RejectedExecutionException.class, sw::bundle);
        assertEquals(1L, sw.getCounters().get("bundlesRefused"));
        var bound = ChannelBounds.bounds(controller.server.settings(), controller.registry.connections(),
                controller.server.counters()).stream().filter(b -> b.table().equals("openflow.openBundles"))
                .findFirst().orElseThrow();
        assertEquals(List.of((long) Bundles.MAX_OPEN_BUNDLES, (long) Bundles.MAX_OPEN_BUNDLES, 1L),
                List.of(bound.limit(), bound.size(), bound.refused()), "reported as a bound");
        open.get(0).discard();
        OFBundleCtrlMsg discard = expectControl(OFBundleCtrlType.DISCARD_REQUEST);
        reply(discard, OFBundleCtrlType.DISCARD_REPLY);
        ControllerFixture.await(() -> {
            try {
                sw.bundle();
                return true;
            } catch (java.util.concurrent.RejectedExecutionException full) {
                return false;
            }
        }, "room for a bundle once one is discarded");
    }
}
