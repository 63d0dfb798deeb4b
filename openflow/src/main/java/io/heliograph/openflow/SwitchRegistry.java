package io.heliograph.openflow;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
    /** The connection that holds each datapath: announced, or admitted and still in its handshake. */
    private final Map<DatapathId, SwitchConnection> claims = new ConcurrentHashMap<>();
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

    /** The announced connections (any thread; for the bounds report). */
    java.util.Collection<SwitchConnection> connections() {
        return active.values();
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

    /** A connection refused because another one of its datapath is connected; the registry logged why. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Whether a connection that has just said which datapath it is may go on with its handshake
     * (before anything is written to its switch or any initializer runs). A connection that goes on
     * holds its datapath's claim until it disconnects: the next connection claiming that datapath,
     * announced or still in its handshake, is handled by the policy {@code duplicateDatapath}.
     * Completes on the newcomer's loop: normally to go on, or with {@link Refused}.
     */
    CompletableFuture<Void> admit(SwitchConnection sw) {
        DatapathId id = sw.getId();
        DuplicateDatapath policy = sw.settings().duplicateDatapath();
        SwitchConnection old = claims.putIfAbsent(id, sw);
        if (old == null || old == sw) {
            return CompletableFuture.completedFuture(null);
        }
        if (!old.isConnected() || policy == DuplicateDatapath.REPLACE) {
            return takeOver(sw, old, null);
        }
        if (policy == DuplicateDatapath.REFUSE) {
            return CompletableFuture.failedFuture(refuse(sw, old, "it is connected"));
        }
        CompletableFuture<Void> admitted = new CompletableFuture<>();
        old.answersEcho().whenComplete((alive, e) -> sw.runOnLoop(() -> {
            if (Boolean.TRUE.equals(alive)) {
                admitted.completeExceptionally(refuse(sw, old, "it answered an ECHO"));
            } else {
                takeOver(sw, old, "did not answer an ECHO within " + sw.settings().echoTimeout().toMillis() + " ms")
                        .whenComplete((v, failure) -> {
                            if (failure != null) {
                                admitted.completeExceptionally(failure);
                            } else {
                                admitted.complete(null);
                            }
                        });
            }
        }));
        return admitted;
    }

    /** Moves the datapath's claim from {@code old} to {@code sw} (unless a third took it meanwhile: then admits anew). */
    private CompletableFuture<Void> takeOver(SwitchConnection sw, SwitchConnection old, String silent) {
        if (!claims.replace(sw.getId(), old, sw)) {
            return admit(sw);
        }
        sw.admittedOver(old);
        if (silent != null) {
            LOG.warn("{} claims the datapath of {}, which {}: the silent connection is replaced", sw, old.describe(),
                    silent);
            old.disconnect("silent, replaced by a new connection from " + sw.getRemoteAddress());
        }
        return CompletableFuture.completedFuture(null);
    }

    /** Counts the refusal; logs it the first time for this connected switch. */
    private static Refused refuse(SwitchConnection sw, SwitchConnection old, String why) {
        sw.channelCounters().duplicatesRefused.increment();
        String policy = sw.settings().duplicateDatapath().label();
        if (old.duplicateRefused()) {
            LOG.warn("a connection from {} claims datapath {}, connected from {}: refused, {} (duplicateDatapath={});"
                    + " later claims of this datapath while that connection lasts are counted"
                    + " (duplicatesRefused), not logged", sw.getRemoteAddress(), sw.getId(), old.getRemoteAddress(),
                    why, policy);
        }
        return new Refused("datapath " + sw.getId() + " is connected from " + old.getRemoteAddress() + " ("
                + why + "; duplicateDatapath=" + policy + ")");
    }

    /**
     * Makes the switch active, on its loop. An older connection with the same datapath id (the one
     * it was admitted over) is closed first and its removal announced before this one is added, so
     * listeners never see two switches with one id. A connection whose claim a later one took over
     * meanwhile (policy replace) is not announced.
     */
    void announce(SwitchConnection sw) {
        DatapathId id = sw.getId();
        if (claims.get(id) != sw) {
            LOG.info("{}: a newer connection of the same datapath took its place during the handshake", sw);
            sw.disconnect("replaced during its handshake");
            return;
        }
        SwitchConnection old = active.putIfAbsent(id, sw);
        if (old != null && old != sw) {
            LOG.info("{} replaces the older connection {} of the same datapath", sw, old.describe());
            sw.channelCounters().duplicatesReplaced.increment();
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
        if (sw.getId() == null) {
            return;
        }
        claims.remove(sw.getId(), sw);
        if (active.remove(sw.getId(), sw)) {
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
