package io.heliograph.staticflows.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFBadMatchCode;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowDeleteStrict;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.testing.InMemorySharedStore;
import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.GroupEntry;
import io.heliograph.staticflows.GroupEntry.Bucket;
import io.heliograph.staticflows.MeterEntry;
import io.heliograph.staticflows.MeterEntry.Band;
import io.heliograph.staticflows.Result;
import io.heliograph.staticflows.StaticEntry;

class StaticFlowsTest {

    private static final DatapathId DPID = DatapathId.of(1);

    private final InMemorySharedStore store = new InMemorySharedStore();
    private final Map<DatapathId, OFSwitch> connected = new HashMap<>();
    private TableSwitch sw;
    private StaticFlows flows;

    @BeforeEach
    void start() {
        sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3);
        flows = newInstance();
        sw.errors = flows::onError;
    }

    private StaticFlows newInstance() {
        StaticFlows f = new StaticFlows(new EntryStore(store), connected::get, ReconcileSettings.DEFAULTS, Runnable::run,
                new ManualRetryTimer(), line -> { });
        f.start(null);
        return f;
    }

    /** The entry as the cluster's store holds it, as text; null when it holds none. */
    private String stored(String name) {
        return store.get(EntryStore.key(DPID, name)).map(v -> new String(v.value(), UTF_8)).orElse(null);
    }

    private static Result await(java.util.concurrent.CompletionStage<Result> stage) throws Exception {
        return stage.toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    private static FlowEntry web() {
        return FlowEntry.builder(DPID, "web").priority(100).match("eth_type", "0x0800").match("ip_proto", "6")
                .match("tcp_dst", "80").apply(Action.output(2)).build();
    }

    private EntryStatus.State state(String name) {
        return flows.list(DPID).stream().filter(s -> s.entry().name().equals(name)).findFirst().orElseThrow().state();
    }

    @Test
    void anEntryForAConnectedSwitchIsInstalledAndConfirmed() throws Exception {
        connected.put(DPID, sw);
        Result r = await(flows.add(web()));
        assertEquals(Result.Outcome.INSTALLED, r.outcome(), r.message());
        assertEquals(1, sw.flows.size());
        OFFlowAdd add = sw.flows.values().iterator().next();
        assertTrue(new Translator(sw.getFactory()).flowAdd(web()).equalsIgnoreXid(add));
        assertEquals(EntryStatus.State.INSTALLED, state("web"));
        assertTrue(stored("web").contains("\"tcp_dst\": \"80\""), "in the cluster's store: " + stored("web"));
    }

    @Test
    void anEntryLackingPrerequisitesIsRefusedAtOnceAndNothingIsSent() {
        connected.put(DPID, sw);
        FlowEntry bad = FlowEntry.builder(DPID, "bad").match("tcp_dst", "80").apply(Action.output(2)).build();
        var stage = flows.add(bad).toCompletableFuture();
        assertTrue(stage.isDone(), "validation is synchronous: nothing to wait for");
        Result r = stage.join();
        assertEquals(Result.Outcome.REFUSED, r.outcome());
        assertTrue(r.message().contains("tcp_dst needs eth_type=0x0800 (IPv4) or eth_type=0x86dd (IPv6)"), r.message());
        assertEquals(List.of(), sw.written());
        assertEquals(List.of(), flows.list(DPID));
        assertEquals(Map.of(), store.list(EntryStore.ENTRIES), "nothing stored");
    }

    @Test
    void theSwitchsErrorIsReportedAndThePreviousDefinitionStays() throws Exception {
        connected.put(DPID, sw);
        assertEquals(Result.Outcome.INSTALLED, await(flows.add(web())).outcome());
        sw.refuse = m -> m instanceof OFFlowAdd
                ? sw.getFactory().errorMsgs().buildBadMatchErrorMsg().setCode(OFBadMatchCode.BAD_FIELD).build() : null;
        FlowEntry changed = web().toBuilder().priority(200).build();

        Result r = await(flows.add(changed));
        assertEquals(Result.Outcome.FAILED, r.outcome());
        assertEquals(List.of("flow web refused by the switch: BAD_MATCH/BAD_FIELD"), r.problems());
        assertEquals(web(), flows.list(DPID).get(0).entry(), "the store keeps the definition the switch has");
        assertEquals(100, sw.flows.values().iterator().next().getPriority(), "the old flow was not removed");
        assertFalse(sw.written().stream().anyMatch(m -> m instanceof OFFlowDeleteStrict));
        assertTrue(stored("web").contains("\"priority\": 100"), "the store has the previous definition back: " + stored("web"));
    }

    @Test
    void aNewEntryRefusedByTheSwitchIsNotKept() throws Exception {
        connected.put(DPID, sw);
        sw.refuse = m -> m instanceof OFFlowAdd
                ? sw.getFactory().errorMsgs().buildBadMatchErrorMsg().setCode(OFBadMatchCode.BAD_PREREQ).build() : null;
        Result r = await(flows.add(web()));
        assertEquals(Result.Outcome.FAILED, r.outcome());
        assertTrue(r.message().contains("BAD_PREREQ"), r.message());
        assertEquals(List.of(), flows.list(DPID));
        assertNull(stored("web"), "taken back out of the store");
    }

    @Test
    void anUnansweredBarrierNeverHangsTheCaller() throws Exception {
        connected.put(DPID, sw);
        sw.answerBarriers = false;
        Result r = await(flows.add(web()));
        assertEquals(Result.Outcome.STORED, r.outcome());
        assertTrue(r.message().contains("did not confirm") && r.message().contains("unanswered"), r.message());
        assertEquals(1, flows.list(DPID).size(), "kept: it is valid, and reconciled when the switch reconnects");
    }

    @Test
    void aSwitchThatIsNotConnectedGetsItsEntryStored() throws Exception {
        Result r = await(flows.add(web()));
        assertEquals(Result.Outcome.STORED, r.outcome());
        assertEquals(EntryStatus.State.PENDING, state("web"));
        assertEquals(List.of(), sw.written());
    }

    @Test
    void replacingAFlowWithAnotherMatchRemovesTheOldOneAfterTheNewIsIn() throws Exception {
        connected.put(DPID, sw);
        await(flows.add(web()));
        sw.take();
        FlowEntry moved = web().toBuilder().match("tcp_dst", "8080").build();
        assertEquals(Result.Outcome.INSTALLED, await(flows.add(moved)).outcome());
        List<OFMessage> sent = sw.take();
        assertTrue(sent.get(0) instanceof OFFlowAdd && sent.get(1) instanceof OFFlowDeleteStrict, sent.toString());
        assertEquals(1, sw.flows.size());
        assertEquals(List.of(moved), flows.list(DPID).stream().map(EntryStatus::entry).toList());
    }

    @Test
    void deleteRemovesFromSwitchAndStore() throws Exception {
        connected.put(DPID, sw);
        await(flows.add(web()));
        Result r = await(flows.delete(DPID, "web"));
        assertEquals(Result.Outcome.DELETED, r.outcome(), r.message());
        assertTrue(sw.flows.isEmpty());
        assertEquals(List.of(), flows.list(DPID));
        assertEquals(Result.Outcome.NOT_FOUND, await(flows.delete(DPID, "web")).outcome());
    }

    private static GroupEntry group(long id) {
        return new GroupEntry(DPID, "g" + id, id, GroupEntry.Type.ALL, List.of(Bucket.of(Action.output(1)), Bucket.of(Action.output(2))));
    }

    @Test
    void groupsAndMetersAreInstalledWhetherOrNotTheSwitchAlreadyHasThem() throws Exception {
        connected.put(DPID, sw);
        MeterEntry meter = new MeterEntry(DPID, "m", 3, Set.of(MeterEntry.Flag.KBPS), List.of(Band.drop(1000, 0)));
        assertEquals(Result.Outcome.INSTALLED, await(flows.add(meter)).outcome());
        assertEquals(Result.Outcome.INSTALLED, await(flows.add(group(5))).outcome());
        // Again, changed: ADD fails with GROUP_EXISTS (expected), MODIFY updates.
        GroupEntry changed = new GroupEntry(DPID, "g5", 5, GroupEntry.Type.ALL, List.of(Bucket.of(Action.output(3))));
        Result r = await(flows.add(changed));
        assertEquals(Result.Outcome.INSTALLED, r.outcome(), r.message());
        assertEquals(1, sw.groups.get(5L).getBuckets().size());
        assertEquals(Set.of(3L), sw.meters.keySet());
    }

    @Test
    void aGroupInUseCannotBeDeletedAndAFlowCannotUseAnUndefinedGroup() throws Exception {
        connected.put(DPID, sw);
        FlowEntry viaGroup = FlowEntry.builder(DPID, "via").priority(10).apply(new Action.Group(5)).build();
        Result refused = await(flows.add(viaGroup));
        assertEquals(Result.Outcome.REFUSED, refused.outcome());
        assertTrue(refused.message().contains("group 5 is not defined"), refused.message());

        await(flows.add(group(5)));
        assertEquals(Result.Outcome.INSTALLED, await(flows.add(viaGroup)).outcome());
        Result inUse = await(flows.delete(DPID, "g5"));
        assertEquals(Result.Outcome.REFUSED, inUse.outcome());
        assertEquals(List.of("flow 'via' uses group 5; change or delete it first"), inUse.problems());
        assertTrue(sw.groups.containsKey(5L));
    }

    @Test
    void groupIdsAreUniquePerSwitch() throws Exception {
        await(flows.add(group(5)));
        GroupEntry twin = new GroupEntry(DPID, "twin", 5, GroupEntry.Type.ALL, List.of());
        Result r = await(flows.add(twin));
        assertEquals(List.of("group_id 5 is already defined by group 'g5' on this switch"), r.problems());
    }

    @Test
    void entriesOutliveTheInstanceAndAreInstalledWhenTheSwitchConnects() throws Exception {
        await(flows.add(web()));
        await(flows.add(group(5)));
        flows.stop();
        StaticFlows restarted = new StaticFlows(new EntryStore(store.anotherInstance("restarted")), connected::get,
                ReconcileSettings.DEFAULTS, Runnable::run, new ManualRetryTimer(), line -> { });
        restarted.start(null);
        assertEquals(2, restarted.list(DPID).size());

        restarted.reconcile(sw).toCompletableFuture().get(5, TimeUnit.SECONDS);
        assertEquals(1, sw.flows.size());
        assertEquals(Set.of(5L), sw.groups.keySet());
        assertTrue(restarted.list(DPID).stream().allMatch(s -> s.state() == EntryStatus.State.INSTALLED),
                restarted.list(DPID).toString());
    }

    @Test
    void entriesTheSwitchVersionCannotCarryAreMarkedUnsupported() throws Exception {
        await(flows.add(new MeterEntry(DPID, "m", 3, Set.of(MeterEntry.Flag.KBPS), List.of(Band.drop(1000, 0)))));
        await(flows.add(web()));
        TableSwitch old = new TableSwitch(1, OFVersion.OF_10, 1, 1, 2, 3);
        flows.reconcile(old).toCompletableFuture().get(5, TimeUnit.SECONDS);
        EntryStatus meter = flows.list(DPID).get(0);
        assertEquals(EntryStatus.State.UNSUPPORTED, meter.state());
        assertTrue(meter.detail().contains("meters: requires OpenFlow 1.3"), meter.detail());
        assertEquals(EntryStatus.State.INSTALLED, state("web"));
        assertEquals(1, old.flows.size());
    }

    @Test
    void theShellFormatShowsStateAndDetail() throws Exception {
        connected.put(DPID, sw);
        await(flows.add(web()));
        String out = StaticFlowsCommands.format(flows.list());
        assertTrue(out.startsWith("00:00:00:00:00:00:00:01\n  INSTALLED  flow web table=0 priority=100 eth_type=0x0800"), out);
    }

    @Test
    void theCompactSyntaxBuildsEveryKind() {
        StaticEntry f = StaticFlowsCommands.CompactSyntax.parse(DPID, "web",
                List.of("priority=100", "eth_type=0x0800", "ip_proto=6", "tcp_dst=80", "actions=output=2"));
        assertEquals(web(), f);
        StaticEntry g = StaticFlowsCommands.CompactSyntax.parse(DPID, "lb", List.of("entry_type=group", "group_id=1",
                "group_type=select", "bucket=weight=1;output=1", "bucket=weight=2;output=2"));
        assertEquals(new GroupEntry(DPID, "lb", 1, GroupEntry.Type.SELECT,
                List.of(Bucket.weighted(1, Action.output(1)), Bucket.weighted(2, Action.output(2)))), g);
        StaticEntry m = StaticFlowsCommands.CompactSyntax.parse(DPID, "m", List.of("entry_type=meter", "meter_id=3",
                "meter_flags=kbps,burst", "band=drop;rate=1000;burst_size=10"));
        assertEquals(new MeterEntry(DPID, "m", 3, Set.of(MeterEntry.Flag.KBPS, MeterEntry.Flag.BURST),
                List.of(Band.drop(1000, 10))), m);
    }
}
