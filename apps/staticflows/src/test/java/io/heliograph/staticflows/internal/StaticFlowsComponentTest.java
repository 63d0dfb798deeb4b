package io.heliograph.staticflows.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.annotation.Annotation;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.BundleContext;
import org.projectfloodlight.openflow.protocol.OFBadActionCode;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.MessageListener.Command;
import io.heliograph.core.MetricSource;
import io.heliograph.core.Role;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.testing.FakeSwitchService;
import io.heliograph.core.testing.InMemorySharedStore;
import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.Result;

class StaticFlowsComponentTest {

    @TempDir
    Path dataDir;

    private final FakeSwitchService switchService = new FakeSwitchService();
    private final InMemorySharedStore store = new InMemorySharedStore();

    private BundleContext context() {
        return (BundleContext) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {BundleContext.class},
                (proxy, method, args) -> method.getName().equals("getProperty")
                        && StaticFlowsComponent.DATA_DIR_PROPERTY.equals(args[0]) ? dataDir.toString() : null);
    }

    private static StaticFlowsConfig config(String directory) {
        return new StaticFlowsConfig() {
            @Override
            public Class<? extends Annotation> annotationType() {
                return StaticFlowsConfig.class;
            }

            @Override
            public String directory() {
                return directory;
            }

            @Override
            public boolean removeStale() {
                return true;
            }

            @Override
            public long reconcileRetryFirstMs() {
                return 1_000;
            }

            @Override
            public long reconcileRetryMaxMs() {
                return 300_000;
            }

            @Override
            public int reconcileNotPossibleAfter() {
                return 3;
            }
        };
    }

    /** Activated as SCR does it, then handed the switch service through its dynamic reference. */
    private StaticFlowsComponent activated(SharedStore shared, StaticFlowsConfig config) {
        StaticFlowsComponent component = new StaticFlowsComponent(shared, context(), config);
        component.bindSwitchService(switchService);
        return component;
    }

    /** Waits for a condition the component's own thread brings about. */
    private static void await(String what, java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.onSpinWait();
        }
    }

    private static FlowEntry web() {
        return FlowEntry.builder(DatapathId.of(1), "web").priority(100).match("in_port", "1").apply(Action.output(2)).build();
    }

    @Test
    void entriesLiveInTheClusterStoreAndComeBackAfterARestart() throws Exception {
        StaticFlowsComponent component = activated(store, config(""));
        assertEquals(Result.Outcome.STORED, component.add(web()).toCompletableFuture().get(5, TimeUnit.SECONDS).outcome());
        assertTrue(store.get(EntryStore.key(DatapathId.of(1), "web")).isPresent());
        assertFalse(Files.exists(dataDir.resolve("staticflows/entries.json")), "no file: the store is the one truth");
        component.deactivate();

        StaticFlowsComponent restarted = activated(store.anotherInstance("restarted"), config(""));
        assertEquals(1, restarted.list().size());
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2);
        restarted.switchAdded(sw);
        await("the entry on the announced switch", () -> sw.flows.size() == 1);
        await("the entry listed INSTALLED", () -> restarted.list().get(0).state() == EntryStatus.State.INSTALLED);
    }

    @Test
    void aLegacyEntryFileInTheDataDirectoryIsImported() throws Exception {
        Path legacy = dataDir.resolve("staticflows/entries.json");
        Files.createDirectories(legacy.getParent());
        Files.writeString(legacy, LegacyImportTest.document(web()));

        StaticFlowsComponent component = activated(store, config(""));

        assertEquals(List.of(web()), component.list().stream().map(EntryStatus::entry).toList());
        assertTrue(store.get(EntryStore.key(DatapathId.of(1), "web")).isPresent());
        assertFalse(Files.exists(legacy), "moved aside once imported");
    }

    @Test
    void withoutTheStoreAtActivationWritesAreUnavailableUntilItComes() throws Exception {
        store.setAvailable(false);
        StaticFlowsComponent component = activated(store, config(""));
        Result r = component.add(web()).toCompletableFuture().get(5, TimeUnit.SECONDS);
        assertEquals(Result.Outcome.UNAVAILABLE, r.outcome());
        assertTrue(r.message().contains("not loaded from the cluster's shared store"), r.message());

        store.setAvailable(true);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!component.flows().isStarted() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(Result.Outcome.STORED, component.add(web()).toCompletableFuture().get(5, TimeUnit.SECONDS).outcome());
        component.deactivate();
    }

    @Test
    void anEntryWaitingForAPortIsInstalledWhenThePortAppears() throws Exception {
        StaticFlowsComponent component = activated(store, config(""));
        FlowEntry toPort3 = FlowEntry.builder(DatapathId.of(1), "p3").priority(10).apply(Action.output(3)).build();
        component.add(toPort3).toCompletableFuture().get(5, TimeUnit.SECONDS);
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2);
        component.switchAdded(sw);
        await("the entry marked UNSUPPORTED", () -> component.list().get(0).state() == EntryStatus.State.UNSUPPORTED);
        assertTrue(component.list().get(0).detail().contains("port 3 does not exist"), component.list().get(0).detail());
        assertEquals(0, sw.flows.size());

        TableSwitch grown = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3);
        component.portChanged(grown, grown.getPort(org.projectfloodlight.openflow.types.OFPort.of(3)),
                io.heliograph.core.SwitchListener.PortChange.ADDED);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (component.list().get(0).state() != EntryStatus.State.INSTALLED && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(EntryStatus.State.INSTALLED, component.list().get(0).state());
        assertEquals(1, grown.flows.size());
    }

    @Test
    void aConfiguredDirectoryIsWhereTheLegacyFileIsLookedFor() throws Exception {
        Path elsewhere = dataDir.resolve("elsewhere");
        Files.createDirectories(elsewhere);
        Files.writeString(elsewhere.resolve("entries.json"), LegacyImportTest.document(web()));
        StaticFlowsComponent component = activated(store, config(elsewhere.toString()));
        assertEquals(1, component.list().size());
    }

    @Test
    void becomingMasterReconcilesTheSwitchAndBecomingSlaveStopsWriting() throws Exception {
        StaticFlowsComponent component = activated(store, config(""));
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2);
        sw.requestRole(Role.SLAVE, 1);
        switchService.add(sw);
        component.switchAdded(sw);
        assertEquals(Result.Outcome.STORED, component.add(web()).toCompletableFuture().get(5, TimeUnit.SECONDS).outcome());
        assertEquals(List.of(), sw.written(), "a SLAVE writes nothing");

        sw.requestRole(Role.MASTER, 2);
        component.roleChanged(sw, Role.MASTER);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (component.list().get(0).state() != EntryStatus.State.INSTALLED && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(EntryStatus.State.INSTALLED, component.list().get(0).state());
        assertEquals(1, sw.flows.size(), "reconciled on becoming master");

        sw.requestRole(Role.SLAVE, 3);
        component.roleChanged(sw, Role.SLAVE);
        sw.take();
        component.delete(DatapathId.of(1), "web").toCompletableFuture().get(5, TimeUnit.SECONDS);
        assertEquals(List.of(), sw.written(), "demoted: the next master removes it");
    }

    @Test
    void itsErrorsStopInTheErrorPipelineOthersGoOn() throws Exception {
        StaticFlowsComponent component = activated(store, config(""));
        assertEquals("staticflows", component.getName());
        assertEquals(Set.of(OFType.ERROR), component.getTypes());
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2);
        switchService.add(sw);
        OFErrorMsg[] seen = new OFErrorMsg[1];
        Command[] commands = new Command[1];
        sw.errors = (s, e) -> {
            seen[0] = e;
            commands[0] = component.receive(s, e);
        };
        sw.refuse = m -> m instanceof OFFlowAdd
                ? sw.getFactory().errorMsgs().buildBadActionErrorMsg().setCode(OFBadActionCode.BAD_OUT_PORT).build() : null;
        Result r = component.add(web()).toCompletableFuture().get(5, TimeUnit.SECONDS);
        assertEquals(Result.Outcome.FAILED, r.outcome());
        assertEquals(Command.STOP, commands[0]);

        OFErrorMsg unrelated = seen[0].createBuilder().setXid(12345).build();
        assertEquals(Command.CONTINUE, component.receive(sw, unrelated));
    }

    @Test
    void aSwitchThatDoesNotAnswerIsServedAndItsReconciliationCountedNotAwaited() throws Exception {
        StaticFlowsComponent component = activated(store, config(""));
        assertEquals(Result.Outcome.STORED, component.add(web()).toCompletableFuture().get(5, TimeUnit.SECONDS).outcome());
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2);
        sw.statistics = TableSwitch.Statistics.TIMEOUT;
        switchService.add(sw);

        component.switchAdded(sw);

        await("the entry pushed unverified", () -> component.list().get(0).state() == EntryStatus.State.UNVERIFIED);
        assertEquals(1, sw.flows.size());
        Map<String, Double> samples = new HashMap<>();
        for (MetricSource.Sample sample : component.samples()) {
            samples.put(sample.name() + sample.labels(), sample.value());
        }
        assertEquals(0.0, samples.get("heliograph_staticflows_switches{reconciliation=OK}"));
        assertEquals(1.0, samples.get("heliograph_staticflows_switches{reconciliation=RETRYING}")
                + samples.get("heliograph_staticflows_switches{reconciliation=NOT_POSSIBLE}"), samples.toString());
        assertTrue(samples.get("heliograph_staticflows_reconciliation_attempts_total{result=failed}") >= 1, samples.toString());
        assertEquals(0.0, samples.get("heliograph_staticflows_reconciliation_attempts_total{result=reconciled}"));
        component.deactivate();
    }
}
