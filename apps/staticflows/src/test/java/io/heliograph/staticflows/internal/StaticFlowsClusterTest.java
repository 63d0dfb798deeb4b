package io.heliograph.staticflows.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFBadMatchCode;
import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowDeleteStrict;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.core.Role;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SharedStore.StoreListener;
import io.heliograph.core.cluster.SharedStore.Versioned;
import io.heliograph.core.cluster.SharedStore.Watch;
import io.heliograph.core.testing.ForwardingSharedStore;
import io.heliograph.core.testing.InMemorySharedStore;
import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.GroupEntry;
import io.heliograph.staticflows.Result;

/**
 * Two controller instances sharing one cluster store, each with its own connection to switch 1
 * (a TableSwitch per connection: what an instance sends reaches only its own). The instance whose
 * connection is MASTER writes; the SLAVE writes nothing.
 */
class StaticFlowsClusterTest {

    private static final DatapathId DPID = DatapathId.of(1);

    private final InMemorySharedStore storeOfC1 = new InMemorySharedStore();
    private final InMemorySharedStore storeOfC2 = storeOfC1.anotherInstance("c2");
    private final TableSwitch viaC1 = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3);
    private final TableSwitch viaC2 = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3);
    private final StaticFlows c1 = instance(storeOfC1, viaC1);
    private final StaticFlows c2 = instance(storeOfC2, viaC2);

    private static StaticFlows instance(SharedStore store, TableSwitch sw) {
        StaticFlows flows = new StaticFlows(new EntryStore(store), Map.of(DPID, sw)::get, ReconcileSettings.DEFAULTS,
                Runnable::run, new ManualRetryTimer(), line -> { });
        flows.start(null);
        sw.errors = flows::onError;
        return flows;
    }

    private static Result await(CompletionStage<Result> stage) throws Exception {
        return stage.toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    private static FlowEntry flow(String name, int tcpPort, int outPort) {
        return FlowEntry.builder(DPID, name).priority(100).match("eth_type", "0x0800").match("ip_proto", "6")
                .match("tcp_dst", String.valueOf(tcpPort)).apply(Action.output(outPort)).build();
    }

    private static GroupEntry group(long id) {
        return new GroupEntry(DPID, "g" + id, id, GroupEntry.Type.ALL, List.of(GroupEntry.Bucket.of(Action.output(2))));
    }

    private static List<StaticEntryName> names(StaticFlows flows) {
        return flows.list(DPID).stream().map(s -> new StaticEntryName(s.entry().name(), s.state())).toList();
    }

    private record StaticEntryName(String name, EntryStatus.State state) {
    }

    private static void roles(TableSwitch master, TableSwitch slave) {
        master.requestRole(Role.MASTER, 1);
        slave.requestRole(Role.SLAVE, 1);
    }

    @Test
    void aWriteThroughTheSlaveIsInTheMastersViewAtOnceAndOnlyTheMasterPushesIt() throws Exception {
        roles(viaC1, viaC2);

        Result r = await(c2.add(flow("web", 80, 2)));

        assertEquals(Result.Outcome.STORED, r.outcome(), "c2 is SLAVE: the store has it, the master installs it");
        assertEquals(List.of(new StaticEntryName("web", EntryStatus.State.INSTALLED)), names(c1));
        assertEquals(1, viaC1.flows.size());
        assertEquals(List.of(), viaC2.written(), "a SLAVE never writes");
        EntryStatus onSlave = c2.list(DPID).get(0);
        assertEquals(EntryStatus.State.PENDING, onSlave.state());
        assertTrue(onSlave.detail().contains("SLAVE"), onSlave.detail());

        assertEquals(Result.Outcome.DELETED, await(c2.delete(DPID, "web")).outcome());
        assertEquals(List.of(), c1.list(DPID));
        assertEquals(Map.of(), viaC1.flows, "the master removed it from the switch");
        assertEquals(List.of(), viaC2.written());
    }

    @Test
    void aListingShowsWhatAnotherInstanceWroteBeforeThisInstancesWatchBringsIt() throws Exception {
        LaggingWatches lagging = new LaggingWatches(storeOfC1.anotherInstance("c3"));
        TableSwitch viaC3 = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3);
        StaticFlows c3 = instance(lagging, viaC3);
        roles(viaC1, viaC2);
        viaC3.requestRole(Role.SLAVE, 1);

        await(c1.add(flow("web", 80, 2)));

        assertEquals(List.of(new StaticEntryName("web", EntryStatus.State.PENDING)), names(c3),
                "the store has it: the listing shows it, not yet applied by c3");
        await(c1.delete(DPID, "web"));
        assertEquals(List.of(), names(c3), "deleted in the store, though c3's watch still has not told it");

        lagging.release();
        assertEquals(List.of(), names(c3));
    }

    /** A store whose watches hold every change until released: an instance whose watch lags behind. */
    private static final class LaggingWatches extends ForwardingSharedStore {
        private final List<Runnable> held = new ArrayList<>();

        LaggingWatches(SharedStore store) {
            super(store);
        }

        @Override
        public Watch watch(String prefix, StoreListener listener) {
            return super.watch(prefix, new StoreListener() {
                @Override
                public void changed(Versioned value) {
                    held.add(() -> listener.changed(value));
                }

                @Override
                public void removed(String key) {
                    held.add(() -> listener.removed(key));
                }
            });
        }

        void release() {
            List<Runnable> now = List.copyOf(held);
            held.clear();
            now.forEach(Runnable::run);
        }
    }

    @Test
    void aWriteThroughTheMasterIsConfirmedByTheSwitchAndSeenByTheSlave() throws Exception {
        roles(viaC1, viaC2);

        assertEquals(Result.Outcome.INSTALLED, await(c1.add(group(5))).outcome());
        assertEquals(Result.Outcome.INSTALLED, await(c1.add(flow("web", 80, 2))).outcome());

        assertEquals(List.of("g5", "web"), c2.list(DPID).stream().map(s -> s.entry().name()).toList());
        assertEquals(Set.of(5L), viaC1.groups.keySet());
        assertEquals(List.of(), viaC2.written());
        assertEquals(Set.of(5L), EntryStore.decodeOwned(storeOfC2.get(EntryStore.installedKey(DPID)).orElseThrow().value())
                .groups(), "the group the master installed is recorded for the next master");
    }

    @Test
    void aNewMasterReconcilesAddingWhatIsMissingAndTouchingNothingElse() throws Exception {
        roles(viaC1, viaC2);
        FlowEntry kept = flow("kept", 22, 1);
        FlowEntry missing = flow("missing", 80, 2);
        await(c1.add(kept));
        await(c1.add(missing));
        // What c2's connection finds on the switch: "kept" as installed, "missing" lost with a switch
        // restart, another app's flow, and a static flow no entry defines any more.
        OFFactory f = viaC2.getFactory();
        Translator t = new Translator(f);
        viaC2.preload(t.flowAdd(kept));
        OFFlowAdd foreign = f.buildFlowAdd().setCookie(U64.of(0x0042_0000_0000_0001L)).setPriority(1)
                .setMatch(f.buildMatch().build())
                .setInstructions(List.of(f.instructions().applyActions(List.of(f.actions().output(OFPort.CONTROLLER, 0xffff)))))
                .build();
        viaC2.preload(foreign);
        viaC2.preload(t.flowAdd(flow("stale", 23, 1)));

        viaC1.requestRole(Role.SLAVE, 2);
        c1.stoppedWriting(DPID);
        viaC2.requestRole(Role.MASTER, 2);
        c2.reconcile(viaC2).toCompletableFuture().get(5, TimeUnit.SECONDS);

        List<OFMessage> sent = viaC2.take();
        assertEquals(1, sent.stream().filter(OFFlowAdd.class::isInstance).count(), "only the missing entry is added: " + sent);
        assertEquals(1, sent.stream().filter(OFFlowDeleteStrict.class::isInstance).count(), "only the stale one goes: " + sent);
        assertEquals(3, viaC2.flows.size(), viaC2.flows.toString());
        assertTrue(viaC2.flows.containsKey(FlowShape.of(foreign).key()), "the other app's flow stays");
        assertTrue(viaC2.flows.values().stream().anyMatch(x -> t.flowAdd(missing).equalsIgnoreXid(x)));
        assertEquals(List.of(new StaticEntryName("kept", EntryStatus.State.INSTALLED),
                new StaticEntryName("missing", EntryStatus.State.INSTALLED)), names(c2));

        viaC1.take();
        assertEquals(Result.Outcome.STORED, await(c1.add(flow("later", 81, 2))).outcome(), "the old master only stores now");
        assertEquals(List.of(), viaC1.written(), "the old master writes nothing any more");
        assertTrue(viaC2.flows.values().stream().anyMatch(x -> t.flowAdd(flow("later", 81, 2)).equalsIgnoreXid(x)));
    }

    @Test
    void aMasterDeposedWhilePushingLeavesTheEntryInTheStore() throws Exception {
        roles(viaC1, viaC2);
        viaC1.refuse = m -> m instanceof OFFlowAdd
                ? viaC1.getFactory().errorMsgs().buildBadRequestErrorMsg().setCode(OFBadRequestCode.IS_SLAVE).build() : null;

        Result r = await(c1.add(flow("web", 80, 2)));

        assertEquals(Result.Outcome.STORED, r.outcome(), r.message());
        assertTrue(storeOfC2.get(EntryStore.key(DPID, "web")).isPresent(), "not taken back: the switch refused the sender, not the entry");
        assertEquals(List.of(new StaticEntryName("web", EntryStatus.State.PENDING)), names(c1));
    }

    @Test
    void anEntryTheSwitchRefusesIsTakenBackOutOfTheStoreForEveryone() throws Exception {
        roles(viaC1, viaC2);
        viaC1.refuse = m -> m instanceof OFFlowAdd
                ? viaC1.getFactory().errorMsgs().buildBadMatchErrorMsg().setCode(OFBadMatchCode.BAD_PREREQ).build() : null;

        assertEquals(Result.Outcome.STORED, await(c2.add(flow("web", 80, 2))).outcome(), "c2 only stores");

        assertEquals(List.of(), c1.list(DPID));
        assertEquals(List.of(), c2.list(DPID), "the master took it back out of the store, and c2's view followed");
    }

    @Test
    void aSlaveDoesNotReconcile() throws Exception {
        roles(viaC1, viaC2);
        await(c1.add(flow("web", 80, 2)));

        c2.reconcile(viaC2).toCompletableFuture().get(5, TimeUnit.SECONDS);

        assertEquals(List.of(), viaC2.written(), "not even a statistics request");
    }

    @Test
    void withoutTheStoreAWriteIsUnavailableAndChangesNothing() throws Exception {
        roles(viaC1, viaC2);
        await(c1.add(flow("web", 80, 2)));
        viaC1.take();
        storeOfC1.setAvailable(false);

        Result add = await(c1.add(flow("other", 81, 2)));
        Result replace = await(c1.add(flow("web", 80, 3)));
        Result delete = await(c1.delete(DPID, "web"));

        for (Result r : List.of(add, replace, delete)) {
            assertEquals(Result.Outcome.UNAVAILABLE, r.outcome(), r.message());
            assertTrue(r.message().contains("shared store cannot be reached") && r.message().contains("no ZooKeeper session")
                    && r.message().contains("nothing was changed"), r.message());
        }
        assertEquals(List.of(), viaC1.written(), "nothing sent to the switch");
        assertEquals(List.of(flow("web", 80, 2)), c1.list(DPID).stream().map(EntryStatus::entry).toList());
        assertEquals(List.of(flow("web", 80, 2)), c2.list(DPID).stream().map(EntryStatus::entry).toList());
        assertEquals(Set.of("00:00:00:00:00:00:00:01@web"), storeOfC2.list(EntryStore.ENTRIES).keySet());
    }

    @Test
    void aWriteWhileTheMasterHadNoSessionReachesTheSwitchWhenItIsBack() throws Exception {
        roles(viaC1, viaC2);
        storeOfC1.setAvailable(false);

        assertEquals(Result.Outcome.STORED, await(c2.add(flow("web", 80, 2))).outcome());
        assertEquals(Map.of(), viaC1.flows, "c1 has not heard of it");

        storeOfC1.setAvailable(true);
        assertEquals(1, viaC1.flows.size(), "its watch caught up and it pushed the entry");
        assertEquals(List.of(new StaticEntryName("web", EntryStatus.State.INSTALLED)), names(c1));
    }
}
