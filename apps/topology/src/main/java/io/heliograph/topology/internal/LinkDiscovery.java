package io.heliograph.topology.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
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
import io.heliograph.core.Role;
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
 * link (which made convergence quadratic in the number of links). New switches are published the
 * same way: a thousand connecting at once are a few snapshots, not one per switch (each a copy of
 * every switch before it). Other changes commit at once.
 *
 * <p>Events: LINK_ADDED and LINK_REMOVED for a directed link; LINK_UPDATED for a link whose reverse
 * appeared or disappeared (it became bidirectional, or stopped being so). A refresh of a known
 * link changes nothing and publishes nothing.
 *
 * <p>In a cluster ({@link #share}) the topology is the union of the links this instance discovered
 * and those the other instances discovered ({@link #remoteLinkAdded}), between switches connected
 * here; events say when a link enters or leaves that union, whoever found it. A probe arrives only
 * at the master of the switch it reaches, so each link is found (and owned) by the master of its
 * destination; probes are sent only from switches this instance may write to (not SLAVE), and a
 * switch this instance becomes MASTER of is probed at once, as is the port of a remote link that
 * vanished (its owner left), so its new owner finds it again quickly.
 */
public final class LinkDiscovery {

    private static final Logger LOG = LoggerFactory.getLogger(LinkDiscovery.class);

    private final LldpProbeCodec codec;
    private final LongSupplier clockMs;
    private final LongSupplier stampClockMs;
    private final Consumer<List<TopologyEvent>> publisher;
    private final Executor topologyThread;

    private final Map<DatapathId, OFSwitch> switches = new HashMap<>();
    /** Probe rounds being written a part at a time, waiting for their switch to read, by switch. */
    private final Map<DatapathId, ProbeRound> rounds = new HashMap<>();
    private final Map<Link, LinkTimes> links = new HashMap<>();
    /** The other instances' links: link -> owner -> when the owner found it (wall clock, ms). */
    private final Map<Link, Map<String, Long>> remote = new HashMap<>();
    private SharedLinks shared;
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
        this(codec, settings, clockMs, clockMs, publisher, topologyThread);
    }

    /**
     * @param clockMs      times the links (a monotonic clock: a wall-clock step must not expire them all)
     * @param stampClockMs stamps the probes, and is what the receiver checks their age on: in a cluster
     *                     another instance may receive them, so it is the wall clock
     */
    public LinkDiscovery(LldpProbeCodec codec, TopologySettings settings, LongSupplier clockMs,
            LongSupplier stampClockMs, Consumer<List<TopologyEvent>> publisher, Executor topologyThread) {
        this.codec = codec;
        this.settings = settings;
        this.clockMs = clockMs;
        this.stampClockMs = stampClockMs;
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
                removeLinksWhere(link -> touches(link, sw.getId()));
                commit();
            } else {
                pending.add(new Change(Type.SWITCH_ADDED, null, sw.getId()));
                // The others' links to and from it are now between switches known here.
                for (Link link : remote.keySet()) {
                    if (touches(link, sw.getId()) && !links.containsKey(link) && isVisibleRemote(link)) {
                        pending.add(new Change(Type.LINK_ADDED, link, null));
                    }
                }
                commitSoon();
            }
        }
        probeSwitch(sw);
    }

    public void switchRemoved(OFSwitch sw) {
        if (switches.get(sw.getId()) != sw) {
            return; // an older connection of a switch that has already reconnected
        }
        List<Link> othersLinks = new ArrayList<>();
        for (Link link : remote.keySet()) {
            if (touches(link, sw.getId()) && !links.containsKey(link) && isVisibleRemote(link)) {
                othersLinks.add(link);
            }
        }
        switches.remove(sw.getId());
        rounds.remove(sw.getId());
        removeLinksWhere(link -> touches(link, sw.getId()));
        othersLinks.forEach(link -> pending.add(new Change(Type.LINK_REMOVED, link, null)));
        pending.add(new Change(Type.SWITCH_REMOVED, null, sw.getId()));
        commit();
    }

    /**
     * This instance's role for a switch changed. A new MASTER probes the switch at once: its links
     * toward its neighbours are confirmed, and a neighbour that misses the reverse direction probes
     * back, so a fail-over costs one probe's round trip rather than an LLDP interval.
     */
    public void roleChanged(OFSwitch sw, Role role) {
        if (role == Role.MASTER && switches.get(sw.getId()) == sw) {
            probeSwitch(sw);
        }
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
        } else {
            times = new LinkTimes(now);
            links.put(link, times);
            if (!isVisibleRemote(link)) {
                pending.add(new Change(Type.LINK_ADDED, link, null));
                commitSoon();
            }
            if (shared != null) {
                shared.localAdded(link, stampClockMs.getAsLong());
            }
            LOG.debug("Link {} discovered", link);
        }
        if (!isKnown(link.reverse()) && (times.probedBackMs == null
                || now - times.probedBackMs >= settings.lldpMaxAgeMs())) {
            // Learn the other direction now rather than at the next round (in a cluster, also when its
            // owner left and a new master waits for a probe to find it again). At most once per probe
            // lifetime per link: in a cluster the other direction may be another instance's, not yet
            // in the store, and two masters would otherwise answer each other's probes without end.
            times.probedBackMs = now;
            write(receiver, List.of(probe(receiver, receiver.getPort(inPort))));
        }
    }

    // The other instances' links (in a cluster)

    /**
     * Shares this instance's links through {@code links} (all those known now, then every change), and
     * takes the other instances' from it.
     */
    public void share(SharedLinks sharedLinks) {
        shared = sharedLinks;
        links.forEach((link, times) -> sharedLinks.localAdded(link,
                stampClockMs.getAsLong() - (clockMs.getAsLong() - times.firstSeenMs)));
    }

    /** Stops sharing: the other instances' links leave the topology. */
    public void unshare() {
        shared = null;
        for (Link link : List.copyOf(remote.keySet())) {
            boolean wasVisible = isVisibleRemote(link);
            remote.remove(link);
            if (wasVisible && !links.containsKey(link)) {
                pending.add(new Change(Type.LINK_REMOVED, link, null));
            }
        }
        commit();
    }

    /** Whose links this instance shares, or null when it runs alone. */
    public String sharedAs() {
        return shared == null ? null : shared.self();
    }

    /** Another instance discovered a link (at {@code firstSeenMs} on the wall clock). */
    public void remoteLinkAdded(String owner, Link link, long firstSeenMs) {
        boolean wasVisible = isVisibleRemote(link);
        remote.computeIfAbsent(link, l -> new HashMap<>()).put(owner, firstSeenMs);
        if (!wasVisible && isVisibleRemote(link) && !links.containsKey(link)) {
            pending.add(new Change(Type.LINK_ADDED, link, null));
            commitSoon();
        }
    }

    /**
     * Another instance no longer has a link: it lost it, or the instance left. When this instance
     * masters the link's source and nobody else has the link, the source port is probed at once: if the
     * link is still there, the master of its destination finds it again.
     */
    public void remoteLinkRemoved(String owner, Link link) {
        Map<String, Long> owners = remote.get(link);
        if (owners == null || owners.remove(owner) == null) {
            return;
        }
        if (!owners.isEmpty()) {
            return;
        }
        boolean wasVisible = isVisibleRemote(link);
        remote.remove(link);
        if (links.containsKey(link)) {
            return;
        }
        if (wasVisible) {
            pending.add(new Change(Type.LINK_REMOVED, link, null));
            commitSoon();
        }
        OFSwitch source = switches.get(link.src().dpid());
        OFPortDesc port = source == null ? null : source.getPort(link.src().port());
        if (SwitchPorts.isProbeable(port)) {
            write(source, List.of(probe(source, port)));
        }
    }

    /** Another instance's link, between two switches known here. */
    private boolean isVisibleRemote(Link link) {
        return remote.containsKey(link) && switches.containsKey(link.src().dpid())
                && switches.containsKey(link.dst().dpid());
    }

    /** In the topology: found here, or by another instance between switches known here. */
    private boolean isKnown(Link link) {
        return links.containsKey(link) || isVisibleRemote(link);
    }

    private static boolean touches(Link link, DatapathId dpid) {
        return link.src().dpid().equals(dpid) || link.dst().dpid().equals(dpid);
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

    /**
     * Every link of the topology with its times (on the discovery clock), sorted by source then
     * destination. Another instance's link was first seen when that instance found it, and counts as
     * seen now: its owner removes it once it is not confirmed within the link timeout.
     */
    public List<LinkStatus> linkStatus() {
        List<LinkStatus> out = new ArrayList<>();
        String self = sharedAs();
        links.forEach((link, times) -> out.add(new LinkStatus(link, times.firstSeenMs, times.lastSeenMs,
                isKnown(link.reverse()), self)));
        long now = clockMs.getAsLong();
        long wallNow = stampClockMs.getAsLong();
        remote.forEach((link, owners) -> {
            if (!links.containsKey(link) && isVisibleRemote(link)) {
                Map.Entry<String, Long> first = owners.entrySet().stream().min(Map.Entry.comparingByValue()).orElseThrow();
                long firstSeen = now - Math.max(0, wallNow - first.getValue());
                out.add(new LinkStatus(link, firstSeen, now, isKnown(link.reverse()), first.getKey()));
            }
        });
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
        rounds.clear();
        links.clear();
        remote.clear();
        shared = null;
        pending.clear();
    }

    /**
     * A probe out of every probeable port of the switch: one round. Written {@link
     * OFSwitch#WRITABLE_ROOM_BYTES} at a time, waiting for the switch to read in between
     * ({@link OFSwitch#whenWritable()}), so a switch with thousands of ports is probed as fast as it
     * reads and never dropped for what a round leaves unread. A round still being written when the
     * next is due goes on; the next one is not started beside it.
     */
    private void probeSwitch(OFSwitch sw) {
        if (sw.getRole() == Role.SLAVE) {
            return;
        }
        ProbeRound running = rounds.get(sw.getId());
        if (running != null && running.sw == sw) {
            return;
        }
        List<OFPortDesc> ports = new ArrayList<>();
        for (OFPortDesc port : sw.getPorts()) {
            if (SwitchPorts.isProbeable(port)) {
                ports.add(port);
            }
        }
        continueRound(new ProbeRound(sw, ports));
    }

    /** Writes the round's next parts while the switch takes them; waits (off this thread) when it must. */
    private void continueRound(ProbeRound round) {
        OFSwitch sw = round.sw;
        while (true) {
            if (switches.get(sw.getId()) != sw || sw.getRole() == Role.SLAVE) {
                rounds.remove(sw.getId(), round);
                return;
            }
            List<OFMessage> part = new ArrayList<>();
            int bytes = 0;
            while (round.next < round.ports.size()) {
                OFPacketOut probe = probe(sw, round.ports.get(round.next));
                int size = probe.getData().length + PACKET_OUT_BYTES;
                if (!part.isEmpty() && bytes + size > OFSwitch.WRITABLE_ROOM_BYTES) {
                    break;
                }
                part.add(probe);
                bytes += size;
                round.next++;
            }
            if (!part.isEmpty()) {
                write(sw, part);
            }
            if (round.next >= round.ports.size()) {
                rounds.remove(sw.getId(), round);
                return;
            }
            CompletableFuture<Void> writable = sw.whenWritable();
            if (writable.isDone() && !writable.isCompletedExceptionally()) {
                continue;
            }
            rounds.put(sw.getId(), round);
            writable.whenComplete((v, e) -> {
                try {
                    topologyThread.execute(() -> {
                        if (e != null || rounds.get(sw.getId()) != round) {
                            rounds.remove(sw.getId(), round); // the switch is gone, or another round replaced this
                        } else {
                            continueRound(round);
                        }
                    });
                } catch (RejectedExecutionException stopped) {
                    // the component is stopping: no more rounds
                }
            });
            return;
        }
    }

    /** A SLAVE may not write to its switch (the switch would refuse it): only its master probes. */
    private void write(OFSwitch sw, List<OFMessage> probes) {
        if (sw.getRole() == Role.SLAVE) {
            return;
        }
        if (sw.write(probes)) {
            probesSent += probes.size();
        }
    }

    /** A packet-out of a freshly signed probe through {@code port}; in_port is CONTROLLER as the spec asks. */
    private OFPacketOut probe(OFSwitch sw, OFPortDesc port) {
        OFFactory factory = sw.getFactory();
        int ttlSeconds = (int) Math.min(0xffff, (settings.linkTimeoutMs() + 999) / 1000);
        byte[] frame = codec.encode(sw.getId(), port.getPortNo(), port.getHwAddr(), stampClockMs.getAsLong(),
                ttlSeconds);
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
                if (!isVisibleRemote(link)) {
                    pending.add(new Change(Type.LINK_REMOVED, link, null));
                }
                if (shared != null) {
                    shared.localRemoved(link);
                }
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
            if (change.link != null && !touched.contains(change.link.reverse()) && isKnown(change.link.reverse())) {
                all.add(new Change(Type.LINK_UPDATED, change.link.reverse(), null));
            }
        }
        TopologyGraph next = new TopologyGraph(++version, switches.keySet(), knownLinks());
        current = next;
        List<TopologyEvent> events = new ArrayList<>(all.size());
        for (Change change : all) {
            events.add(new TopologyEvent(change.type, change.link, change.dpid, next));
        }
        publisher.accept(List.copyOf(events));
    }

    /** The links of the topology: this instance's and the others' between switches known here. */
    private Set<Link> knownLinks() {
        if (remote.isEmpty()) {
            return links.keySet();
        }
        Set<Link> all = new HashSet<>(links.keySet());
        for (Link link : remote.keySet()) {
            if (isVisibleRemote(link)) {
                all.add(link);
            }
        }
        return all;
    }

    private record Change(Type type, Link link, DatapathId dpid) {
    }

    /** What a packet-out adds to its probe's frame, at most, in any version: header, in_port or match, one output. */
    static final int PACKET_OUT_BYTES = 64;

    /** A round of probes of one switch, and how far it has been written. */
    private static final class ProbeRound {

        final OFSwitch sw;
        final List<OFPortDesc> ports;
        int next;

        ProbeRound(OFSwitch sw, List<OFPortDesc> ports) {
            this.sw = sw;
            this.ports = ports;
        }
    }

    private static final class LinkTimes {

        final long firstSeenMs;
        long lastSeenMs;
        /** When this link's arrival last made its destination probe back, or null. */
        Long probedBackMs;

        LinkTimes(long now) {
            firstSeenMs = now;
            lastSeenMs = now;
        }
    }
}
