package io.heliograph.forwarding.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowRemoved;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.VlanVid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.MessageListener.Command;
import io.heliograph.core.MetricSource;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.OversizeFrames;
import io.heliograph.core.PacketIns;
import io.heliograph.core.Role;
import io.heliograph.core.StateBounds;
import io.heliograph.core.SwitchPort;
import io.heliograph.core.SwitchService;
import io.heliograph.core.packet.Arp;
import io.heliograph.core.packet.Ethernet;
import io.heliograph.devices.AttachmentPoint;
import io.heliograph.devices.DeviceService;
import io.heliograph.devices.Host;
import io.heliograph.forwarding.internal.InstalledPath.HostKey;
import io.heliograph.routing.Route;
import io.heliograph.routing.RoutingService;
import io.heliograph.topology.Link;
import io.heliograph.topology.Topology;
import io.heliograph.topology.TopologyEvent;
import io.heliograph.topology.TopologyService;

/**
 * Reactive forwarding along routed paths (the forwarding app's logic, with no OSGi types).
 *
 * <ul>
 * <li>Known unicast destination: one of the equal-cost routes to the destination's switch is chosen
 * per flow by a stable hash; the path's flows are written in both directions, from the last hop back
 * to the first, and the packet is released at the ingress along the first hop.
 * <li>Unknown or group destination: flooded on the island's broadcast tree with explicit output
 * ports (tree ports and edge ports, never the in_port); never OFPP_FLOOD/ALL, which loop in a fat
 * tree. A flood arriving on an inter-switch port off the tree is a copy that went round a loop: dropped.
 * <li>ARP request for a known address: forwarded to that host alone (see {@link #forwardArpRequest}).
 * <li>A link or switch failing, or a host moving, deletes exactly the flows of the paths that used it,
 * so the next packet is routed afresh.
 * <li>In a cluster it writes only to switches this instance may write to ({@link #mayWrite}: not
 * SLAVE, whose writes the switch refuses). A path through switches of other masters is installed on
 * this instance's hops only; the packet then misses at the first switch of another master, which gets
 * it as a packet-in and routes it on from there.
 * </ul>
 *
 * <p>It acts only when the topology, device, routing and switch services are all present; otherwise it
 * lets the packet through to the next listener (the learning switch, for a single switch).
 *
 * <p>Its state is bounded ({@link ForwardingSettings}): the installed paths (at the bound a new flow
 * gets no path: its packets are sent along the route by packet-outs, and each switch on the way asks
 * again), and the packets held while a path is confirmed (at the bound a packet is sent along its path
 * at once; and held packets wait at most {@code heldTimeoutMs}, so a switch that never answers barriers
 * neither piles them up nor goes unserved). A frame too large to go back in a packet-out is dropped
 * ({@link OversizeFrames}). All of it is counted ({@link #bounds}, {@link #samples}).
 */
public final class ReactiveForwarding {

    public static final String NAME = "forwarding";
    static final Set<OFType> TYPES = Set.of(OFType.PACKET_IN, OFType.FLOW_REMOVED);

    private static final Logger LOG = LoggerFactory.getLogger(ReactiveForwarding.class);
    /** How long after a path's release packets of its flow still follow it instead of starting a new one. */
    static final long RELEASE_GRACE_NANOS = 1_000_000_000L;

    /** 01:80:c2:00:00:00 - 0f: IEEE 802.1D link-local groups (STP, LACP, LLDP...) that bridges never forward. */
    private static final long LINK_LOCAL_GROUP = 0x0180_c200_0000L;

    private final Supplier<SwitchService> switches;
    private final Supplier<TopologyService> topology;
    private final Supplier<DeviceService> devices;
    private final Supplier<RoutingService> routing;
    private final InstalledPaths paths = new InstalledPaths();
    /** Connections not yet mastered by this instance since they connected (see {@link #switchAdded}). */
    private final Set<OFSwitch> awaitingMastership = ConcurrentHashMap.newKeySet();
    /**
     * Packets waiting at their ingress for their path to be confirmed, by the ingress entry's key; kept
     * for {@link #RELEASE_GRACE_NANOS} after their release.
     */
    private final ConcurrentMap<FlowEntry.TableKey, HeldPackets<Packet>> holding = new ConcurrentHashMap<>();
    private int releasesSinceSweep;
    /** Packets held now, over every switch; and those not held at the bound. */
    private final AtomicInteger held = new AtomicInteger();
    private final LongAdder notHeld = new LongAdder();
    /** Paths released at heldTimeoutMs, before every switch downstream had confirmed its entries. */
    private final LongAdder unconfirmed = new LongAdder();
    private final OversizeFrames oversize;
    private volatile LongSupplier nanoClock = System::nanoTime;
    /** Runs a task after so many milliseconds (tests run them when they choose). */
    private volatile BiConsumer<Long, Runnable> timer = (ms, task) ->
            CompletableFuture.delayedExecutor(ms, TimeUnit.MILLISECONDS).execute(task);
    private volatile ForwardingSettings settings;

    public ReactiveForwarding(Supplier<SwitchService> switches, Supplier<TopologyService> topology,
            Supplier<DeviceService> devices, Supplier<RoutingService> routing, ForwardingSettings settings) {
        this(switches, topology, devices, routing, settings, new OversizeFrames(NAME));
    }

    ReactiveForwarding(Supplier<SwitchService> switches, Supplier<TopologyService> topology,
            Supplier<DeviceService> devices, Supplier<RoutingService> routing, ForwardingSettings settings,
            OversizeFrames oversize) {
        this.switches = switches;
        this.topology = topology;
        this.devices = devices;
        this.routing = routing;
        this.settings = settings;
        this.oversize = oversize;
    }

    void configure(ForwardingSettings next) {
        settings = next;
    }

    ForwardingSettings settings() {
        return settings;
    }

    InstalledPaths paths() {
        return paths;
    }

    /** A PACKET_IN or FLOW_REMOVED from {@code sw}, on its I/O thread. */
    public Command receive(OFSwitch sw, OFMessage message) {
        if (message instanceof OFPacketIn packetIn) {
            return packetIn(sw, packetIn);
        }
        if (message instanceof OFFlowRemoved removed && InstalledPaths.isOurs(removed.getCookie())) {
            paths.flowRemoved(sw.getId(), removed.getCookie());
        }
        return Command.CONTINUE;
    }

    private Command packetIn(OFSwitch sw, OFPacketIn packetIn) {
        OFPort inPort = PacketIns.inPort(packetIn);
        Ethernet frame = Ethernet.wrap(packetIn.getData());
        if (inPort == null || !frame.isValid()) {
            return Command.CONTINUE;
        }
        long destination = frame.destination();
        if ((destination & ~0xfL) == LINK_LOCAL_GROUP || frame.etherType() == Ethernet.TYPE_LLDP) {
            return Command.CONTINUE; // discovery and bridge control traffic: never ours to forward
        }
        SwitchService switchService = switches.get();
        TopologyService topologyService = topology.get();
        DeviceService deviceService = devices.get();
        RoutingService routingService = routing.get();
        if (switchService == null || topologyService == null || deviceService == null || routingService == null) {
            return Command.CONTINUE;
        }
        Packet packet = new Packet(sw, packetIn, inPort, frame, topologyService.getTopology(), settings);
        if (!Ethernet.isMulticast(destination)) {
            VlanVid vlan = packet.vlan == null ? VlanVid.ZERO : packet.vlan;
            SwitchPort target = attachment(deviceService.getHost(MacAddress.of(destination), vlan));
            if (target != null) {
                if (target.equals(packet.ingress)) {
                    return Command.STOP; // the destination is on the segment the packet came from: it has it
                }
                if (forwardAlongPath(packet, target, switchService, routingService)) {
                    return Command.STOP;
                }
            }
        } else if (!packet.fromSwitch && forwardArpRequest(packet, deviceService, switchService)) {
            return Command.STOP;
        }
        flood(packet);
        return Command.STOP;
    }

    /** Where the host was most recently seen, or null. */
    private static SwitchPort attachment(Host host) {
        if (host == null || host.attachmentPoints().isEmpty()) {
            return null;
        }
        AttachmentPoint latest = host.attachmentPoints().get(0);
        return latest.port();
    }

    /**
     * Installs the path from the packet's ingress to {@code target} and releases the packet along it.
     * A packet arriving from another switch (its upstream flows outlived ours) gets the path from here
     * on, one way: the reverse is installed when the reply reaches its own ingress. False when there is
     * no usable route (unreachable, or a switch on it is not connected to us): the caller floods.
     */
    private boolean forwardAlongPath(Packet packet, SwitchPort target, SwitchService switchService,
            RoutingService routingService) {
        DatapathId here = packet.sw.getId();
        FlowHeaders headers = FlowHeaders.of(packet.frame, packet.settings.granularity());
        FlowEntry.TableKey key = ingressKey(packet, headers);
        HeldPackets<Packet> waiting = holding.get(key);
        if (waiting != null) {
            switch (hold(waiting, packet)) {
                case HELD -> {
                    return true; // its flow's path is being confirmed: it goes out with the first packet
                }
                case FULL -> {
                    return alongPath(packet, key, waiting.pathId()); // no room to wait: out along the path now
                }
                default -> {
                    if (followsReleasedPath(packet, key, waiting)) {
                        return true;
                    }
                }
            }
        }
        List<Link> links;
        if (target.dpid().equals(here)) {
            links = List.of();
        } else {
            List<Route> routes = routingService.getEqualCostRoutes(here, target.dpid(),
                    routingService.getDefaultMetric());
            if (routes == null || routes.isEmpty()) {
                return false;
            }
            links = choose(routes, headers, packet.settings.ecmp()).links();
        }
        List<Hop> hops = hops(packet.ingress, links, target);
        if (hops == null) {
            LOG.debug("Switch {}: route {} to {} is not a chain of links; flooding", here, links, target);
            return false;
        }
        if (hops.get(0).out().equals(packet.inPort)) {
            // Back where it came from: a flood copy from a switch that did not know the destination
            // yet, which its own flood has reached. A switch never outputs to the in port anyway.
            LOG.trace("Switch {}: {} is back out of in port {}; dropping this copy", here, target, packet.inPort);
            return true;
        }
        Map<DatapathId, OFSwitch> onPath = new LinkedHashMap<>();
        for (Hop hop : hops) {
            OFSwitch sw = hop.dpid.equals(here) ? packet.sw : switchService.getSwitch(hop.dpid);
            if (sw == null) {
                return false;
            }
            onPath.put(hop.dpid, sw);
        }
        // At the bound of installed paths: no flows, the packet goes one hop along the route and the
        // next switch asks again (as the destination's switch will for the last hop). Checked before the
        // path is built, since a flood of new flows meets the bound on every packet.
        InstalledPath path = paths.hasRoom(packet.settings.maxInstalledPaths())
                ? record(packet, headers, hops, links, onPath) : null;
        if (path == null) {
            sendOut(packet, hops.get(0).out);
            return true;
        }
        write(packet, path, hops, onPath);
        // A link may have failed while we routed over the snapshot we read: its removal has then
        // already been handled without this path, so undo it here.
        TopologyService topologyService = topology.get();
        Topology now = topologyService == null ? null : topologyService.getTopology();
        if (now != null && !now.links().containsAll(links)) {
            delete(paths.remove(path.id()));
        }
        return true;
    }

    /** The route for this flow: a stable function of its headers, so every packet of it takes the same one. */
    static Route choose(List<Route> routes, FlowHeaders headers, boolean ecmp) {
        if (!ecmp || routes.size() == 1) {
            return routes.get(0);
        }
        return routes.get((int) Long.remainderUnsigned(headers.flowHash(), routes.size()));
    }

    /** One switch of a path: where the flow enters it and where it leaves. */
    record Hop(DatapathId dpid, OFPort in, OFPort out) {
    }

    /** The hops from {@code ingress} over {@code links} to {@code target}, or null if the links do not chain. */
    static List<Hop> hops(SwitchPort ingress, List<Link> links, SwitchPort target) {
        List<Hop> hops = new ArrayList<>(links.size() + 1);
        SwitchPort at = ingress;
        for (Link link : links) {
            if (!link.src().dpid().equals(at.dpid())) {
                return null;
            }
            hops.add(new Hop(at.dpid(), at.port(), link.src().port()));
            at = link.dst();
        }
        if (!at.dpid().equals(target.dpid())) {
            return null;
        }
        hops.add(new Hop(at.dpid(), at.port(), target.port()));
        return hops;
    }

    /**
     * The path, recorded; null when it was refused at the bound of installed paths. A recorded path
     * that already writes exactly these entries (a packet of its flow that reached us before its
     * entries did, or from a switch that lost them without telling us) is written again as it is:
     * its entries keep their cookies and the registry is left alone.
     */
    private InstalledPath record(Packet packet, FlowHeaders headers, List<Hop> hops, List<Link> links,
            Map<DatapathId, OFSwitch> onPath) {
        long id = paths.newPathId();
        int priority = packet.settings.priority();
        List<FlowEntry> entries = new ArrayList<>();
        for (Hop hop : hops) {
            OFVersion version = onPath.get(hop.dpid).getVersion();
            entries.add(new FlowEntry(hop.dpid, hop.in, headers.supportedBy(version), priority,
                    InstalledPaths.cookie(id, false), hop.out));
        }
        Set<Link> used = new HashSet<>();
        for (Link link : links) {
            used.add(link);
            used.add(link.reverse());
        }
        if (packet.fromSwitch) {
            // entered over a link: its entry here matches that port, so the cable failing makes it wrong too
            for (Link out : packet.topology.linksFrom(packet.ingress.dpid())) {
                if (out.src().equals(packet.ingress)) {
                    used.add(out);
                    used.add(out.reverse());
                }
            }
        }
        if (!packet.fromSwitch) {
            FlowHeaders back = headers.reversed();
            for (Hop hop : hops) {
                OFVersion version = onPath.get(hop.dpid).getVersion();
                entries.add(new FlowEntry(hop.dpid, hop.out, back.supportedBy(version), priority,
                        InstalledPaths.cookie(id, true), hop.in));
            }
        }
        Set<HostKey> hosts = Set.of(HostKey.of(headers.ethSource(), headers.vlan()),
                HostKey.of(headers.ethDestination(), headers.vlan()));
        InstalledPath path = new InstalledPath(id, used, onPath.keySet(), hosts, entries);
        InstalledPath same = paths.sameAs(path);
        if (same != null) {
            return same;
        }
        return paths.add(path, packet.settings.maxInstalledPaths()) ? path : null;
    }

    /**
     * Writes the path so that packets never outrun it: the reverse direction first (its last hop, the
     * ingress, first), then the forward direction from the destination's switch back towards the
     * ingress. Every other switch on the path is then asked for a barrier: only when all have answered
     * (so every entry downstream is in its table) does the ingress get its flow-mod, which applies to
     * the buffered packet or is followed by a packet-out along the first hop; packets of the same flow
     * that reach the controller meanwhile are held and released with it. Without the barriers the
     * released packet could reach a switch before its entry and come back as a PACKET_IN. If a switch
     * fails to answer, or the path is gone meanwhile, the packet goes through the ingress's table
     * instead ({@link #throughTable}). The packets wait at most {@code heldTimeoutMs}: then they are
     * released as if confirmed (a switch that has not applied its entry yet sends the packet up again,
     * and it is routed on from there). With {@code maxHeldPackets} held already, nothing waits.
     */
    private void write(Packet packet, InstalledPath path, List<Hop> hops, Map<DatapathId, OFSwitch> onPath) {
        ForwardingSettings current = packet.settings;
        int n = hops.size();
        List<FlowEntry> entries = path.entries();
        if (entries.size() == 2 * n) {
            for (int i = 0; i < n; i++) {
                FlowEntry back = entries.get(n + i);
                OFSwitch sw = onPath.get(back.dpid());
                if (mayWrite(sw)) {
                    sw.write(FlowMessages.flowAdd(sw.getFactory(), back, hops.get(i).in, current,
                            OFBufferId.NO_BUFFER));
                }
            }
        }
        List<CompletableFuture<?>> downstream = new ArrayList<>();
        for (int i = n - 1; i >= 1; i--) {
            FlowEntry forward = entries.get(i);
            OFSwitch sw = onPath.get(forward.dpid());
            if (mayWrite(sw)) {
                sw.write(FlowMessages.flowAdd(sw.getFactory(), forward, hops.get(i).out, current,
                        OFBufferId.NO_BUFFER));
                downstream.add(sw.barrier());
            }
        }
        OFPort out = hops.get(0).out;
        if (downstream.isEmpty() || !reserveHeld(current)) {
            release(List.of(packet), path, out, current);
            return;
        }
        FlowEntry.TableKey key = entries.get(0).tableKey();
        HeldPackets<Packet> waiting = new HeldPackets<>(path.id(), packet);
        holding.put(key, waiting);
        forgetOldReleases();
        CompletableFuture<Void> confirmed = CompletableFuture.allOf(downstream.toArray(CompletableFuture[]::new));
        timer.accept(current.heldTimeoutMs(), () -> {
            if (confirmed.complete(null)) {
                unconfirmed.increment();
                LOG.debug("Switch {}: path {} released unconfirmed after {} ms", packet.sw.getId(), path.id(),
                        current.heldTimeoutMs());
            }
        });
        confirmed.whenComplete((done, failure) -> {
            List<Packet> packets = waiting.release(nanoClock.getAsLong());
            held.addAndGet(-packets.size());
            if (failure == null) {
                release(packets, path, out, current);
            } else {
                holding.remove(key, waiting);
                LOG.debug("Switch {}: path {} not confirmed downstream ({})", packet.sw.getId(), path.id(),
                        failure.toString());
                packets.forEach(this::throughTable);
            }
        });
    }

    private enum Hold { HELD, FULL, RELEASED }

    /** Holds a packet of a flow whose path is being confirmed, if there is room; counted when there is not. */
    private Hold hold(HeldPackets<Packet> waiting, Packet packet) {
        if (waiting.isReleased()) {
            return Hold.RELEASED;
        }
        if (!reserveHeld(packet.settings)) {
            return Hold.FULL;
        }
        if (waiting.add(packet)) {
            return Hold.HELD;
        }
        held.decrementAndGet();
        return Hold.RELEASED;
    }

    /** Takes room for one held packet; false, counted, at {@code maxHeldPackets}. */
    private boolean reserveHeld(ForwardingSettings current) {
        if (held.incrementAndGet() > current.maxHeldPackets()) {
            held.decrementAndGet();
            notHeld.increment();
            return false;
        }
        return true;
    }

    /**
     * A packet of a flow whose path was released a moment ago (the switch's caches had not caught up
     * with the new entry): out along that path's first hop, if the path still stands. Installing the
     * path again would replace its entries, and with them their counters. False: route it afresh.
     */
    private boolean followsReleasedPath(Packet packet, FlowEntry.TableKey key, HeldPackets<Packet> released) {
        long now = nanoClock.getAsLong();
        if (!released.releasedWithin(now, RELEASE_GRACE_NANOS)) {
            holding.remove(key, released);
            return false;
        }
        return alongPath(packet, key, released.pathId());
    }

    /**
     * Out along the first hop of path {@code pathId} (its entry at the ingress has {@code key}), if the
     * path still stands; false if it does not.
     */
    private boolean alongPath(Packet packet, FlowEntry.TableKey key, long pathId) {
        return paths.ifPresent(pathId, () -> {
            FlowEntry entry = paths.entryAt(key);
            sendOut(packet, entry == null ? OFPort.TABLE : entry.out());
        });
    }

    /** The packet out of {@code out} at its own switch: from the switch's buffer, or with its frame if that fits. */
    private void sendOut(Packet packet, OFPort out) {
        OFSwitch sw = packet.sw;
        if (mayWrite(sw) && oversize.fits(sw, packet.packetIn, 1)) {
            sw.write(FlowMessages.packetOut(sw.getFactory(), packet.inPort, List.of(out),
                    packet.packetIn.getBufferId(), packet.packetIn.getData()));
        }
    }

    /** Drops what is remembered of releases past their grace, now and then (one flow's packets may never come again). */
    private void forgetOldReleases() {
        if ((++releasesSinceSweep & 1023) != 0) {
            return;
        }
        long now = nanoClock.getAsLong();
        holding.entrySet().removeIf(e -> e.getValue().expired(now, RELEASE_GRACE_NANOS));
    }

    /** Where the packet's flow enters the network: the key of the entry its path has at the ingress. */
    private static FlowEntry.TableKey ingressKey(Packet packet, FlowHeaders headers) {
        return new FlowEntry.TableKey(packet.sw.getId(), packet.inPort, headers.supportedBy(packet.sw.getVersion()),
                packet.settings.priority());
    }

    /**
     * The ingress's flow-mod and the packets, if the path is still ours. The flow-mod carries the first
     * packet's buffer (if it was buffered); the others go out along the first hop.
     */
    private void release(List<Packet> packets, InstalledPath path, OFPort out, ForwardingSettings current) {
        OFSwitch ingress = packets.get(0).sw;
        if (!mayWrite(ingress)) {
            return; // mastership moved while the path was confirmed: the new master has the next packets
        }
        OFFactory factory = ingress.getFactory();
        List<OFMessage> messages = new ArrayList<>(packets.size() + 1);
        OFBufferId firstBuffer = packets.get(0).packetIn.getBufferId();
        messages.add(FlowMessages.flowAdd(factory, path.entries().get(0), out, current, firstBuffer));
        for (int i = 0; i < packets.size(); i++) {
            OFPacketIn in = packets.get(i).packetIn;
            if ((i > 0 || OFBufferId.NO_BUFFER.equals(in.getBufferId())) && oversize.fits(ingress, in, 1)) {
                messages.add(FlowMessages.packetOut(factory, packets.get(i).inPort, List.of(out), in.getBufferId(),
                        in.getData()));
            }
        }
        // under the paths' lock, so a removal either comes first (nothing written) or deletes this entry after it
        if (!paths.ifPresent(path.id(), () -> ingress.write(messages))) {
            LOG.debug("Switch {}: path {} gone before its first packets were released", ingress.getId(), path.id());
            packets.forEach(this::throughTable);
        }
    }

    /**
     * Hands the packet to the ingress switch's own table: the path meant for it was superseded (the
     * other direction of the same flow was routed meanwhile, taking over its entries) or removed (a
     * link failed), or a switch on it did not confirm its entries. The table then knows best: the packet
     * follows the newer path, or misses and comes back to be routed afresh.
     */
    private void throughTable(Packet packet) {
        sendOut(packet, OFPort.TABLE);
    }

    /**
     * An ARP request for an address a known host holds goes to that host alone, from its own switch,
     * instead of being flooded. Forwarded rather than answered by proxy: the owner answers for itself,
     * so a stale or spoofed device entry never makes the controller lie on a host's behalf, and the
     * requester's address is refreshed in the owner's cache as ARP intends. The reply is unicast to a
     * host the device service has just seen, so it is forwarded along a path like any other packet.
     * Gratuitous ARP (sender = target) announces to everyone and is flooded.
     */
    private boolean forwardArpRequest(Packet packet, DeviceService deviceService, SwitchService switchService) {
        Arp arp = packet.frame.arp();
        if (arp == null || !arp.isValid() || arp.opcode() != Arp.REQUEST
                || arp.senderProtocolAddress() == arp.targetProtocolAddress()) {
            return false;
        }
        byte[] data = packet.packetIn.getData();
        if (data.length < packet.packetIn.getTotalLen()) {
            return false; // only the switch's buffer holds the whole frame: flood it from there
        }
        VlanVid vlan = packet.vlan == null ? VlanVid.ZERO : packet.vlan;
        Host owner = null;
        for (Host host : deviceService.getHostsByIpv4(arp.targetIp())) {
            if (host.vlan().equals(vlan) && !host.attachmentPoints().isEmpty()
                    && (owner == null || host.lastSeen().isAfter(owner.lastSeen()))) {
                owner = host;
            }
        }
        SwitchPort target = attachment(owner);
        if (target == null) {
            return false;
        }
        if (target.equals(packet.ingress)) {
            return true; // the owner shares the requester's segment and heard the request
        }
        OFSwitch sw = target.dpid().equals(packet.sw.getId()) ? packet.sw : switchService.getSwitch(target.dpid());
        if (sw == null || !mayWrite(sw)) {
            return false; // flooded instead: the owner's switch hands it to its own master as a packet-in
        }
        if (!PacketIns.fitsPacketOut(sw.getVersion(), 1, data.length)) {
            return false; // padded past what a packet-out carries: the flood drops it, counted
        }
        sw.write(FlowMessages.packetOut(sw.getFactory(), OFPort.CONTROLLER, List.of(target.port()),
                OFBufferId.NO_BUFFER, data));
        return true;
    }

    /** Floods on the broadcast tree, or drops a copy that came in on an inter-switch port off the tree. */
    private void flood(Packet packet) {
        if (packet.fromSwitch && !packet.topology.isBroadcastAllowed(packet.ingress)) {
            LOG.trace("Switch {}: dropping a flood copy from off-tree port {}", packet.sw.getId(), packet.inPort);
            return;
        }
        List<OFPort> ports = floodPorts(packet.sw, packet.topology, packet.inPort);
        if (!ports.isEmpty() && mayWrite(packet.sw) && oversize.fits(packet.sw, packet.packetIn, ports.size())) {
            packet.sw.write(FlowMessages.packetOut(packet.sw.getFactory(), packet.inPort, ports,
                    packet.packetIn.getBufferId(), packet.packetIn.getData()));
        }
    }

    /**
     * The switch's edge ports (no link to another switch) and its broadcast-tree ports, except the
     * in_port, in port-number order. Reserved ports (LOCAL and the like) are not part of a flood.
     */
    static List<OFPort> floodPorts(OFSwitch sw, Topology topology, OFPort inPort) {
        DatapathId dpid = sw.getId();
        Set<OFPort> tree = topology.broadcastTreePorts(dpid);
        TreeSet<OFPort> ports = new TreeSet<>((a, b) -> Integer.compareUnsigned(a.getPortNumber(), b.getPortNumber()));
        for (OFPortDesc desc : sw.getPorts()) {
            OFPort port = desc.getPortNo();
            if (Integer.compareUnsigned(port.getPortNumber(), OFPort.MAX.getPortNumber()) > 0) {
                continue;
            }
            if (!topology.isInterSwitchPort(SwitchPort.of(dpid, port)) || tree.contains(port)) {
                ports.add(port);
            }
        }
        ports.addAll(tree);
        ports.remove(inPort);
        return List.copyOf(ports);
    }

    /** Deletes the flows of the paths that used a failed link or switch, so their next packet is rerouted. */
    public void topologyChanged(List<TopologyEvent> events) {
        for (TopologyEvent event : events) {
            switch (event.type()) {
                case LINK_REMOVED -> delete(paths.removeUsing(event.link()));
                case SWITCH_REMOVED -> delete(paths.removeThrough(event.dpid()));
                default -> {
                    // A new link or switch leaves every installed path working.
                }
            }
        }
    }

    /** The host left its old attachment point: flows toward it there are wrong. */
    public void hostMoved(Host before, Host after) {
        delete(paths.removeFor(new HostKey(before.mac(), before.vlan())));
    }

    /** An attachment point was dropped (not a move): flows may lead to it. */
    public void hostUpdated(Host before, Host after) {
        Set<SwitchPort> now = new HashSet<>();
        after.attachmentPoints().forEach(ap -> now.add(ap.port()));
        boolean lost = before.attachmentPoints().stream().anyMatch(ap -> !now.contains(ap.port()));
        if (lost) {
            delete(paths.removeFor(new HostKey(before.mac(), before.vlan())));
        }
    }

    /**
     * A switch connected: until this instance first becomes its master, its table may hold our entries
     * from before (a connection that dropped and came back, a controller restarted), which in a cluster
     * no handshake clears. Their paths are forgotten here, so they would never be deleted, and a host
     * whose packets they carry would never reach the device tracker again.
     */
    public void switchAdded(OFSwitch sw) {
        awaitingMastership.add(sw);
    }

    public void switchRemoved(OFSwitch sw) {
        awaitingMastership.remove(sw);
    }

    /**
     * On a connection's first mastership (on the switch's I/O thread, so no packet-in of it runs
     * meanwhile): deletes every entry of ours on the switch and forgets the paths through it, so its
     * next packets are routed afresh. A master that changes later (fail-over) leaves the entries alone.
     */
    public void roleChanged(OFSwitch sw, Role role) {
        if (role != Role.MASTER || !awaitingMastership.remove(sw)) {
            return;
        }
        delete(paths.removeThrough(sw.getId()));
        OFMessage wipe = FlowMessages.deleteAllOurs(sw.getFactory());
        if (wipe != null) {
            sw.write(wipe);
            LOG.debug("Deleted every forwarding entry on {}, whose first mastership this is", sw.getId());
        }
    }

    public void hostRemoved(Host host) {
        delete(paths.removeFor(new HostKey(host.mac(), host.vlan())));
    }

    /** The clock release graces are measured on (tests move it on instead of waiting). */
    void useClock(LongSupplier nanos) {
        this.nanoClock = nanos;
    }

    /** What runs a task after so many milliseconds: the held packets' timeouts (tests run them at will). */
    void useTimer(BiConsumer<Long, Runnable> afterMillis) {
        this.timer = afterMillis;
    }

    /** The installed paths and the held packets, with what their bounds refused. */
    public List<StateBounds.Bound> bounds() {
        ForwardingSettings current = settings;
        String pid = ForwardingComponent.PID + "/";
        return List.of(
                new StateBounds.Bound("forwarding.installedPaths", pid + "maxInstalledPaths",
                        current.maxInstalledPaths(), paths.size(), 0, paths.refused(), "paths whose flows are on the "
                        + "switches; at the bound a new flow gets none and its packets go hop by hop by packet-outs"),
                new StateBounds.Bound("forwarding.heldPackets", pid + "maxHeldPackets", current.maxHeldPackets(),
                        Math.max(0, held.get()), 0, notHeld.sum(), "packets waiting for their path's confirmation "
                        + "(at most heldTimeoutMs); at the bound a packet is sent along its path at once"));
    }

    /** Frames dropped as too large to send back, and paths released before their confirmation came. */
    public List<MetricSource.Sample> samples() {
        return List.of(
                new MetricSource.Sample("heliograph_forwarding_oversize_frames_total", MetricSource.Type.COUNTER,
                        "Frames from unbuffered packet-ins too large to go back in a packet-out (over 65,535 bytes "
                                + "with its actions), dropped", null, oversize.dropped()),
                new MetricSource.Sample("heliograph_forwarding_unconfirmed_paths_total", MetricSource.Type.COUNTER,
                        "Paths whose held packets were released after heldTimeoutMs, before every switch "
                                + "downstream had answered its barrier", null, unconfirmed.sum()));
    }

    /** Forgets every path (the app stops; its flows expire on their own idle timeout). */
    void forgetAll() {
        paths.clear();
    }

    /** Deletes the entries, one batch per switch; a switch no longer connected has lost them anyway. */
    private void delete(List<FlowEntry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        SwitchService switchService = switches.get();
        if (switchService == null) {
            return;
        }
        Map<DatapathId, List<OFMessage>> bySwitch = new LinkedHashMap<>();
        for (FlowEntry entry : entries) {
            OFSwitch sw = switchService.getSwitch(entry.dpid());
            if (sw != null && mayWrite(sw)) {
                bySwitch.computeIfAbsent(entry.dpid(), k -> new ArrayList<>())
                        .add(FlowMessages.flowDelete(sw.getFactory(), entry));
            }
        }
        bySwitch.forEach((dpid, messages) -> {
            OFSwitch sw = switchService.getSwitch(dpid);
            if (sw != null && mayWrite(sw)) {
                sw.write(messages);
            }
        });
        LOG.debug("Deleted {} forwarding flows on {} switches", entries.size(), bySwitch.size());
    }

    /**
     * Whether this instance may write to the switch: not as its SLAVE (the switch refuses a slave's
     * flow-mods and packet-outs). Its master, or a controller that asked for no role, may.
     */
    static boolean mayWrite(OFSwitch sw) {
        return sw.getRole() != Role.SLAVE;
    }

    /** What one packet-in's handling reads more than once. */
    private static final class Packet {
        final OFSwitch sw;
        final OFPacketIn packetIn;
        final OFPort inPort;
        final Ethernet frame;
        final Topology topology;
        final ForwardingSettings settings;
        final SwitchPort ingress;
        final boolean fromSwitch;
        final VlanVid vlan;

        Packet(OFSwitch sw, OFPacketIn packetIn, OFPort inPort, Ethernet frame, Topology topology,
                ForwardingSettings settings) {
            this.sw = sw;
            this.packetIn = packetIn;
            this.inPort = inPort;
            this.frame = frame;
            this.topology = topology;
            this.settings = settings;
            this.ingress = SwitchPort.of(sw.getId(), inPort);
            this.fromSwitch = topology.isInterSwitchPort(ingress);
            this.vlan = frame.vlanId() == Ethernet.NO_VLAN ? null : VlanVid.ofVlan(frame.vlanId());
        }
    }
}
