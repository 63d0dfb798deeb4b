package io.heliograph.core.testing;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.SwitchService;

/** The connected switches, as the test adds and removes them; thread-safe, since apps read it from their own threads. */
public final class FakeSwitchService implements SwitchService {

    private final Map<DatapathId, OFSwitch> switches = new ConcurrentHashMap<>();

    /** Connects a switch, replacing one with its datapath id (a reconnection). */
    public FakeSwitchService add(OFSwitch sw) {
        switches.put(sw.getId(), sw);
        return this;
    }

    /** The switch with this id leaves. */
    public void remove(DatapathId dpid) {
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
