package io.heliograph.stats.internal;

import java.util.LinkedHashMap;
import java.util.Map;

import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.SwitchService;

/** The connected switches, as the test sets them. */
final class FakeSwitchService implements SwitchService {

    private final Map<DatapathId, OFSwitch> switches = new LinkedHashMap<>();

    FakeSwitchService add(OFSwitch sw) {
        switches.put(sw.getId(), sw);
        return this;
    }

    void remove(DatapathId dpid) {
        switches.remove(dpid);
    }

    @Override
    public Map<DatapathId, OFSwitch> getSwitches() {
        return Map.copyOf(switches);
    }

    @Override
    public OFSwitch getSwitch(DatapathId id) {
        return switches.get(id);
    }
}
