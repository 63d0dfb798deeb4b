package io.heliograph.staticflows.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.annotation.Annotation;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
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
import io.heliograph.core.testing.FakeSwitchService;
import io.heliograph.staticflows.Action;
import io.heliograph.staticflows.EntryStatus;
import io.heliograph.staticflows.FlowEntry;
import io.heliograph.staticflows.Result;

class StaticFlowsComponentTest {

    @TempDir
    Path dataDir;

    private final FakeSwitchService switchService = new FakeSwitchService();

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
        };
    }

    private static FlowEntry web() {
        return FlowEntry.builder(DatapathId.of(1), "web").priority(100).match("in_port", "1").apply(Action.output(2)).build();
    }

    @Test
    void entriesLiveInTheDataDirectoryAndComeBackAfterARestart() throws Exception {
        StaticFlowsComponent component = new StaticFlowsComponent(switchService, context(), config(""));
        assertEquals(Result.Outcome.STORED, component.add(web()).toCompletableFuture().get(5, TimeUnit.SECONDS).outcome());
        assertTrue(Files.exists(dataDir.resolve("staticflows/entries.json")));

        StaticFlowsComponent restarted = new StaticFlowsComponent(switchService, context(), config(""));
        assertEquals(1, restarted.list().size());
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2);
        restarted.initialize(sw).toCompletableFuture().get(5, TimeUnit.SECONDS);
        assertEquals(1, sw.flows.size(), "installed before the switch is announced");
    }

    @Test
    void anEntryWaitingForAPortIsInstalledWhenThePortAppears() throws Exception {
        StaticFlowsComponent component = new StaticFlowsComponent(switchService, context(), config(""));
        FlowEntry toPort3 = FlowEntry.builder(DatapathId.of(1), "p3").priority(10).apply(Action.output(3)).build();
        component.add(toPort3).toCompletableFuture().get(5, TimeUnit.SECONDS);
        TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2);
        component.initialize(sw).toCompletableFuture().get(5, TimeUnit.SECONDS);
        assertEquals(EntryStatus.State.UNSUPPORTED, component.list().get(0).state());
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
    void aConfiguredDirectoryWins() throws Exception {
        Path elsewhere = dataDir.resolve("elsewhere");
        StaticFlowsComponent component = new StaticFlowsComponent(switchService, context(), config(elsewhere.toString()));
        component.add(web()).toCompletableFuture().get(5, TimeUnit.SECONDS);
        assertTrue(Files.exists(elsewhere.resolve("entries.json")));
    }

    @Test
    void itsErrorsStopInTheErrorPipelineOthersGoOn() throws Exception {
        StaticFlowsComponent component = new StaticFlowsComponent(switchService, context(), config(""));
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
}
