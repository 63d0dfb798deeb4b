package io.heliograph.staticflows.internal;

import java.time.Duration;
import java.util.Map;

import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.testing.InMemorySharedStore;
import io.heliograph.staticflows.StaticFlowService;

/**
 * The real static flow service over an in-memory cluster store, with switch 1 connected (OpenFlow
 * 1.3, 4 tables, ports 1 to 4, no roles) and applying what it is sent, for tests outside this
 * package (the REST resources) that must see exactly the service's validation and outcomes.
 */
public final class ConnectedStaticFlows {

    public static final DatapathId SWITCH = DatapathId.of(1);

    private final TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3, 4);
    private final InMemorySharedStore store = new InMemorySharedStore();
    private final ManualRetryTimer timer = new ManualRetryTimer();
    private final StaticFlows service;

    public ConnectedStaticFlows() {
        service = new StaticFlows(new EntryStore(store), Map.of(SWITCH, sw)::get, ReconcileSettings.DEFAULTS, Runnable::run,
                timer, line -> { });
        service.start(null);
        sw.errors = service::onError;
    }

    public StaticFlowService service() {
        return service;
    }

    /** The cluster's store, which a test can make unavailable. */
    public InMemorySharedStore store() {
        return store;
    }

    /**
     * Reconciles switch 1 as when it is announced, the switch answering its reads or never (the core
     * gives up after 10 s); the retries run as {@link #advance} moves the time.
     */
    public void reconcile(boolean answering) {
        sw.statistics = answering ? TableSwitch.Statistics.ANSWER : TableSwitch.Statistics.TIMEOUT;
        service.reconcile(sw);
    }

    /** Moves the time, running the retries that fall due. */
    public void advance(Duration by) {
        timer.advance(by);
    }

    /** What is on the switch: flows, groups and meters, as "flows/groups/meters" counts. */
    public String onSwitch() {
        return sw.flows.size() + "/" + sw.groups.size() + "/" + sw.meters.size();
    }
}
