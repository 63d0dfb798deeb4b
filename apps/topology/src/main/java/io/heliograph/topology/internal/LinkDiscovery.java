package io.heliograph.topology.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.OFOxmList;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.SwitchListener.PortChange;
import io.heliograph.core.SwitchPort;
import io.heliograph.topology.Link;
import io.heliograph.topology.TopologyEvent;
import io.heliograph.topology.TopologyEvent.Type;

/**
 * The state of link discovery: the switches, the links LLDP has confirmed and when, and the probes
 * that confirm them. Every change publishes a new {@link TopologyGraph} and then hands the change's
 * events, each carrying that snapshot, to the publisher.
 *
 * <p>Not thread-safe, on purpose: every method runs on the topology's one thread (the component's
 * executor), which is also where events are delivered, so they come out in the order the changes
 * were made. Only {@link #topology()} may be read from any thread.
 *
 * <p>A snapshot costs time in proportion to the whole topology, so the links that probes discover
 * are published together: the first new link asks for a commit on the topology thread, behind the
 * probes already waiting there, and that commit publishes every link found meanwhile. When a
 * thousand-switch fabric answers its first LLDP round, that is a few snapshots instead of one per
 * link (which made convergence quadratic in the number of links). Other changes commit at once.
 *
 * <p>Events: LINK_ADDED and LINK_REMOVED for a directed link; LINK_UPDATED for a link whose reverse
 * appeared or disappeared (it became bidirectional, or stopped being so). A refresh of a known
 * link changes nothing and publishes nothing.
 */
public final class LinkDiscovery {

    private static final Logger LOG = LoggerFactory.getLogger(LinkDiscovery.class);

    private final LldpProbeCodec codec;
    private final LongSupplier clockMs;
    private final Consumer<List<TopologyEvent>> publisher;
    private final Executor topologyThread;

    private final Map<DatapathId, OFSwitch> switches = new HashMap<>();
    private final Map<Link, LinkTimes> links = new HashMap<>();
    private final List<Change> pending = new ArrayList<>();
    private TopologySettings settings;
    private long version;
    private long probesSent;
    private boolean commitQueued;
    private volatile TopologyGraph current = TopologyGraph.EMPTY;

    /**
     * @param topologyThread runs a task on the topology thread after the tasks already queued there
     *                      (a commit of the links found meanwhile)
     */
    public LinkDiscovery(LldpProbeCodec codec, TopologySettings settings, LongSupplier clockMs,
            Consumer<List<TopologyEvent>> publisher, Executor topologyThread) {
        this.codec = codec;
        this.settings = settings;
        this.clockMs = clockMs;
        this.publisher = publisher;
        this.topologyThread = topologyThread;
    }

    /** The current snapshot; any thread. */
    public TopologyGraph topology() {
        return current;
    }

    public TopologySettings settings() {
        return settings;
    }

    /** New settings apply from the next probe and sweep; links already known keep their times. */
    public void configure(TopologySettings next) {
        settings = next;
    }

    public long probesSent() {
        return probesSent;
    }

    public void switchAdded(OFSwitch sw) {
        OFSwitch old = switches.put(sw.getId(), sw);
        if (old != sw) {
            if (old != null) {
                // The core announces the old connection's removal first; if that was missed, its links
                // belong to a connection that is gone.
                removeLinksWhere(link -> link.src().dpid().equals(sw.getId()) || link.dst().dpid().equals(sw.getId()));
            } else {
                pending.add(new Change(Type.SWITCH_ADDED, null, sw.getId()));
            }
            commit();
        }
        probeSwitch(sw);
    }

    public void switchRemoved(OFSwitch sw) {
        if (switches.get(sw.getId()) != sw) {
            return; // an older connection of a switch that has already reconnected
        }
        switches.remove(sw.getId());
        removeLinksWhere(link -> link.src().dpid().equals(sw.getId()) || link.dst().dpid().equals(sw.getId()));
        pending.add(new Change(Type.SWITCH_REMOVED, null, sw.getId()));
        commit();
    }

    public void portChanged(OFSwitch sw, OFPortDesc port, PortChange change) {
        if (switches.get(sw.getId()) != sw) {
            return;
        }
        if (change == PortChange.DELETED || !SwitchPorts.isUp(port)) {
            SwitchPort gone = SwitchPort.of(sw.getId(), port.getPortNo());
            removeLinksWhere(link -> link.src().equals(gone) || link.dst().equals(gone));
            commit();
        } else if (SwitchPorts.isProbeable(port)) {
            write(sw, List.of(probe(sw, port)));
        }
    }

    /**
     * A verified probe from {@code probe.source()} arrived at {@code inPort} of {@code receiver}.
     * Both ends must be known switches with the ports up: a probe still in flight when its port went
     * down must not bring the link back.
     */
    public void probeReceived(OFSwitch receiver, OFPort inPort, LldpProbe probe) {
        if (switches.get(receiver.getId()) != receiver) {
            LOG.debug("Probe from {} at {}/{}: the receiver is not (yet) a known switch", probe.source(),
                    receiver.getId(), inPort);
            return;
        }
        OFSwitch sender = switches.get(probe.dpid());
        if (sender == null) {
            LOG.debug("Probe from {} at {}/{}: the sender is not connected", probe.source(), receiver.getId(), inPort);
            return;
        }
        SwitchPort src = probe.source();
        SwitchPort dst = SwitchPort.of(receiver.getId(), inPort);
        if (src.equals(dst) || !SwitchPorts.isProbeable(sender.getPort(src.port()))
                || !SwitchPorts.isProbeable(receiver.getPort(inPort))) {
            LOG.debug("Probe from {} at {}: a port is down or not physical", src, dst);
            return;
        }
        Link link = new Link(src, dst);
        long now = clockMs.getAsLong();
        LinkTimes times = links.get(link);
        if (times != null) {
            times.lastSeenMs = now;
            return;
        }
        links.put(link, new LinkTimes(now));
        pending.add(new Change(Type.LINK_ADDED, link, null));
        commitSoon();
        LOG.debug("Link {} discovered", link);
        if (!links.containsKey(link.reverse())) {
            // Learn the other direction now rather than at the next round.
            write(receiver, List.of(probe(receiver, receiver.getPort(inPort))));
        }
    }

    /** Sends a probe out of every probeable port of every switch: one round. */
    public void probeAll() {
        for (OFSwitch sw : List.copyOf(switches.values())) {
            probeSwitch(sw);
        }
    }

    /** Removes the links no probe has confirmed within the link timeout. */
    public void sweep() {
        long oldest = clockMs.getAsLong() - settings.linkTimeoutMs();
        removeLinksWhere(link -> links.get(link).lastSeenMs < oldest);
        commit();
    }

    /** Every link with its times, sorted by source then destination. */
    public List<LinkStatus> linkStatus() {
        List<LinkStatus> out = new ArrayList<>();
        links.forEach((link, times) -> out.add(new LinkStatus(link, times.firstSeenMs, times.lastSeenMs,
                links.containsKey(link.reverse()))));
        out.sort(Comparator.comparing((LinkStatus s) -> s.link().src().dpid())
                .thenComparingInt(s -> s.link().src().port().getPortNumber())
                .thenComparing(s -> s.link().dst().dpid())
                .thenComparingInt(s -> s.link().dst().port().getPortNumber()));
        return out;
    }

    /** Forgets everything without events (the component is stopping). */
    public void clear() {
        commitQueued = false;
        switches.clear();
        links.clear();
        pending.clear();
    }

    private void probeSwitch(OFSwitch sw) {
        List<OFMessage> probes = new ArrayList<>();
        for (OFPortDesc port : sw.getPorts()) {
            if (SwitchPorts.isProbeable(port)) {
                probes.add(probe(sw, port));
            }
        }
        if (!probes.isEmpty()) {
            write(sw, probes);
        }
    }

    private void write(OFSwitch sw, List<OFMessage> probes) {
        if (sw.write(probes)) {
            probesSent += probes.size();
        }
    }

    /** A packet-out of a freshly signed probe through {@code port}; in_port is CONTROLLER as the spec asks. */
    private OFPacketOut probe(OFSwitch sw, OFPortDesc port) {
        OFFactory factory = sw.getFactory();
        int ttlSeconds = (int) Math.min(0xffff, (settings.linkTimeoutMs() + 999) / 1000);
        byte[] frame = codec.encode(sw.getId(), port.getPortNo(), port.getHwAddr(), clockMs.getAsLong(), ttlSeconds);
        OFPacketOut.Builder out = factory.buildPacketOut()
                .setBufferId(OFBufferId.NO_BUFFER)
                .setActions(List.of(factory.actions().output(port.getPortNo(), 0)))
                .setData(frame);
        if (factory.getVersion().compareTo(OFVersion.OF_15) >= 0) {
            out.setMatch(factory.buildMatchV3()
                    .setOxmList(OFOxmList.of(factory.oxms().inPort(OFPort.CONTROLLER))).build());
        } else {
            out.setInPort(OFPort.CONTROLLER);
        }
        return out.build();
    }

    private void removeLinksWhere(java.util.function.Predicate<Link> doomed) {
        for (Iterator<Link> it = links.keySet().iterator(); it.hasNext(); ) {
            Link link = it.next();
            if (doomed.test(link)) {
                it.remove();
                pending.add(new Change(Type.LINK_REMOVED, link, null));
                LOG.debug("Link {} removed", link);
            }
        }
    }

    /** Commits after the tasks already waiting on the topology thread, unless such a commit is queued. */
    private void commitSoon() {
        if (!commitQueued) {
            commitQueued = true;
            topologyThread.execute(() -> {
                commitQueued = false;
                commit();
            });
        }
    }

    /** Publishes the pending changes as one new snapshot and its events, if there are any. */
    private void commit() {
        if (pending.isEmpty()) {
            return;
        }
        List<Change> changes = List.copyOf(pending);
        pending.clear();
        Set<Link> touched = new HashSet<>();
        for (Change change : changes) {
            if (change.link != null) {
                touched.add(change.link);
            }
        }
        List<Change> all = new ArrayList<>(changes);
        for (Change change : changes) {
            if (change.link != null && !touched.contains(change.link.reverse()) && links.containsKey(change.link.reverse())) {
                all.add(new Change(Type.LINK_UPDATED, change.link.reverse(), null));
            }
        }
        TopologyGraph next = new TopologyGraph(++version, switches.keySet(), links.keySet());
        current = next;
        List<TopologyEvent> events = new ArrayList<>(all.size());
        for (Change change : all) {
            events.add(new TopologyEvent(change.type, change.link, change.dpid, next));
        }
        publisher.accept(List.copyOf(events));
    }

    private record Change(Type type, Link link, DatapathId dpid) {
    }

    private static final class LinkTimes {

        final long firstSeenMs;
        long lastSeenMs;

        LinkTimes(long now) {
            firstSeenMs = now;
            lastSeenMs = now;
        }
    }
}
