package io.heliograph.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryForever;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFRoleRequestFailedCode;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFErrorCauseData;

import io.heliograph.core.OFErrorException;
import io.heliograph.core.Role;
import io.heliograph.core.cluster.Mastership;
import io.heliograph.core.testing.FakeSwitch;

/**
 * Three instances (three ZooKeeper sessions on a real server) and switches that, like an OpenFlow
 * 1.3 switch, keep one master, demote the previous one, and refuse a role request with a stale
 * generation id.
 */
class MastershipElectionTest {

    private static final int SWITCHES = 6;
    private static final Duration WAIT = Duration.ofSeconds(20);

    private TestingServer server;
    private final List<Instance> instances = new ArrayList<>();
    private final Map<Long, SwitchModel> switches = new HashMap<>();

    /** What the switch knows about its controllers: the master connection and the largest generation seen. */
    static final class SwitchModel {
        final long dpid;
        RoleConnection master;
        Long generation;

        SwitchModel(long dpid) {
            this.dpid = dpid;
        }

        synchronized CompletableFuture<Role> request(RoleConnection from, Role role, long gen) {
            if (role != Role.EQUAL && generation != null && gen - generation < 0) {
                return CompletableFuture.failedFuture(new OFErrorException(OFFactories.getFactory(OFVersion.OF_13)
                        .errorMsgs().buildRoleRequestFailedErrorMsg().setCode(OFRoleRequestFailedCode.STALE)
                        .setData(OFErrorCauseData.NONE).build()));
            }
            if (role != Role.EQUAL) {
                generation = gen;
            }
            if (role == Role.MASTER) {
                if (master != null && master != from) {
                    master.switchSide = Role.SLAVE;
                }
                master = from;
            } else if (master == from) {
                master = null;
            }
            from.switchSide = role;
            return CompletableFuture.completedFuture(role);
        }

        synchronized String masterInstance() {
            return master == null ? null : master.instance;
        }
    }

    /** One instance's connection to one switch. */
    static final class RoleConnection extends FakeSwitch {
        final SwitchModel model;
        final String instance;
        volatile Role switchSide = Role.EQUAL;
        private volatile Role local = Role.EQUAL;

        RoleConnection(SwitchModel model, String instance) {
            super(model.dpid);
            this.model = model;
            this.instance = instance;
        }

        @Override
        public Role getRole() {
            return local;
        }

        @Override
        public CompletableFuture<Role> requestRole(Role role, long generationId) {
            if (role == Role.SLAVE) {
                local = Role.SLAVE;
            }
            return model.request(this, role, generationId).thenApply(r -> {
                local = r;
                return r;
            });
        }
    }

    final class Instance {
        final String id;
        final CuratorFramework client;
        final MastershipElection election;
        final Map<Long, RoleConnection> connections = new HashMap<>();

        Instance(String id, boolean balance) throws Exception {
            this.id = id;
            client = CuratorFrameworkFactory.builder().connectString(server.getConnectString())
                    .sessionTimeoutMs(2000).connectionTimeoutMs(2000).retryPolicy(new RetryForever(50)).build();
            election = new MastershipElection(client, id, 100, balance, 200);
            client.getConnectionStateListenable().addListener((c, state) -> election.connectionChanged(state.isConnected()));
            client.start();
            client.blockUntilConnected();
            election.start();
            election.connectionChanged(true);
        }

        void connectAll() {
            for (SwitchModel m : switches.values()) {
                RoleConnection c = new RoleConnection(m, id);
                connections.put(m.dpid, c);
                election.switchConnected(c);
            }
        }

        long mastered() {
            return connections.values().stream().filter(c -> c.getRole() == Role.MASTER).count();
        }

        void close() {
            election.close();
            client.close();
        }
    }

    @BeforeEach
    void start() throws Exception {
        server = new TestingServer(true);
        for (long d = 1; d <= SWITCHES; d++) {
            switches.put(d, new SwitchModel(d));
        }
    }

    @AfterEach
    void stop() throws Exception {
        for (Instance i : instances) {
            i.close();
        }
        server.close();
    }

    private Instance instance(String id) throws Exception {
        return instance(id, true);
    }

    private Instance instance(String id, boolean balance) throws Exception {
        Instance i = new Instance(id, balance);
        instances.add(i);
        return i;
    }

    @Test
    void everySwitchGetsExactlyOneMasterAndTheyAreSpreadEvenly() throws Exception {
        Instance a = instance("a");
        a.connectAll();
        TestZooKeeper.await(() -> a.mastered() == SWITCHES, "the only instance masters every switch");
        Instance b = instance("b");
        Instance c = instance("c");
        b.connectAll();
        c.connectAll();
        TestZooKeeper.await(() -> a.mastered() == 2 && b.mastered() == 2 && c.mastered() == 2, "two switches each");
        // a's cache of the claims follows ZooKeeper a little after the switches have their roles.
        TestZooKeeper.await(() -> switches.values().stream().allMatch(m -> m.masterInstance() != null
                && m.masterInstance().equals(masterOf(a, m.dpid))), "a's cache has every claim the switches act on");
        for (SwitchModel m : switches.values()) {
            Mastership ms = a.election.getMastership(DatapathId.of(m.dpid)).orElseThrow();
            assertEquals(m.masterInstance(), ms.master(), "the switch and ZooKeeper agree on switch " + m.dpid);
            assertEquals(m.generation, ms.generation(), "the switch saw the master's generation");
            assertEquals(java.util.Set.of("a", "b", "c"), ms.candidates());
            long localMasters = instances.stream().filter(i -> i.connections.get(m.dpid).getRole() == Role.MASTER).count();
            assertEquals(1, localMasters, "one instance acts as master of switch " + m.dpid);
        }
    }

    @Test
    void whenTheMastersSessionEndsTheOthersTakeOverWithLargerGenerations() throws Exception {
        Instance a = instance("a");
        Instance b = instance("b");
        Instance c = instance("c");
        a.connectAll();
        b.connectAll();
        c.connectAll();
        TestZooKeeper.await(() -> a.mastered() + b.mastered() + c.mastered() == SWITCHES && a.mastered() == 2, "balanced");
        Map<Long, Long> before = new HashMap<>();
        switches.values().forEach(m -> before.put(m.dpid, m.generation));

        List<Long> ofA = switches.values().stream().filter(m -> "a".equals(m.masterInstance())).map(m -> m.dpid).toList();
        a.client.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
        TestZooKeeper.await(() -> ofA.stream().allMatch(d -> switches.get(d).generation > before.get(d)),
                "a's switches have new masters with larger generations");
        for (SwitchModel m : switches.values()) {
            assertTrue(m.generation >= before.get(m.dpid), "generations never go back");
        }
        TestZooKeeper.await(() -> switches.values().stream().allMatch(m -> instances.stream()
                .filter(i -> i.connections.get(m.dpid).getRole() == Role.MASTER).count() == 1), "one master per switch");
        // Once failed one run in three. The election of that time still fails 1 run in 15 (a switch
        // moved to a, taken by a fallback candidate instead, is never moved again); the one that
        // hands such a switch on (commit 66c2971) passed 60 runs in a row.
        TestZooKeeper.await(() -> a.mastered() == 2 && b.mastered() == 2 && c.mastered() == 2, "a rejoins and is balanced again");
    }

    @Test
    void anOperatorMovesASwitchAndAStaleMasterIsRefused() throws Exception {
        Instance a = instance("a");
        Instance b = instance("b");
        a.connectAll();
        b.connectAll();
        TestZooKeeper.await(() -> a.mastered() == 3 && b.mastered() == 3, "balanced");
        long dpid = switches.values().stream().filter(m -> "a".equals(m.masterInstance())).findFirst().orElseThrow().dpid;
        long oldGeneration = switches.get(dpid).generation;
        Mastership moved = a.election.moveMastership(DatapathId.of(dpid), "b").get(10, TimeUnit.SECONDS);
        assertEquals("b", moved.master());
        TestZooKeeper.await(() -> "b".equals(switches.get(dpid).masterInstance()), "the switch has b as master");
        assertTrue(switches.get(dpid).generation > oldGeneration);
        ExecutionException stale = assertThrows(ExecutionException.class,
                () -> a.connections.get(dpid).requestRole(Role.MASTER, oldGeneration).get());
        assertTrue(stale.getCause().getMessage().contains("STALE"));

        ExecutionException unknown = assertThrows(ExecutionException.class,
                () -> a.election.moveMastership(DatapathId.of(dpid), "zz").get());
        assertTrue(unknown.getCause().getMessage().contains("'zz' is not connected"), unknown.getCause().getMessage());
    }

    @Test
    void aGracefulStopHandsEverySwitchOver() throws Exception {
        Instance a = instance("a");
        Instance b = instance("b");
        a.connectAll();
        b.connectAll();
        TestZooKeeper.await(() -> a.mastered() == 3 && b.mastered() == 3, "balanced");
        long start = System.nanoTime();
        a.election.handOverAll(5000);
        assertEquals(0, a.mastered(), "a stops acting as master before it returns");
        TestZooKeeper.await(() -> b.mastered() == SWITCHES, "b masters every switch");
        double ms = (System.nanoTime() - start) / 1e6;
        System.out.printf("hand-over of 3 switches: %.1f ms%n", ms);
    }

    @Test
    void aGracefulStopReleasesTwentySwitchesInOneTransactionAndTheSuccessorsClaimThemAll() throws Exception {
        for (long d = SWITCHES + 1; d <= 20; d++) {
            switches.put(d, new SwitchModel(d));
        }
        // No balancing until asked: a masters all 20, and each switch keeps the master it is handed to.
        Instance a = instance("a", false);
        a.connectAll();
        TestZooKeeper.await(() -> a.mastered() == 20, "a masters the 20 switches");
        Instance b = instance("b", false);
        Instance c = instance("c", false);
        b.connectAll();
        c.connectAll();
        // Every instance must know every candidacy: each names the same successor only from the same view.
        TestZooKeeper.await(() -> instances.stream().allMatch(i -> switches.keySet().stream().allMatch(d -> i.election
                .getMastership(DatapathId.of(d)).map(m -> m.candidates().equals(Set.of("a", "b", "c"))).orElse(false))),
                "every instance sees b and c as candidates everywhere");
        // ZooKeeper gives each committed transaction its own zxid, and a watch event carries the zxid
        // of the transaction that fired it: a's release is one transaction if its events share one.
        List<WatchedEvent> events = new CopyOnWriteArrayList<>();
        CuratorFramework observer = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryForever(50));
        observer.start();
        try {
            observer.blockUntilConnected();
            observer.getZookeeperClient().getZooKeeper().addWatch(MastershipElection.ROOT, events::add,
                    AddWatchMode.PERSISTENT_RECURSIVE);
            Map<Long, Long> before = new HashMap<>();
            switches.values().forEach(m -> before.put(m.dpid, m.generation));

            long start = System.nanoTime();
            a.election.handOverAll(5000);
            assertEquals(0, a.mastered(), "a stops acting as master before it returns");
            TestZooKeeper.await(() -> switches.values().stream().allMatch(m -> m.master != null
                    && !"a".equals(m.masterInstance()) && m.generation > before.get(m.dpid)), "b and c master every switch");
            System.out.printf("hand-over of 20 switches: %.1f ms to the last successor's role reply (b %d, c %d)%n",
                    (System.nanoTime() - start) / 1e6, b.mastered(), c.mastered());

            Set<Long> zxids = new TreeSet<>();
            int candidacies = 0;
            int masters = 0;
            int claims = 0;
            for (WatchedEvent e : events) {
                if (e.getType() == EventType.NodeCreated && e.getPath().endsWith("/master")) {
                    claims++;
                }
                if (e.getType() == EventType.NodeDeleted && e.getPath().endsWith("/candidates/a")) {
                    zxids.add(e.getZxid());
                    candidacies++;
                } else if (e.getType() == EventType.NodeDeleted && e.getPath().endsWith("/master")) {
                    zxids.add(e.getZxid());
                    masters++;
                }
            }
            assertEquals(20, candidacies, "a withdrew its candidacy for every switch: " + events);
            assertEquals(20, masters, "a's master nodes were deleted, and no other: " + events);
            assertEquals(20, claims, "each switch was claimed once, by the successor named, and not moved on: " + events);
            assertEquals(1, zxids.size(), "a's candidacies and master nodes went in one transaction: " + zxids);
            long release = zxids.iterator().next();
            for (long d : switches.keySet()) {
                String preferredPath = MastershipElection.preferredPath(DatapathId.of(d));
                assertTrue(events.stream().anyMatch(e -> e.getPath().equals(preferredPath) && e.getZxid() == release),
                        "switch " + d + "'s successor was written in the same transaction");
                String preferred = new String(observer.getData().forPath(preferredPath), StandardCharsets.UTF_8);
                assertEquals(preferred, switches.get(d).masterInstance(), "switch " + d + " went to the successor named");
            }
            assertTrue(oneMasterEach(), "one master per switch");

            // Without candidacies a leaving instance is given nothing: a re-balance spreads the switches
            // over b and c (were a still a candidate, it would be handed switches it never takes).
            Map<DatapathId, Mastership> balanced = b.election.rebalance().get(20, TimeUnit.SECONDS);
            balanced.values().forEach(m -> assertEquals(Set.of("b", "c"), m.candidates()));
            TestZooKeeper.await(() -> b.mastered() == 10 && c.mastered() == 10, "b and c master ten switches each");
        } finally {
            observer.close();
        }
    }

    /** A switch that records the role asked of it and answers as {@code answer} says (or never). */
    static final class UnconfirmingSwitch extends FakeSwitch {
        final java.util.function.Supplier<CompletableFuture<Role>> answer;
        volatile Role asked;
        volatile long askedGeneration;

        UnconfirmingSwitch(long dpid, OFVersion version, java.util.function.Supplier<CompletableFuture<Role>> answer) {
            super(dpid, version);
            this.answer = answer;
        }

        @Override
        public CompletableFuture<Role> requestRole(Role role, long generationId) {
            asked = role;
            askedGeneration = generationId;
            return answer.get();
        }
    }

    @Test
    void aSwitchThatIgnoresOrRefusesRoleRequestsIsSettledOnceItsRoleIsDecidedAndStaysMastered() throws Exception {
        Instance a = instance("a");
        UnconfirmingSwitch silent = new UnconfirmingSwitch(101, OFVersion.OF_13, CompletableFuture::new);
        a.election.switchConnected(silent).toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertEquals(Role.MASTER, silent.asked, "settled once MASTER was asked for, with no answer");
        TestZooKeeper.await(() -> masterOf(a, 101) != null, "the claim in the cache");
        Mastership m = a.election.getMastership(DatapathId.of(101)).orElseThrow();
        assertEquals("a", m.master(), "decided by the claim in ZooKeeper");
        assertEquals(m.generation(), silent.askedGeneration, "asked with the claim's generation");

        // An OpenFlow 1.0 switch without Nicira roles refuses the request with BAD_EXPERIMENTER.
        UnconfirmingSwitch refusing = new UnconfirmingSwitch(102, OFVersion.OF_10, () -> CompletableFuture.failedFuture(
                new OFErrorException(OFFactories.getFactory(OFVersion.OF_10).errorMsgs().buildBadRequestErrorMsg()
                        .setCode(org.projectfloodlight.openflow.protocol.OFBadRequestCode.BAD_EXPERIMENTER)
                        .setData(OFErrorCauseData.NONE).build())));
        a.election.switchConnected(refusing).toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertEquals(Role.MASTER, refusing.asked);
        // The election thread handles the refusal before it settles a switch connected after it.
        a.election.switchConnected(new UnconfirmingSwitch(103, OFVersion.OF_13, CompletableFuture::new))
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
        TestZooKeeper.await(() -> masterOf(a, 103) != null, "the third claim in the cache");
        assertEquals("a", masterOf(a, 102), "a refusal other than STALE does not give the switch up");
        assertEquals("a", masterOf(a, 101));
    }

    private static String masterOf(Instance i, long dpid) {
        return i.election.getMastership(DatapathId.of(dpid)).map(Mastership::master).orElse(null);
    }

    private boolean oneMasterEach() {
        return switches.values().stream().allMatch(m -> instances.stream()
                .filter(i -> i.connections.get(m.dpid).getRole() == Role.MASTER).count() == 1);
    }
}
