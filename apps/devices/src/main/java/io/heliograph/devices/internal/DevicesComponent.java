package io.heliograph.devices.internal;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.VlanVid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.MessageListener;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.PeriodicTask;
import io.heliograph.core.StateBounds;
import io.heliograph.core.SwitchListener;
import io.heliograph.core.SwitchPort;
import io.heliograph.core.WorkerThreads;
import io.heliograph.core.cluster.ClusterListener;
import io.heliograph.core.cluster.ClusterService;
import io.heliograph.core.cluster.ClusterSharing;
import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SharingComponent;
import io.heliograph.devices.DeviceService;
import io.heliograph.devices.Host;
import io.heliograph.devices.HostListener;
import io.heliograph.topology.TopologyEvent;
import io.heliograph.topology.TopologyListener;
import io.heliograph.topology.TopologyService;

/**
 * Wires {@link DeviceManager} into the controller: PACKET_IN listener "devices" (always CONTINUE),
 * switch and topology listener, {@link DeviceService}, HostListener whiteboard, its bounds as
 * {@link StateBounds}, configured by pid {@value #PID}. The topology is optional: without it every
 * port counts as an edge port.
 *
 * <p>In a cluster (a {@link SharedStore} and a {@link ClusterService} are bound) the hosts are shared
 * through {@link SharedHosts}, opened and reopened by a {@link ClusterSharing} as the services come and
 * go; the store's work runs on its thread, "heliograph-devices-store", since it waits on ZooKeeper.
 * Both references are optional: without them the app tracks alone.
 */
@Component(service = {DeviceService.class, MessageListener.class, SwitchListener.class, TopologyListener.class,
    ClusterListener.class, StateBounds.class}, configurationPid = DevicesComponent.PID)
@Designate(ocd = DevicesConfig.class)
public final class DevicesComponent implements DeviceService, MessageListener, SwitchListener, TopologyListener,
        SharingComponent, StateBounds {

    public static final String PID = "io.heliograph.devices";
    static final String NAME = "devices";

    private static final Logger LOG = LoggerFactory.getLogger(DevicesComponent.class);
    private static final Set<OFType> TYPES = Set.of(OFType.PACKET_IN);
    /** How long a change of this instance's hosts waits for others before they are written together. */
    static final long STORE_FLUSH_MS = 150;
    /** How long the hosts of an instance that left stay in view: time for the new masters to hear them again. */
    static final long LEFT_INSTANCE_HOSTS_RETAIN_MS = 30_000;

    // References may be bound before activate: kept here and handed to the manager when it exists.
    private final List<HostListener> listeners = new ArrayList<>();
    private TopologyService topology;
    private ScheduledExecutorService thread;
    private PeriodicTask sweeps;
    private volatile DeviceManager manager;
    // References bound before activate are kept; it shares once the manager exists.
    private final ClusterSharing<SharedHosts> sharing = new ClusterSharing<>(NAME, this::share,
            ended -> manager.unshare());

    @Activate
    synchronized void activate(DevicesConfig config) {
        thread = WorkerThreads.single("heliograph-devices");
        DeviceManager created = new DeviceManager(settingsOr(TrackerSettings.DEFAULTS, config), Clock.systemUTC(),
                thread);
        listeners.forEach(created::addListener);
        created.setTopology(topology);
        manager = created;
        sweeps = new PeriodicTask(thread, "devices sweep", created::sweep);
        scheduleSweeps();
        sharing.start();
        LOG.info("devices active ({})", created.settings());
    }

    @Modified
    synchronized void modified(DevicesConfig config) {
        TrackerSettings current = manager.settings();
        TrackerSettings next = settingsOr(current, config);
        if (!next.equals(current)) {
            manager.configure(next);
            scheduleSweeps();
            LOG.info("devices reconfigured ({})", next);
        }
    }

    @Deactivate
    synchronized void deactivate() {
        sharing.stop(); // this instance's hosts leave the store with the app
        if (thread != null) {
            thread.shutdownNow();
        }
        manager = null;
        LOG.info("devices stopped");
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void setSharedStore(SharedStore service) {
        sharing.bindStore(service);
    }

    void unsetSharedStore(SharedStore service) {
        sharing.unbindStore(service);
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void setClusterService(ClusterService service) {
        sharing.bindCluster(service);
    }

    void unsetClusterService(ClusterService service) {
        sharing.unbindCluster(service);
    }

    /** On the sharing's thread: the manager gives this instance's hosts to the new sharing before it starts. */
    private SharedHosts share(SharedStore store, ClusterService cluster, ScheduledExecutorService storeThread) {
        DeviceManager current = manager;
        SharedHosts next = new SharedHosts(store, cluster, current, storeThread, STORE_FLUSH_MS,
                () -> current.settings().sharedRefreshMs(), LEFT_INSTANCE_HOSTS_RETAIN_MS);
        current.share(next);
        return next;
    }

    @Override
    public ClusterSharing<?> clusterSharing() {
        return sharing;
    }

    /** The sharing now, or null (tests). */
    SharedHosts sharingNow() {
        return sharing.current();
    }

    /** Bad values are refused with a line that names them; {@code fallback} stays in force. */
    private static TrackerSettings settingsOr(TrackerSettings fallback, DevicesConfig config) {
        try {
            return new TrackerSettings(config.hostTimeoutMs(), config.multiHomeWindowMs(), config.maxAttachmentPoints(),
                    config.maxAddressesPerHost(), config.maxHosts(), config.maxHostsPerPort(), config.hostIdleMs(),
                    config.maxPending());
        } catch (IllegalArgumentException e) {
            LOG.error("Configuration {} refused, keeping {}: {}", PID, fallback, e.getMessage());
            return fallback;
        }
    }

    private void scheduleSweeps() {
        long interval = manager.settings().sweepIntervalMs();
        sweeps.every(interval, interval);
    }

    TrackerSettings settings() {
        return manager.settings();
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    synchronized void addHostListener(HostListener listener) {
        listeners.add(listener);
        if (manager != null) {
            manager.addListener(listener);
        }
    }

    synchronized void removeHostListener(HostListener listener) {
        listeners.remove(listener);
        if (manager != null) {
            manager.removeListener(listener);
        }
    }

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    synchronized void setTopologyService(TopologyService service) {
        topology = service;
        if (manager != null) {
            manager.setTopology(service);
        }
    }

    synchronized void unsetTopologyService(TopologyService service) {
        if (topology == service) {
            topology = null;
            if (manager != null) {
                manager.setTopology(null);
            }
        }
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public Set<OFType> getTypes() {
        return TYPES;
    }

    /** Learning only: the packet always goes on down the pipeline. */
    @Override
    public Command receive(OFSwitch sw, OFMessage message) {
        DeviceManager current = manager;
        if (current != null && message instanceof OFPacketIn packetIn) {
            try {
                current.packetIn(sw.getId(), packetIn);
            } catch (RuntimeException e) {
                LOG.debug("Switch {}: packet-in not used for device tracking", sw.getId(), e);
            }
        }
        return Command.CONTINUE;
    }

    @Override
    public void switchRemoved(OFSwitch sw) {
        DeviceManager current = manager;
        if (current != null) {
            current.switchRemoved(sw.getId());
        }
    }

    @Override
    public void portChanged(OFSwitch sw, OFPortDesc port, PortChange change) {
        DeviceManager current = manager;
        if (current != null) {
            current.portChanged(sw.getId(), port, change);
        }
    }

    @Override
    public void topologyChanged(List<TopologyEvent> events) {
        DeviceManager current = manager;
        if (current != null) {
            current.topologyChanged(events);
        }
    }

    private DeviceService reads() {
        DeviceManager current = manager;
        if (current == null) {
            throw new IllegalStateException("device tracking is not active");
        }
        return current;
    }

    @Override
    public Collection<Host> getHosts() {
        return reads().getHosts();
    }

    @Override
    public Host getHost(MacAddress mac, VlanVid vlan) {
        return reads().getHost(mac, vlan);
    }

    @Override
    public Collection<Host> getHostsByMac(MacAddress mac) {
        return reads().getHostsByMac(mac);
    }

    @Override
    public Collection<Host> getHostsByIpv4(IPv4Address address) {
        return reads().getHostsByIpv4(address);
    }

    @Override
    public Collection<Host> getHostsByIpv6(IPv6Address address) {
        return reads().getHostsByIpv6(address);
    }

    @Override
    public Collection<Host> getHostsAt(SwitchPort port) {
        return reads().getHostsAt(port);
    }

    @Override
    public List<Bound> bounds() {
        DeviceManager current = manager;
        return current == null ? List.of() : current.bounds();
    }
}
