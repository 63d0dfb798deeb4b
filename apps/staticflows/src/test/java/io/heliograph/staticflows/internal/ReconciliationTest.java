package io.heliograph.staticflows.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowDeleteStrict;
import org.projectfloodlight.openflow.protocol.OFFlowMod;
import org.projectfloodlight.openflow.protocol.OFFlowStatsRequest;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.Role;
import io.heliograph.core.testing.InMemorySharedStore;
import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.Reconciliation;
import io.heliograph.staticflows.Result;

/**
 * Reconciliation against switches that do not answer their reads: the entries are pushed anyway and
 * listed UNVERIFIED, the attempt is retried with a doubling, capped backoff, the switch's
 * reconciliation becomes NOT_POSSIBLE (logged once) and becomes OK when the switch answers. Time is
 * a manual timer: no sleeping.
 */
class ReconciliationTest {

    private static final DatapathId DPID = DatapathId.of(1);
    /** 1 s, doubling, capped at 16 s; NOT_POSSIBLE at the third failure in a row. */
    private static final ReconcileSettings SETTINGS = new ReconcileSettings(true, 1_000, 16_000, 3);

    private final InMemorySharedStore store = new InMemorySharedStore();
    private final Map<DatapathId, OFSwitch> connected = new HashMap<>();
    private final ManualRetryTimer timer = new ManualRetryTimer();
    private final List<String> notices = new ArrayList<>();
    private final TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3);
    private final StaticFlows flows = new StaticFlows(new EntryStore(store), connected::get, SETTINGS, Runnable::run,
            timer, notices::add);

    @BeforeEach
    void start() throws Exception {
        flows.start(null);
        sw.errors = flows::onError;
        assertEquals(Result.Outcome.STORED, flows.add(web()).toCompletableFuture().get(5, TimeUnit.SECONDS).outcome());
        // a static flow no entry defines any more, left from an earlier run
        sw.preload(new Translator(sw.getFactory()).flowAdd(stale()));
    }

    private static FlowEntry web() {
        return FlowEntry.builder(DPID, "web").priority(100).match("eth_type", "0x0800").match("ip_proto", "6")
                .match("tcp_dst", "80").apply(Action.output(2)).build();
    }

    private static FlowEntry stale() {
        return FlowEntry.builder(DPID, "stale").priority(90).match("in_port", "3").apply(Action.output(1)).build();
    }

    private boolean onSwitch(FlowEntry e) {
        OFFlowAdd add = new Translator(sw.getFactory()).flowAdd(e);
        return sw.flows.values().stream().anyMatch(add::equalsIgnoreXid);
    }

    private EntryStatus web(StaticFlows f) {
        return f.list(DPID).get(0);
    }

    private Reconciliation reconciliation() {
        return flows.reconciliation(DPID).orElseThrow();
    }

    /** A switch that never answers: connected and reconciled, attempt after attempt, until NOT_POSSIBLE. */
    private void silentUntilNotPossible() {
        untilNotPossible(TableSwitch.Statistics.TIMEOUT);
    }

    private void untilNotPossible(TableSwitch.Statistics answers) {
        sw.statistics = answers;
        connected.put(DPID, sw);
        flows.reconcile(sw);
        timer.runNext();
        timer.runNext();
        assertEquals(Reconciliation.State.NOT_POSSIBLE, reconciliation().state());
    }

    @Test
    void aSilentSwitchGetsItsEntriesPushedAndIsReportedNotPossibleAfterTheRetries() {
        sw.statistics = TableSwitch.Statistics.TIMEOUT;
        connected.put(DPID, sw);

        flows.reconcile(sw);

        assertTrue(onSwitch(web()), "pushed without waiting for a read: adds are idempotent");
        assertTrue(onSwitch(stale()), "a stale flow stays until a read tells it is there");
        EntryStatus status = web(flows);
        assertEquals(EntryStatus.State.UNVERIFIED, status.state());
        assertEquals("pushed without being verified: the switch did not answer the flow statistics request within 10000 ms",
                status.detail());
        Reconciliation first = reconciliation();
        assertEquals(Reconciliation.State.RETRYING, first.state());
        assertEquals(1, first.attempts());
        assertEquals(1, first.failedInARow());
        assertEquals(ManualRetryTimer.START, first.lastAttempt());
        assertEquals(ManualRetryTimer.START.plusSeconds(1), first.nextAttempt());
        assertEquals("the switch did not answer the flow statistics request within 10000 ms", first.reason());
        sw.take();

        assertEquals(Duration.ofSeconds(1), timer.runNext());
        assertEquals(Reconciliation.State.RETRYING, reconciliation().state());
        List<OFMessage> retried = sw.take();
        assertEquals(1, retried.size(), "a retry sends its read, and nothing more: " + retried);
        assertTrue(retried.get(0) instanceof OFFlowStatsRequest, retried.toString());

        assertEquals(Duration.ofSeconds(2), timer.runNext());
        Reconciliation third = reconciliation();
        assertEquals(Reconciliation.State.NOT_POSSIBLE, third.state());
        assertEquals(3, third.attempts());
        assertEquals(3, third.failedInARow());
        assertEquals("the switch did not answer the flow statistics request within 10000 ms", third.reason());
        assertEquals(third.lastAttempt().plusSeconds(4), third.nextAttempt());
        assertEquals(EntryStatus.State.UNVERIFIED, web(flows).state());
        assertEquals(1, notices.size(), notices.toString());
        assertTrue(notices.get(0).startsWith("Static entries on 00:00:00:00:00:00:00:01: reconciliation not possible after "
                + "3 attempts: the switch did not answer the flow statistics request within 10000 ms."), notices.get(0));
    }

    @Test
    void theBackoffDoublesUpToItsCapAndTheSwitchIsNeverAskedFasterNorLoggedAgain() {
        silentUntilNotPossible();
        sw.take();
        List<Duration> waits = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            waits.add(timer.runNext());
        }
        assertEquals(List.of(Duration.ofSeconds(4), Duration.ofSeconds(8), Duration.ofSeconds(16), Duration.ofSeconds(16),
                Duration.ofSeconds(16), Duration.ofSeconds(16)), waits);
        assertEquals(9, reconciliation().attempts());
        assertEquals(1, timer.scheduledCount(), "one retry at a time");
        assertEquals(1, notices.size(), "logged once per switch, not per retry: " + notices);
        assertEquals(0, sw.written().stream().filter(OFFlowMod.class::isInstance).count(), "retries push nothing again");

        TableSwitch other = new TableSwitch(2, OFVersion.OF_13, 4, 1, 2, 3);
        other.statistics = TableSwitch.Statistics.TIMEOUT;
        flows.reconcile(other);
        for (int i = 0; i < 4; i++) {
            timer.runNext();
        }
        assertEquals(2, notices.size(), "one line for each switch: " + notices);
        assertTrue(notices.get(1).startsWith("Static entries on 00:00:00:00:00:00:00:02: reconciliation not possible"),
                notices.get(1));
    }

    @Test
    void aSwitchThatStartsAnsweringIsReconciledAndBecomesOk() {
        silentUntilNotPossible();

        sw.statistics = TableSwitch.Statistics.ANSWER;
        timer.runNext();

        Reconciliation r = reconciliation();
        assertEquals(Reconciliation.State.OK, r.state());
        assertEquals("", r.reason());
        assertEquals(0, r.failedInARow());
        assertEquals(4, r.attempts());
        assertNull(r.nextAttempt(), "nothing more to do");
        assertEquals(0, timer.scheduledCount());
        assertEquals(EntryStatus.State.INSTALLED, web(flows).state(), "verified by the read");
        assertTrue(onSwitch(web()));
        assertTrue(!onSwitch(stale()), "the stale flow goes once the switch can be read");
        assertEquals(1, sw.written().stream().filter(OFFlowDeleteStrict.class::isInstance).count());
    }

    @Test
    void aSwitchThatRefusesTheReadIsReportedWithItsError() {
        untilNotPossible(TableSwitch.Statistics.REFUSE);
        assertEquals("the switch refused the flow statistics request: BAD_REQUEST/BAD_STAT", reconciliation().reason());
    }

    @Test
    void anEntryAddedWhileReconciliationIsNotPossibleIsInstalledAtOnce() throws Exception {
        silentUntilNotPossible();
        FlowEntry ssh = FlowEntry.builder(DPID, "ssh").priority(100).match("eth_type", "0x0800").match("ip_proto", "6")
                .match("tcp_dst", "22").apply(Action.output(3)).build();

        Result r = flows.add(ssh).toCompletableFuture().get(5, TimeUnit.SECONDS);

        assertEquals(Result.Outcome.INSTALLED, r.outcome(), "confirmed by the switch's barrier, as on any switch");
        assertTrue(onSwitch(ssh));
    }

    @Test
    void aSlaveNeverWritesEvenWhenDemotedDuringAnAttempt() {
        sw.statistics = TableSwitch.Statistics.HOLD;
        connected.put(DPID, sw);
        sw.requestRole(Role.MASTER, 1);
        flows.reconcile(sw);
        assertEquals(1, sw.held.size(), "the attempt waits for its read");

        sw.requestRole(Role.SLAVE, 2);
        flows.stoppedWriting(DPID);
        sw.take();
        sw.held.forEach(f -> f.completeExceptionally(TableSwitch.unanswered(sw.getFactory().barrierRequest())));

        assertEquals(List.of(), sw.written(), "demoted before its read ended: the attempt writes nothing");
        assertEquals(0, timer.scheduledCount(), "and nothing is tried again");
        assertEquals(Reconciliation.State.SLAVE, reconciliation().state());
        assertEquals(EntryStatus.State.PENDING, web(flows).state());
        assertTrue(web(flows).detail().contains("SLAVE"), web(flows).detail());
        flows.reconcile(sw);
        assertEquals(List.of(), sw.written(), "a SLAVE does not even read");
    }

    @Test
    void aSlaveStopsRetryingAtOnce() {
        silentUntilNotPossible();
        sw.take();
        sw.requestRole(Role.SLAVE, 2);
        flows.stoppedWriting(DPID);

        assertEquals(0, timer.scheduledCount());
        timer.advance(Duration.ofMinutes(10));
        assertEquals(List.of(), sw.written());
        assertEquals(List.of(), flows.reconciliations(), "only switches this instance writes to are listed");
    }

    @Test
    void aReconnectedSwitchStartsAfresh() {
        silentUntilNotPossible();
        flows.stoppedWriting(DPID); // switchRemoved
        TableSwitch again = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3);
        connected.put(DPID, again);

        flows.reconcile(again);

        Reconciliation r = reconciliation();
        assertEquals(Reconciliation.State.OK, r.state());
        assertEquals(1, r.attempts());
        assertEquals(EntryStatus.State.INSTALLED, web(flows).state());
        assertEquals(0, timer.scheduledCount(), "the old connection's retry went with it");
    }

    @Test
    void aCallDuringAnAttemptAsksForOneMoreAfterIt() {
        sw.statistics = TableSwitch.Statistics.HOLD;
        connected.put(DPID, sw);
        flows.reconcile(sw);
        CompletableFuture<Void> second = flows.reconcile(sw).toCompletableFuture();
        assertEquals(1, sw.held.size(), "no second read while the first runs");

        sw.statistics = TableSwitch.Statistics.ANSWER;
        sw.held.get(0).completeExceptionally(TableSwitch.unanswered(sw.getFactory().barrierRequest()));

        assertTrue(second.isDone());
        assertEquals(Reconciliation.State.OK, reconciliation().state());
        assertEquals(2, reconciliation().attempts());
        assertEquals(0, timer.scheduledCount());
    }

    @Test
    void stoppingTheAppCancelsItsRetries() {
        silentUntilNotPossible();
        flows.stop();
        assertEquals(0, timer.scheduledCount());
    }
}
