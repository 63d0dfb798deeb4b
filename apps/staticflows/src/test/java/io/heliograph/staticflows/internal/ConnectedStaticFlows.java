package io.heliograph.staticflows.internal;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.staticflows.StaticFlowService;

/**
 * The real static flow service over an entry file in {@code dir}, with switch 1 connected (OpenFlow
 * 1.3, 4 tables, ports 1 to 4) and applying what it is sent, for tests outside this package (the
 * REST resources) that must see exactly the service's validation and outcomes.
 */
public final class ConnectedStaticFlows {

    public static final DatapathId SWITCH = DatapathId.of(1);

    private final TableSwitch sw = new TableSwitch(1, OFVersion.OF_13, 4, 1, 2, 3, 4);
    private final StaticFlows service;

    public ConnectedStaticFlows(Path dir) {
        service = new StaticFlows(new EntryFile(dir, Clock.systemUTC()), Map.of(SWITCH, sw)::get, true, Runnable::run);
        service.load();
        sw.errors = service::onError;
    }

    public StaticFlowService service() {
        return service;
    }

    /** What is on the switch: flows, groups and meters, as "flows/groups/meters" counts. */
    public String onSwitch() {
        return sw.flows.size() + "/" + sw.groups.size() + "/" + sw.meters.size();
    }
}
