package io.heliograph.topology.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.action.OFActionOutput;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.Role;
import io.heliograph.core.SwitchPort;
import io.heliograph.core.cluster.ClusterInstance;
import io.heliograph.core.testing.FakeClusterService;
import io.heliograph.core.testing.FakeSwitch;
import io.heliograph.core.testing.InMemorySharedStore;
import io.heliograph.topology.TopologyEvent;

/**
 * Controller instances of one cluster over fake switches joined by cables. Every switch has a
 * connection to every instance; one instance is its MASTER, the others SLAVE. A probe written on a
 * connection leaves by the cable and arrives as a packet-in at the master's connection to the switch
 * at the other end, as a real switch sends packet-ins to its master only. The instances share one
 * in-memory store and membership, sign probes with one key (the cluster's), run discovery on the
 * caller's thread and write the store only when a test flushes.
 */
final class ClusterFabric implements AutoCloseable {

    static final TopologySettings SETTINGS = new TopologySettings(5_000, 15_000, 3_000);
    private static final byte[] CLUSTER_KEY = "the cluster's LLDP key, 32 bytes".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    long now = 1_000_000;
    final Map<String, Instance> instances = new LinkedHashMap<>();
    final Map<SwitchPort, SwitchPort> cables = new HashMap<>();
    private final InMemorySharedStore firstStore = new InMemorySharedStore();
    private FakeClusterService firstCluster;
    private final ScheduledExecutorService storeThread = Executors.newSingleThreadScheduledExecutor();
    /** How long the links of an instance that left stay in the others' views; 0 unless a test sets it. */
    private long retainMs;

    /** One controller instance: its discovery, its sharing and its connections to the switches. */
    final class Instance {
        final String id;
        final InMemorySharedStore store;
        final FakeClusterService cluster;
        final LldpProbeCodec codec = new LldpProbeCodec(CLUSTER_KEY, ClusterProbeKey.instanceOf(CLUSTER_KEY));
        final List<List<TopologyEvent>> published = new ArrayList<>();
        final LinkDiscovery discovery;
        final ProbeReceiver receiver;
        final SharedLinks shared;
        final Map<DatapathId, FakeSwitch> connections = new LinkedHashMap<>();

        Instance(String id) {
            this.id = id;
            if (firstCluster == null) {
                store = firstStore;
                cluster = new FakeClusterService(id);
                firstCluster = cluster;
            } else {
                store = firstStore.anotherInstance(id);
                cluster = firstCluster.anotherInstance(id);
            }
            discovery = new LinkDiscovery(codec, SETTINGS, () -> now, published::add, Runnable::run);
            receiver = new ProbeReceiver(codec, () -> now, () -> SETTINGS, Runnable::run, discovery);
            shared = new SharedLinks(store, cluster, discovery, Runnable::run, storeThread, 3_600_000, retainMs);
            discovery.share(shared);
            shared.start();
        }

        FakeSwitch connection(long dpid) {
            return connections.get(DatapathId.of(dpid));
        }

        TopologyGraph topology() {
            return discovery.topology();
        }
    }

    /** Starts instances; the others hear each one join. */
    /** The instances made after this keep a departed instance's links in view for {@code ms}. */
    ClusterFabric retainingLinksOfInstancesThatLeftFor(long ms) {
        retainMs = ms;
        return this;
    }

    ClusterFabric instances(String... ids) {
        for (String id : ids) {
            Instance joining = new Instance(id);
            instances.values().forEach(other -> other.shared.instanceJoined(joining.cluster.getLocalInstance()));
            instances.put(id, joining);
        }
        return this;
    }

    Instance instance(String id) {
        return instances.get(id);
    }

    void cable(long a, int aPort, long b, int bPort) {
        cables.put(Fabric.end(a, aPort), Fabric.end(b, bPort));
        cables.put(Fabric.end(b, bPort), Fabric.end(a, aPort));
    }

    /** Connects a switch with ports 1..ports to every instance, {@code master} as its MASTER. */
    void connect(long dpid, int ports, String master) {
        for (Instance instance : instances.values()) {
            FakeSwitch sw = new FakeSwitch(dpid, OFVersion.OF_13, ports);
            sw.requestRole(instance.id.equals(master) ? Role.MASTER : Role.SLAVE, 1);
            instance.connections.put(sw.getId(), sw);
            instance.discovery.switchAdded(sw);
        }
    }

    /** Makes {@code master} the switch's MASTER (the others SLAVE), telling each instance as the core would. */
    void master(long dpid, String master) {
        for (Instance instance : instances.values()) {
            FakeSwitch sw = instance.connection(dpid);
            if (sw != null && !instance.id.equals(master)) {
                sw.requestRole(Role.SLAVE, 2);
                instance.discovery.roleChanged(sw, Role.SLAVE);
            }
        }
        FakeSwitch sw = instance(master).connection(dpid);
        sw.requestRole(Role.MASTER, 2);
        instance(master).discovery.roleChanged(sw, Role.MASTER);
    }

    /** The instance dies: its connections and session go, and the others hear it left. */
    void kill(String id) {
        Instance dead = instances.remove(id);
        dead.connections.values().forEach(FakeSwitch::disconnect);
        dead.store.setAvailable(false);
        ClusterInstance gone = dead.cluster.leave(id);
        instances.values().forEach(survivor -> survivor.shared.instanceLeft(gone));
    }

    /** Writes every instance's pending links to the store (the others hear them at once). */
    void flush() {
        instances.values().forEach(i -> i.shared.flush());
    }

    /** Delivers the probes written so far, and those they cause, until the fabric is quiet. */
    int deliver() {
        int delivered = 0;
        for (int round = 0; round < 100; round++) {
            List<Runnable> arrivals = new ArrayList<>();
            for (Instance instance : instances.values()) {
                for (FakeSwitch sw : instance.connections.values()) {
                    for (OFMessage message : sw.take()) {
                        if (message instanceof OFPacketOut out) {
                            for (OFAction action : out.getActions()) {
                                arrive(SwitchPort.of(sw.getId(), ((OFActionOutput) action).getPort()), out.getData(),
                                        arrivals);
                            }
                        }
                    }
                }
            }
            if (arrivals.isEmpty()) {
                return delivered;
            }
            arrivals.forEach(Runnable::run);
            delivered += arrivals.size();
        }
        throw new AssertionError("the fabric never went quiet");
    }

    /** The probe comes in at the far end of the cable, at the switch's master only. */
    private void arrive(SwitchPort from, byte[] frame, List<Runnable> arrivals) {
        SwitchPort to = cables.get(from);
        if (to == null) {
            return;
        }
        for (Instance instance : instances.values()) {
            FakeSwitch sw = instance.connections.get(to.dpid());
            if (sw != null && sw.isConnected() && sw.getRole() == Role.MASTER) {
                arrivals.add(() -> instance.receiver.receive(sw, Fabric.packetIn(sw.getFactory(), to.port(), frame)));
            }
        }
    }

    /** Every probe round at once, on every instance, as the timers would. */
    void probeAll() {
        instances.values().forEach(i -> i.discovery.probeAll());
    }

    @Override
    public void close() {
        storeThread.shutdownNow();
    }
}
