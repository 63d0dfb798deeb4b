package io.heliograph.openflow;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import org.projectfloodlight.openflow.types.DatapathId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.Role;
import io.heliograph.core.SwitchInitializer;
import io.heliograph.core.SwitchListener;
import io.heliograph.core.SwitchService;

/**
 * The active switches by datapath id, and the whiteboard of switch listeners and initializers.
 * Listeners are called on the switch's own loop; one that throws is logged and the others still run.
 */
public final class SwitchRegistry implements SwitchService {

    private static final Logger LOG = LoggerFactory.getLogger(SwitchRegistry.class);

    private final Map<DatapathId, SwitchConnection> active = new ConcurrentHashMap<>();
    private final Map<DatapathId, OFSwitch> view = Collections.unmodifiableMap(active);
    private final List<SwitchListener> listeners = new CopyOnWriteArrayList<>();
    private final List<SwitchInitializer> initializers = new CopyOnWriteArrayList<>();

    /** Whether a cluster decides roles (a MastershipService runs); then no connect clears a flow table. */
    private volatile boolean clustered;

    public boolean isClustered() {
        return clustered;
    }

    public void setClustered(boolean clustered) {
        this.clustered = clustered;
    }

    @Override
    public Map<DatapathId, OFSwitch> getSwitches() {
        return view;
    }

    @Override
    public OFSwitch getSwitch(DatapathId id) {
        return active.get(id);
    }

    public void addListener(SwitchListener l) {
        listeners.add(l);
    }

    public void removeListener(SwitchListener l) {
        listeners.remove(l);
    }

    public void addInitializer(SwitchInitializer i) {
        initializers.add(i);
    }

    public void removeInitializer(SwitchInitializer i) {
        initializers.remove(i);
    }

    /** The initializers to run for a new switch, in name order. */
    List<SwitchInitializer> initializersInOrder() {
        List<SwitchInitializer> ordered = new ArrayList<>(initializers);
        ordered.sort(Comparator.comparing(SwitchInitializer::getName));
        return ordered;
    }

    /**
     * Makes the switch active, on its loop. An older connection with the same datapath id is
     * closed first and its removal announced before this one is added, so listeners never see
     * two switches with one id.
     */
    void announce(SwitchConnection sw) {
        DatapathId id = sw.getId();
        SwitchConnection old = active.putIfAbsent(id, sw);
        if (old != null && old != sw) {
            LOG.info("{} replaces the older connection {} of the same datapath", sw, old.describe());
            old.disconnect("replaced by a new connection from " + sw.getRemoteAddress());
            old.removed().whenComplete((v, e) -> sw.runOnLoop(() -> announce(sw)));
            return;
        }
        if (!sw.isConnected()) {
            active.remove(id, sw);
            return;
        }
        sw.activated();
        LOG.info("{} connected: OpenFlow {}, {} ports", sw, OpenFlowVersions.name(sw.getVersion()),
                sw.getPorts().size());
        notify(sw, l -> l.switchAdded(sw), "switchAdded");
        Role role = sw.getRole();
        if (role != Role.EQUAL) { // set by an initializer, before listeners could hear of it
            notify(sw, l -> l.roleChanged(sw, role), "roleChanged");
        }
    }

    /** Called on the switch's loop when its connection is gone. */
    void removed(SwitchConnection sw) {
        if (sw.getId() != null && active.remove(sw.getId(), sw)) {
            notify(sw, l -> l.switchRemoved(sw), "switchRemoved");
        }
    }

    void notify(SwitchConnection sw, Consumer<SwitchListener> call, String what) {
        for (SwitchListener l : listeners) {
            try {
                call.accept(l);
            } catch (RuntimeException e) {
                LOG.warn("switch listener {} failed in {} for {}", l.getClass().getName(), what, sw, e);
            }
        }
    }
}
