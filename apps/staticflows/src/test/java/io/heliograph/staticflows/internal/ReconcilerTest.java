package io.heliograph.staticflows.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowDeleteStrict;
import org.projectfloodlight.openflow.protocol.OFFlowStatsRequest;
import org.projectfloodlight.openflow.protocol.OFGroupAdd;
import org.projectfloodlight.openflow.protocol.OFGroupDescStatsRequest;
import org.projectfloodlight.openflow.protocol.OFGroupType;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFStatsRequest;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadActionErrorMsg;
import org.projectfloodlight.openflow.protocol.OFBadActionCode;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.GroupEntry;
import io.heliograph.staticflows.GroupEntry.Bucket;
import io.heliograph.staticflows.MeterEntry;
import io.heliograph.staticflows.MeterEntry.Band;
import io.heliograph.staticflows.StaticEntry;

class ReconcilerTest {

    private static final DatapathId DPID = DatapathId.of(1);

    private static FlowEntry flow(String name, int tcpPort, int outPort) {
        return FlowEntry.builder(DPID, name).priority(100).match("eth_type", "0x0800").match("ip_proto", "6")
                .match("tcp_dst", String.valueOf(tcpPort)).apply(Action.output(outPort)).build();
    }

    /** A flow another app installed: same shape, its own cookie. */
    private static OFFlowAdd foreign(OFFactory f) {
        return f.buildFlowAdd().setCookie(U64.of(0x0042_0000_0000_0001L)).setPriority(1).setMatch(f.buildMatch().build())
                .setInstructions(List.of(f.instructions().applyActions(List.of(f.actions().output(OFPort.CONTROLLER, 0xffff)))))
                .build();
    }

    private static Reconciler.Report run(TableSwitch sw, List<StaticEntry> entries, OwnedIds owned) throws Exception {
        return new Reconciler(new Pusher(), true).reconcile(sw, entries, owned, Map.of(), () -> true).get(5, TimeUnit.SECONDS);
    }

    private static long count(List<OFMessage> sent, Class<?> type) {
        return sent.stream().filter(type::isInstance).count();
    }

    @Test
    void missingFlowsAreAddedStaleOnesRemovedAndOtherAppsFlowsUntouched() throws Exception {
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3);
        Translator t = new Translator(sw.getFactory());
        FlowEntry kept = flow("kept", 22, 1);
        FlowEntry stale = flow("stale", 23, 1);
        sw.preload(t.flowAdd(kept));
        sw.preload(t.flowAdd(stale));
        sw.preload(foreign(sw.getFactory()));
        FlowEntry missing = flow("missing", 80, 2);

        Reconciler.Report report = run(sw, List.of(kept, missing), new OwnedIds());

        List<OFMessage> sent = sw.take();
        assertEquals(1, count(sent, OFFlowAdd.class), "only the missing flow is added: " + sent);
        assertEquals(1, count(sent, OFFlowDeleteStrict.class), "only the stale static flow is removed: " + sent);
        assertEquals(3, sw.flows.size());
        assertTrue(sw.flows.containsValue(foreign(sw.getFactory())) || sw.flows.values().stream()
                .anyMatch(f -> f.getCookie().getValue() == 0x0042_0000_0000_0001L), "the other app's flow stays");
        assertTrue(sw.flows.values().stream().anyMatch(f -> t.flowAdd(missing).equalsIgnoreXid(f)));
        assertFalse(sw.flows.values().stream().anyMatch(f -> t.flowAdd(stale).equalsIgnoreXid(f)));
        assertEquals(1, report.added());
        assertEquals(1, report.removed());
        assertEquals(1, report.unchanged());
        assertEquals(EntryStatus.State.INSTALLED, report.outcomes().get("missing").state());
        assertEquals(EntryStatus.State.INSTALLED, report.outcomes().get("kept").state());
    }

    @Test
    void aFlowThatDiffersOnTheSwitchIsReplaced() throws Exception {
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3);
        Translator t = new Translator(sw.getFactory());
        sw.preload(t.flowAdd(flow("web", 80, 1)));
        FlowEntry now = flow("web", 80, 3);
        run(sw, List.of(now), new OwnedIds());
        assertEquals(1, sw.flows.size());
        assertTrue(t.flowAdd(now).equalsIgnoreXid(sw.flows.values().iterator().next()));
    }

    @Test
    void theFlowStatsRequestAsksOnlyForStaticCookies() throws Exception {
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3);
        run(sw, List.of(), new OwnedIds());
        var request = (org.projectfloodlight.openflow.protocol.OFFlowStatsRequest) sw.written().get(0);
        assertEquals(U64.of(0x5346L << 48), request.getCookie());
        assertEquals(U64.of(0xffffL << 48), request.getCookieMask());
        assertEquals(OFGroup.ANY, request.getOutGroup());
    }

    @Test
    void openFlow10FiltersByCookieItself() throws Exception {
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_10, 1, 1, 2, 3);
        OFFactory f = sw.getFactory();
        OFFlowAdd other = f.buildFlowAdd().setCookie(U64.of(7)).setPriority(5).setMatch(f.buildMatch().build())
                .setActions(List.of(f.actions().output(OFPort.of(1), 0))).build();
        sw.preload(other);
        sw.preload(new Translator(f).flowAdd(flow("old", 23, 1)));
        run(sw, List.of(flow("web", 80, 2)), new OwnedIds());
        assertEquals(2, sw.flows.size(), sw.flows.toString());
        assertTrue(sw.flows.values().stream().anyMatch(x -> x.getCookie().getValue() == 7), "not ours: untouched");
    }

    @Test
    void groupsAndMetersAreReconciledAndOnlyOwnedOnesRemoved() throws Exception {
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3);
        OFFactory f = sw.getFactory();
        Translator t = new Translator(f);
        // Group 9 belongs to someone else; group 8 and meter 4 were ours and are no longer defined.
        OFGroupAdd foreignGroup = f.buildGroupAdd().setGroup(OFGroup.of(9)).setGroupType(OFGroupType.ALL).setBuckets(List.of()).build();
        sw.write(foreignGroup);
        sw.write(t.groupAdd(new GroupEntry(DPID, "old", 8, GroupEntry.Type.ALL, List.of())));
        sw.write(t.meterAdd(new MeterEntry(DPID, "oldm", 4, Set.of(MeterEntry.Flag.PKTPS), List.of(Band.drop(5, 0)))));
        GroupEntry changed = new GroupEntry(DPID, "lb", 5, GroupEntry.Type.SELECT,
                List.of(Bucket.weighted(1, Action.output(1)), Bucket.weighted(1, Action.output(2))));
        sw.write(t.groupAdd(new GroupEntry(DPID, "lb", 5, GroupEntry.Type.SELECT, List.of(Bucket.weighted(1, Action.output(1))))));
        MeterEntry meter = new MeterEntry(DPID, "m", 3, Set.of(MeterEntry.Flag.KBPS), List.of(Band.drop(1000, 0)));
        GroupEntry chained = new GroupEntry(DPID, "chain", 6, GroupEntry.Type.INDIRECT, List.of(Bucket.of(new Action.Group(5))));
        FlowEntry metered = FlowEntry.builder(DPID, "metered").priority(9).meter(3L).apply(new Action.Group(6)).build();
        sw.take();

        OwnedIds owned = new OwnedIds(new TreeSet<>(Set.of(5L, 8L)), new TreeSet<>(Set.of(4L)));
        Reconciler.Report report = run(sw, List.of(metered, chained, meter, changed), owned);

        assertEquals(Set.of(5L, 6L, 9L), sw.groups.keySet());
        assertEquals(2, sw.groups.get(5L).getBuckets().size(), "the changed group was modified");
        assertEquals(Set.of(3L), sw.meters.keySet());
        assertEquals(1, sw.flows.size());
        assertEquals(new TreeSet<>(Set.of(5L, 6L)), report.owned().groups());
        assertEquals(new TreeSet<>(Set.of(3L)), report.owned().meters());
        // Meter and groups before the flow that uses them; group 5 before group 6, which forwards to it.
        List<String> order = sw.take().stream().filter(m -> !(m instanceof org.projectfloodlight.openflow.protocol.OFStatsRequest))
                .map(m -> m.getType().toString()).toList();
        assertEquals(List.of("METER_MOD", "GROUP_MOD", "GROUP_MOD", "FLOW_MOD", "GROUP_MOD", "METER_MOD"), order);
        assertTrue(report.outcomes().values().stream().allMatch(o -> o.state() == EntryStatus.State.INSTALLED),
                report.outcomes().toString());
    }

    @Test
    void anEntryTheSwitchSilentlyRefusedWhileInitializingIsReportedFailed() throws Exception {
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3);
        sw.errors = null; // the core does not dispatch ERRORs before a switch is announced
        sw.refuse = m -> m instanceof OFFlowAdd a && a.getPriority() == 100
                ? sw.getFactory().errorMsgs().buildBadActionErrorMsg().setCode(OFBadActionCode.BAD_OUT_PORT).build() : null;
        Reconciler.Report report = run(sw, List.of(flow("web", 80, 2)), new OwnedIds());
        Reconciler.Outcome o = report.outcomes().get("web");
        assertEquals(EntryStatus.State.FAILED, o.state());
        assertTrue(o.detail().contains("not on the switch after installation"), o.detail());
    }

    @Test
    void aVisibleErrorIsReportedWithTheSwitchsCode() throws Exception {
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3);
        Pusher pusher = new Pusher();
        sw.errors = pusher::onError;
        sw.refuse = m -> m instanceof OFFlowAdd
                ? sw.getFactory().errorMsgs().buildBadActionErrorMsg().setCode(OFBadActionCode.BAD_OUT_PORT).build() : null;
        Reconciler.Report report = new Reconciler(pusher, true).reconcile(sw, List.of(flow("web", 80, 2)),
                new OwnedIds(), Map.of(), () -> true).get(5, TimeUnit.SECONDS);
        assertEquals("flow web add refused by the switch: BAD_ACTION/BAD_OUT_PORT", report.outcomes().get("web").detail());
        assertTrue(OFBadActionErrorMsg.class.isInstance(sw.getFactory().errorMsgs().buildBadActionErrorMsg()
                .setCode(OFBadActionCode.BAD_OUT_PORT).build()));
    }

    @Test
    void aSwitchThatStopsAnsweringDoesNotHangReconciliation() throws Exception {
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3);
        sw.answerBarriers = false;
        Reconciler.Report report = run(sw, List.of(flow("web", 80, 2)), new OwnedIds());
        assertTrue(report.pushFailure().contains("did not answer"), report.pushFailure());
        assertFalse(report.reconciled(), "a push the switch did not confirm is tried again");
        Reconciler.Outcome web = report.outcomes().get("web");
        assertEquals(EntryStatus.State.UNVERIFIED, web.state());
        assertTrue(web.detail().startsWith("pushed, but the switch did not confirm it: "), web.detail());
    }

    @Test
    void aSwitchThatDoesNotAnswerItsReadsGetsEveryEntryPushedButNothingRemoved() throws Exception {
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3);
        Translator t = new Translator(sw.getFactory());
        FlowEntry stale = flow("stale", 23, 1);
        sw.preload(t.flowAdd(stale));
        sw.statistics = TableSwitch.Statistics.TIMEOUT;
        GroupEntry g = new GroupEntry(DPID, "g", 5, GroupEntry.Type.ALL, List.of(Bucket.of(Action.output(1))));

        Reconciler.Report report = run(sw, List.of(flow("web", 80, 2), g), new OwnedIds());

        assertFalse(report.reconciled());
        assertEquals(List.of("the switch did not answer the flow statistics request within 10000 ms",
                "the switch did not answer the group description request within 10000 ms"), report.unreadable());
        assertTrue(sw.flows.values().stream().anyMatch(f -> t.flowAdd(flow("web", 80, 2)).equalsIgnoreXid(f)), "pushed");
        assertTrue(sw.groups.containsKey(5L), "pushed");
        assertTrue(sw.flows.values().stream().anyMatch(f -> t.flowAdd(stale).equalsIgnoreXid(f)),
                "a stale flow is only known by reading: it stays");
        for (String name : List.of("web", "g")) {
            Reconciler.Outcome o = report.outcomes().get(name);
            assertEquals(EntryStatus.State.UNVERIFIED, o.state(), name);
            assertTrue(o.detail().startsWith("pushed without being verified: the switch did not answer the flow statistics "
                    + "request within 10000 ms"), o.detail());
        }
        assertEquals(0, count(sw.written(), OFFlowDeleteStrict.class));
    }

    @Test
    void whatWasPushedBeforeIsNotPushedAgainWhileTheSwitchCannotBeRead() throws Exception {
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3);
        sw.statistics = TableSwitch.Statistics.TIMEOUT;
        FlowEntry web = flow("web", 80, 2);
        FlowEntry changed = flow("ssh", 22, 3);

        Reconciler.Report report = new Reconciler(new Pusher(), true).reconcile(sw, List.of(web, changed), new OwnedIds(),
                Map.of("web", web, "ssh", flow("ssh", 22, 1)), () -> true).get(5, TimeUnit.SECONDS);

        List<OFMessage> sent = sw.take();
        assertEquals(1, count(sent, OFFlowAdd.class), "only the entry whose definition changed: " + sent);
        assertEquals(Set.of("ssh"), report.outcomes().keySet(), "the other has no news");
        assertEquals(1, report.added());
    }

    @Test
    void nothingIsWrittenOnceTheCallerStopsWriting() throws Exception {
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3);
        sw.statistics = TableSwitch.Statistics.TIMEOUT;
        Reconciler.Report report = new Reconciler(new Pusher(), true).reconcile(sw, List.of(flow("web", 80, 2)),
                new OwnedIds(), Map.of(), () -> false).get(5, TimeUnit.SECONDS);
        assertTrue(report.stopped());
        assertEquals(0, count(sw.written(), OFFlowAdd.class), sw.written().toString());
    }

    @Test
    void groupsAndMetersAreReadOnlyWhenEntriesUseThemOrTheAppOwnsSome() throws Exception {
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3);
        run(sw, List.of(flow("web", 80, 2)), new OwnedIds());
        List<OFMessage> reads = sw.take().stream().filter(OFStatsRequest.class::isInstance).toList();
        assertEquals(2, reads.size(), "flows before and after: " + reads);
        assertTrue(reads.stream().allMatch(OFFlowStatsRequest.class::isInstance), "nothing else: " + reads);

        run(sw, List.of(flow("web", 80, 2)), new OwnedIds(new TreeSet<>(Set.of(7L)), new TreeSet<>()));
        assertTrue(sw.take().stream().anyMatch(OFGroupDescStatsRequest.class::isInstance), "an owned group is read");
    }

    @Test
    void aReadTheSwitchRefusesIsReportedWithItsError() throws Exception {
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3);
        sw.statistics = TableSwitch.Statistics.REFUSE;
        Reconciler.Report report = run(sw, List.of(flow("web", 80, 2)), new OwnedIds());
        assertEquals(List.of("the switch refused the flow statistics request: BAD_REQUEST/BAD_STAT"), report.unreadable());
    }

    @Test
    void withRemoveStaleOffNothingIsRemoved() throws Exception {
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3);
        sw.preload(new Translator(sw.getFactory()).flowAdd(flow("stale", 23, 1)));
        new Reconciler(new Pusher(), false).reconcile(sw, List.of(), new OwnedIds(new TreeSet<>(Set.of(1L)),
                new TreeSet<>()), Map.of(), () -> true).get(5, TimeUnit.SECONDS);
        assertEquals(1, sw.flows.size());
        assertEquals(0, count(sw.written(), OFFlowDeleteStrict.class));
    }
}
