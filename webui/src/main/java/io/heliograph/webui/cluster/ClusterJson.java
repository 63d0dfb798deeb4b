package io.heliograph.webui.cluster;

import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.heliograph.core.cluster.ClusterInstance;
import io.heliograph.core.cluster.ClusterService;
import io.heliograph.core.cluster.Mastership;
import io.heliograph.webui.api.ApiDescription;

/**
 * The cluster as {@code /api/v1/cluster} writes it: instances sorted by id, masterships by datapath id
 * (unsigned, as the switch list sorts), datapath ids as the switch resources write them
 * ({@code 00:00:00:00:00:00:00:01}).
 */
final class ClusterJson {

    private ClusterJson() {
    }

    record Cluster(@ApiDescription("this instance's id") String local,
                   @ApiDescription("whether this instance holds a live ZooKeeper session; without one it is master"
                           + " of no switch") boolean connected,
                   @ApiDescription("the ZooKeeper connect string this instance uses, host:port,...") String zookeeper,
                   @ApiDescription("the live instances, this one included, sorted by id") List<Instance> instances) {
    }

    record Instance(@ApiDescription("the instance id (--instance-id, or made once per data directory)") String id,
                    @ApiDescription("where switches reach it, host:port") String openflowAddress,
                    @ApiDescription("its REST API and web UI, host:port") String httpAddress,
                    @ApiDescription("the Heliograph version it runs") String version,
                    @ApiDescription("when it joined the cluster") Instant started,
                    @ApiDescription("whether it is the instance answering this request") boolean local,
                    @ApiDescription("how many switches it is master of; null while the mastership service is not"
                            + " running") Integer masterOf) {
    }

    record SwitchMastership(@ApiDescription("the switch's datapath id") String dpid,
                            @ApiDescription("the master instance's id; null while the switch has none (during a"
                                    + " fail-over)") String master,
                            @ApiDescription("the generation id the master sent with its role request; from"
                                    + " ZooKeeper, larger for every new master") long generation,
                            @ApiDescription("the instances connected to the switch, which may become its master,"
                                    + " sorted") List<String> candidates) {
    }

    record Move(@ApiDescription("the id of the instance to become the switch's master; it must be connected to"
            + " the switch") String master) {
    }

    /**
     * Floodlight's {@code /wm/core/role/json}: {@code role} in Floodlight's words, the rest what it
     * means here.
     */
    record Role(@ApiDescription("ACTIVE while this instance holds a ZooKeeper session (it takes part in the"
                        + " elections and is master of its share of the switches), STANDBY while it does not (it is"
                        + " master of none)") String role,
                @ApiDescription("this instance's id") String instance,
                @ApiDescription("how many switches this instance is master of; null while the mastership service"
                        + " is not running") Integer masterOf,
                @ApiDescription("how many switches the cluster is connected to; null while the mastership service"
                        + " is not running") Integer switches) {
    }

    static Cluster cluster(ClusterService cluster, Map<?, Mastership> masterships) {
        ClusterInstance self = cluster.getLocalInstance();
        Map<String, ClusterInstance> byId = new TreeMap<>(cluster.getInstances());
        // the local instance is always listed, also while ZooKeeper has not (or no longer) seen it
        byId.putIfAbsent(self.id(), self);
        Map<String, Integer> mastered = masterships == null ? null : masterCounts(masterships.values());
        List<Instance> instances = byId.values().stream().map(i -> new Instance(i.id(), i.openflowAddress(),
                i.httpAddress(), i.version(), i.started(), i.id().equals(self.id()),
                mastered == null ? null : mastered.getOrDefault(i.id(), 0))).toList();
        return new Cluster(self.id(), cluster.isConnected(), cluster.getConnectString(), instances);
    }

    static Map<String, Integer> masterCounts(Collection<Mastership> masterships) {
        Map<String, Integer> counts = new HashMap<>();
        for (Mastership m : masterships) {
            if (m.master() != null) {
                counts.merge(m.master(), 1, Integer::sum);
            }
        }
        return counts;
    }

    static List<SwitchMastership> masterships(Collection<Mastership> masterships) {
        return masterships.stream()
                .sorted(Comparator.comparing((Mastership m) -> m.switchId().getLong(), Long::compareUnsigned))
                .map(ClusterJson::mastership).toList();
    }

    static SwitchMastership mastership(Mastership m) {
        return new SwitchMastership(m.switchId().toString(), m.master(), m.generation(),
                m.candidates() == null ? List.of() : m.candidates().stream().sorted().toList());
    }

    static Role role(ClusterService cluster, Map<?, Mastership> masterships) {
        String self = cluster.getLocalInstance().id();
        Integer masterOf = masterships == null ? null : masterCounts(masterships.values()).getOrDefault(self, 0);
        return new Role(cluster.isConnected() ? "ACTIVE" : "STANDBY", self, masterOf,
                masterships == null ? null : masterships.size());
    }
}
