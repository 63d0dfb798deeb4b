package io.heliograph.cluster.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.projectfloodlight.openflow.protocol.OFErrorType;
import org.projectfloodlight.openflow.types.DatapathId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.OFErrorException;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.Role;
import io.heliograph.core.WorkerThreads;
import io.heliograph.core.cluster.Mastership;
import io.heliograph.core.cluster.MastershipService;

/**
 * Elects one MASTER per switch among the instances connected to it, through ZooKeeper:
 *
 * <ul>
 * <li>{@code /heliograph/switches/<dpid>/candidates/<instance>} (ephemeral): the instance is
 * connected to the switch.</li>
 * <li>{@code /heliograph/switches/<dpid>/master} (ephemeral, the instance id): the master. Its
 * creation transaction id (czxid) is the generation id of the master's role request: ZooKeeper makes
 * it larger for every later creation, so each new master's generation is larger than every earlier
 * one and the switch refuses a deposed master.</li>
 * <li>{@code /heliograph/switches/<dpid>/preferred} (persistent): who should master it, written by
 * the balancer (the leader instance), an operator's move, or a graceful hand-over. The master hands
 * a switch over when its preferred instance is a connected candidate.</li>
 * </ul>
 *
 * A masterless switch is claimed by its preferred instance if that is a candidate, else by the first
 * candidate in {@link Rendezvous} order; the others claim after {@code takeoverGraceMs} per rank in
 * case the first cannot. Claims are creations of one ephemeral node, so at most one succeeds.
 *
 * <p>Every decision runs on one thread ("mastership"); ZooKeeper calls are asynchronous.
 */
final class MastershipElection implements MastershipService, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MastershipElection.class);

    static final String ROOT = ClusterPaths.SWITCHES;
    /** The balancer's election; apart from {@link ClusterPaths#LEADERS}, which apps name. */
    static final String LEADER = ClusterPaths.ROOT + "/mastership-balancer";
    private static final String CANDIDATES = "/candidates/";
    private static final long MOVE_TIMEOUT_MS = 10_000;
    /** How many takeover graces the others add when a masterless switch's preferred instance is a candidate. */
    private static final int MOVE_GRACE_FACTOR = 5;

    private final CuratorFramework client;
    private final String me;
    private final long takeoverGraceMs;
    private final boolean balance;
    private final long balanceDelayMs;
    private final ScheduledExecutorService thread;
    private final CuratorCache cache;
    /** Every instance seen as a candidate for some switch, this one included from the start: a cluster's few. */
    private final Set<String> candidateNames = ConcurrentHashMap.newKeySet();
    private final LeaderLatch balancerLatch;
    private final Map<DatapathId, Local> locals = new HashMap<>();
    private final List<Waiter> waiters = new ArrayList<>();
    private volatile boolean connected;
    private boolean closing;
    private ScheduledFuture<?> pendingBalance;

    /** One switch connected to this instance. */
    private static final class Local {
        final OFSwitch sw;
        final DatapathId id;
        final CompletableFuture<Void> settled = new CompletableFuture<>();
        boolean candidate;
        boolean claiming;
        /** The generation we are master with (role requested or confirmed), -1 when not master. */
        long masterGeneration = -1;
        /** Our master node as our claim's reply described it, until the cache shows it; null when none. */
        Stat claim;
        /** The generation of the master we last told the switch we are slave of, -1 when none. */
        long slaveGeneration = -1;
        long masterLeftNanos;
        ScheduledFuture<?> fallback;
        /** Whether "acting as master without a switch-side role" was said for this connection. */
        boolean unconfirmedLogged;

        Local(OFSwitch sw) {
            this.sw = sw;
            this.id = sw.getId();
        }
    }

    private record Waiter(Predicate<MastershipElection> done, CompletableFuture<Void> future) {
    }

    MastershipElection(CuratorFramework client, String instanceId, long takeoverGraceMs, boolean balance,
                       long balanceDelayMs) {
        this.client = client;
        this.me = instanceId;
        candidateNames.add(instanceId);
        this.takeoverGraceMs = takeoverGraceMs;
        this.balance = balance;
        this.balanceDelayMs = balanceDelayMs;
        this.thread = WorkerThreads.single("mastership-" + instanceId);
        this.cache = CuratorCache.build(client, ROOT);
        this.balancerLatch = new LeaderLatch(client, LEADER, instanceId);
    }

    void start() throws Exception {
        client.createContainers(ROOT);
        cache.listenable().addListener(CuratorCacheListener.builder()
                .forAll((type, before, after) -> {
                    ChildData d = after != null ? after : before;
                    if (d != null) {
                        noteCandidate(d.getPath());
                        post(() -> changed(d.getPath()));
                    }
                }).build(), thread);
        cache.start();
        balancerLatch.addListener(new LeaderLatchListener() {
            @Override
            public void isLeader() {
                LOG.info("this instance ({}) balances switch mastership", me);
                post(() -> scheduleBalance());
            }

            @Override
            public void notLeader() {
                LOG.info("this instance ({}) no longer balances switch mastership", me);
            }
        }, thread);
        balancerLatch.start();
    }

    // ---- from the switch side ----

    /**
     * A switch finished its handshake here: become a candidate; completes when its role is decided
     * (by ZooKeeper) and asked of the switch, not when the switch answers, so a switch that ignores
     * role requests is announced and served.
     */
    CompletionStage<Void> switchConnected(OFSwitch sw) {
        Local l = new Local(sw);
        post(() -> {
            Local old = locals.put(l.id, l);
            if (old != null) {
                cancelFallback(old); // an older connection of the same switch, being replaced
                l.candidate = old.candidate;
            }
            if (connected) {
                register(l);
            }
        });
        return l.settled;
    }

    void switchDisconnected(OFSwitch sw) {
        post(() -> {
            Local l = locals.get(sw.getId());
            if (l != null && l.sw == sw) { // else replaced by a newer connection, which keeps the candidacy
                drop(l);
            }
        });
    }

    /** The switch is gone from here: give up its mastership and candidacy, so another takes it at once. */
    private void drop(Local l) {
        locals.remove(l.id);
        cancelFallback(l);
        l.settled.complete(null);
        if (!connected) {
            return;
        }
        releaseMaster(l);
        background("withdraw the candidacy for " + l.id,
                () -> client.delete().quietly().inBackground().forPath(candidatePath(l.id, me)));
    }

    /** Our ZooKeeper session is up again, or suspended/lost: no master without a session. */
    void connectionChanged(boolean up) {
        post(() -> {
            if (up == connected) {
                return;
            }
            connected = up;
            if (!up) {
                int demoted = 0;
                for (Local l : locals.values()) {
                    cancelFallback(l);
                    l.claiming = false;
                    if (l.masterGeneration >= 0) {
                        demote(l, l.masterGeneration);
                        demoted++;
                    }
                    l.candidate = false; // our candidacy may not survive the session: made again on reconnect
                }
                LOG.warn("ZooKeeper session suspended: no longer master of {} switch(es) until it is back", demoted);
                return;
            }
            if (closing) {
                return; // handing over: no candidacy any more
            }
            LOG.info("ZooKeeper session up: {} switch(es) compete for mastership again", locals.size());
            for (Local l : locals.values()) {
                register(l);
            }
        });
    }

    // ---- the election ----

    private void register(Local l) {
        if (closing) {
            return; // handing over at shutdown: no new candidacy
        }
        background("register as a candidate for " + l.id, () -> client.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL).inBackground((c, event) -> {
            int rc = event.getResultCode();
            post(() -> {
                if (rc == KeeperException.Code.OK.intValue() || rc == KeeperException.Code.NODEEXISTS.intValue()) {
                    l.candidate = true;
                    evaluate(l.id, false);
                } else {
                    LOG.warn("{}: could not register as a candidate for mastership: {}", l.sw,
                            KeeperException.Code.get(rc));
                }
            });
        }).forPath(candidatePath(l.id, me), me.getBytes(StandardCharsets.UTF_8)));
    }

    /** A node below ROOT changed: re-decide for its switch. */
    private void changed(String path) {
        DatapathId id = switchOf(path);
        if (id == null) {
            return;
        }
        Local l = locals.get(id);
        if (l != null && connected && !closing && path.equals(candidatePath(id, me)) && cache.get(path).isEmpty() && l.candidate) {
            // Our candidacy vanished (an old session's node expired): make it again.
            l.candidate = false;
            register(l);
        }
        evaluate(id, false);
        if (path.contains(CANDIDATES) && balancerLatch.hasLeadership()) {
            scheduleBalance();
        }
        checkWaiters();
    }

    private void evaluate(DatapathId id, boolean fallbackDue) {
        Local l = locals.get(id);
        if (l == null || !connected || !l.candidate || closing) {
            return;
        }
        if (!l.sw.isConnected()) {
            drop(l); // lost during its handshake, so no switchRemoved will come
            return;
        }
        Optional<ChildData> master = cache.get(masterPath(id));
        if (l.claim != null) {
            if (master.isPresent() && master.get().getStat().getCzxid() >= l.claim.getCzxid()) {
                l.claim = null; // the cache has caught up with our claim
            } else if (l.masterGeneration == l.claim.getCzxid()) {
                return; // master by our claim's reply; the cache does not show the node yet
            }
        }
        if (master.isPresent()) {
            cancelFallback(l);
            String owner = text(master.get().getData());
            long generation = master.get().getStat().getCzxid();
            boolean ours = ours(master.get());
            if (ours) {
                if (l.masterGeneration != generation) {
                    promote(l, generation);
                } else {
                    String preferred = preferred(id);
                    if (preferred != null && !preferred.equals(me) && candidates(id).contains(preferred)) {
                        handOver(l, generation, preferred);
                    }
                }
            } else if (l.slaveGeneration != generation) {
                l.masterLeftNanos = 0;
                if (l.masterGeneration >= 0) {
                    LOG.warn("{}: {} is master now (generation {}); demoting", l.sw, owner, generation);
                }
                demote(l, generation);
            }
            return;
        }
        if (l.masterGeneration >= 0) {
            // Our master node is gone (deleted by someone, or our session ended): stop at once.
            LOG.warn("{}: its master node (generation {}) is gone; demoting", l.sw, l.masterGeneration);
            demote(l, l.masterGeneration);
        }
        if (l.masterLeftNanos == 0) {
            l.masterLeftNanos = System.nanoTime(); // when this instance saw the switch without a master
        }
        List<String> order = takeoverOrder(id);
        int rank = order.indexOf(me);
        if (rank == 0 || (fallbackDue && rank > 0)) {
            claim(l);
        } else if (rank > 0 && l.fallback == null) {
            // A move to a live preferred instance (a hand-over, a re-balance) gives it longer than a
            // fail-over does: it is alive, maybe only slow (starting up, a loaded machine), and a
            // fallback taking the switch instead would undo the move.
            long wait = rank * takeoverGraceMs + (order.get(0).equals(preferred(id)) ? MOVE_GRACE_FACTOR * takeoverGraceMs : 0);
            l.fallback = thread.schedule(() -> {
                l.fallback = null;
                evaluate(id, true);
            }, wait, TimeUnit.MILLISECONDS);
        }
    }

    private void claim(Local l) {
        if (l.claiming) {
            return;
        }
        l.claiming = true;
        try {
            client.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL).inBackground((c, e) -> {
                int rc = e.getResultCode();
                Stat created = e.getStat();
                post(() -> claimed(l, rc, created));
            }).forPath(masterPath(l.id), me.getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            l.claiming = false;
            LOG.warn("{}: claiming mastership failed", l.sw, e);
        }
    }

    /**
     * The reply to our claim. On success it carries the node's creation id, the generation: we act
     * on it at once, not a read later when the cache shows the node (evaluate() then finds the node
     * ours, with the generation we already have).
     */
    private void claimed(Local l, int rc, Stat created) {
        l.claiming = false;
        if (rc == KeeperException.Code.OK.intValue() && created != null) {
            l.claim = created;
            if (closing || locals.get(l.id) != l || !connected) {
                releaseMaster(l); // the hand-over began or the switch left meanwhile: the node is ours; let it go
            } else if (l.masterGeneration < 0) {
                promote(l, created.getCzxid());
            }
        } else if (rc != KeeperException.Code.OK.intValue() && rc != KeeperException.Code.NODEEXISTS.intValue()) {
            LOG.warn("{}: claiming mastership failed: {}", l.sw, KeeperException.Code.get(rc));
        }
    }

    /**
     * Master by the ZooKeeper claim: asks the switch for MASTER with the claim's generation. The
     * switch's role is then decided and its request written, which is all a connecting switch waits
     * for ({@link #switchConnected}); the switch's answer comes when it comes. A switch that ignores
     * or refuses role requests (a 1.0 switch without Nicira roles answers BAD_EXPERIMENTER) is served
     * as master all the same, said once per switch; only a STALE refusal (another master exists)
     * makes this instance give it up.
     */
    private void promote(Local l, long generation) {
        l.masterGeneration = generation;
        l.slaveGeneration = -1;
        long since = l.masterLeftNanos;
        l.masterLeftNanos = 0;
        l.sw.requestRole(Role.MASTER, generation).whenComplete((role, failure) -> post(() -> {
            Throwable e = cause(failure);
            if (l.masterGeneration != generation) {
                return; // demoted meanwhile
            }
            if (e == null) {
                LOG.info("{}: master (generation {}){}", l.sw, generation,
                        since == 0 ? "" : String.format(" %.1f ms after its master node was seen gone",
                                (System.nanoTime() - since) / 1e6));
                evaluate(l.id, false); // taken as a fallback while the preferred instance is a candidate: hand it on
            } else if (e instanceof OFErrorException err && err.getError().getErrType() == OFErrorType.ROLE_REQUEST_FAILED) {
                // The switch saw a newer generation: another master exists that our view has not caught up with.
                LOG.warn("{}: the switch refused MASTER with generation {}: {}; giving the switch up", l.sw, generation,
                        e.getMessage());
                l.masterGeneration = -1;
                releaseMaster(l);
            } else if (!l.unconfirmedLogged) {
                l.unconfirmedLogged = true;
                LOG.warn("{}: the switch did not confirm MASTER ({}); acting as master without a switch-side role",
                        l.sw, e.toString());
            }
            checkWaiters();
        }));
        l.settled.complete(null); // decided, and the request written: the switch may be announced
    }

    /** SLAVE applies at once on our side (no writes from now on); the switch's answer is only logged. */
    private void demote(Local l, long generation) {
        l.masterGeneration = -1;
        l.slaveGeneration = generation;
        l.sw.requestRole(Role.SLAVE, generation).whenComplete((role, failure) -> post(() -> {
            Throwable e = cause(failure);
            if (e != null && !(e instanceof OFErrorException)) {
                LOG.warn("{}: the switch did not confirm SLAVE: {}", l.sw, e.toString());
            }
            // A STALE refusal means a newer master already made us slave; either way we do not write.
        }));
        l.settled.complete(null);
    }

    private void handOver(Local l, long generation, String to) {
        LOG.info("{}: handing mastership over to {}", l.sw, to);
        demote(l, generation);
        releaseMaster(l);
    }

    /** Deletes the switch's master node if it is ours (only that version: a later master's node stays). */
    private void releaseMaster(Local l) {
        OptionalInt version = ownMasterVersion(l);
        l.claim = null;
        if (version.isPresent()) {
            String path = masterPath(l.id);
            background("release " + path, () -> client.delete().withVersion(version.getAsInt()).inBackground().forPath(path));
        }
    }

    /**
     * The version of the switch's master node if this session made it: as the cache shows it, or as
     * our claim's reply described it while the cache does not show it yet.
     */
    private OptionalInt ownMasterVersion(Local l) {
        Optional<ChildData> seen = cache.get(masterPath(l.id)).filter(this::ours);
        if (seen.isPresent()) {
            return OptionalInt.of(seen.get().getStat().getVersion());
        }
        return l.claim != null && l.claim.getEphemeralOwner() == sessionId() ? OptionalInt.of(l.claim.getVersion())
                : OptionalInt.empty();
    }

    private boolean ours(ChildData masterNode) {
        return text(masterNode.getData()).equals(me) && masterNode.getStat().getEphemeralOwner() == sessionId();
    }

    /** The preferred instance if it is a candidate, then the others in rendezvous order. */
    private List<String> takeoverOrder(DatapathId id) {
        Set<String> candidates = candidates(id);
        List<String> order = new ArrayList<>(Rendezvous.order(key(id), candidates));
        String preferred = preferred(id);
        if (preferred != null && order.remove(preferred)) {
            order.add(0, preferred);
        }
        return order;
    }

    // ---- balancing ----

    private void scheduleBalance() {
        if (!balance || closing) {
            return;
        }
        if (pendingBalance != null) {
            pendingBalance.cancel(false);
        }
        pendingBalance = thread.schedule(() -> {
            pendingBalance = null;
            if (balancerLatch.hasLeadership() && connected) {
                writePreferences();
            }
        }, balanceDelayMs, TimeUnit.MILLISECONDS);
    }

    /** Computes a balanced assignment and writes the preferences that change; returns it. */
    private Map<String, String> writePreferences() {
        Map<String, Set<String>> candidates = new LinkedHashMap<>();
        Map<String, String> masters = new HashMap<>();
        for (DatapathId id : knownSwitches()) {
            candidates.put(key(id), candidates(id));
            masterOf(id).ifPresent(m -> masters.put(key(id), m));
        }
        Map<String, String> assignment = MastershipBalancer.assign(candidates, masters);
        int moves = 0;
        for (Map.Entry<String, String> a : assignment.entrySet()) {
            DatapathId id = DatapathId.of(Long.parseUnsignedLong(a.getKey(), 16));
            if (!a.getValue().equals(preferred(id))) {
                setPreferred(id, a.getValue());
            }
            if (!a.getValue().equals(masters.get(a.getKey()))) {
                moves++;
            }
        }
        if (moves > 0) {
            LOG.info("balancing: {} of {} switch(es) move to another master", moves, assignment.size());
        }
        return assignment;
    }

    private void setPreferred(DatapathId id, String instance) {
        try {
            client.create().orSetData().creatingParentContainersIfNeeded().inBackground()
                    .forPath(preferredPath(id), instance.getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            LOG.warn("could not set the preferred master of {}", id, e);
        }
    }

    // ---- MastershipService ----

    @Override
    public Map<DatapathId, Mastership> getMasterships() {
        Map<DatapathId, Mastership> all = new LinkedHashMap<>();
        for (DatapathId id : knownSwitches()) {
            Set<String> c = candidates(id);
            if (!c.isEmpty()) {
                all.put(id, mastership(id, c));
            }
        }
        return all;
    }

    @Override
    public Optional<Mastership> getMastership(DatapathId switchId) {
        Set<String> c = candidates(switchId);
        return c.isEmpty() ? Optional.empty() : Optional.of(mastership(switchId, c));
    }

    @Override
    public CompletableFuture<Mastership> moveMastership(DatapathId switchId, String instanceId) {
        Set<String> c = candidates(switchId);
        if (c.isEmpty()) {
            return CompletableFuture.failedFuture(new IllegalArgumentException(
                    "no instance is connected to switch " + switchId));
        }
        if (!c.contains(instanceId)) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("instance '" + instanceId
                    + "' is not connected to switch " + switchId + "; its candidates are " + c));
        }
        CompletableFuture<Void> done = await(e -> instanceId.equals(e.masterOf(switchId).orElse(null)));
        post(() -> setPreferred(switchId, instanceId));
        return done.thenApply(v -> mastership(switchId, candidates(switchId)));
    }

    @Override
    public CompletableFuture<Map<DatapathId, Mastership>> rebalance() {
        CompletableFuture<Map<String, String>> assignment = new CompletableFuture<>();
        post(() -> assignment.complete(writePreferences()));
        return assignment.thenCompose(a -> await(e -> a.entrySet().stream().allMatch(x -> x.getValue()
                        .equals(e.masterOf(DatapathId.of(Long.parseUnsignedLong(x.getKey(), 16))).orElse(null))))
                .thenApply(v -> getMasterships()));
    }

    private CompletableFuture<Void> await(Predicate<MastershipElection> condition) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        post(() -> {
            waiters.add(new Waiter(condition, f));
            checkWaiters();
        });
        return f.orTimeout(MOVE_TIMEOUT_MS, TimeUnit.MILLISECONDS).exceptionallyCompose(e -> CompletableFuture
                .failedFuture(e instanceof TimeoutException ? new TimeoutException("mastership did not move within "
                        + MOVE_TIMEOUT_MS + " ms") : e));
    }

    private void checkWaiters() {
        for (Iterator<Waiter> i = waiters.iterator(); i.hasNext(); ) {
            Waiter w = i.next();
            if (w.future.isDone() || w.done.test(this)) {
                w.future.complete(null);
                i.remove();
            }
        }
    }

    private Mastership mastership(DatapathId id, Set<String> candidates) {
        Optional<ChildData> m = cache.get(masterPath(id));
        return new Mastership(id, m.map(d -> text(d.getData())).orElse(null),
                m.map(d -> d.getStat().getCzxid()).orElse(0L), candidates);
    }

    // ---- shutdown ----

    /**
     * Hands every switch this instance masters to its successor and withdraws every candidacy, then
     * waits at most {@code timeoutMs} until each of those switches has its new master in ZooKeeper
     * (whose role request follows at once).
     *
     * <p>First this instance stops acting as master: it asks each switch to make it SLAVE, which
     * stops its connection writing before the request is even sent. Then, without waiting for the
     * switches, ONE ZooKeeper transaction (all or nothing, one round trip) writes each switch's
     * successor as its preferred instance, deletes this instance's candidacies and deletes its master
     * nodes, in that order. Not waiting is safe: a successor can send its MASTER request only after
     * that transaction and its own claim are committed, and the switch keeps one master at a time
     * (a MASTER request makes the previous master SLAVE, and a request with an older generation is
     * refused), so a write of ours that reaches the switch late is refused, never obeyed beside the
     * successor's.
     *
     * <p>The successor is the candidate the others pick themselves when a master node goes and its
     * owner is no longer a candidate: the preferred instance if it is another candidate, else the
     * first in {@link Rendezvous} order. Every instance sees deletions as soon as they are committed
     * but a changed preference only after reading it, so the successor claims on the deletion
     * itself, with no grace and no read, and no one else claims first; the balancer evens the load
     * out afterwards. Without its candidacies the leaving instance is no longer given switches by
     * the balancer or a move, which it would never take.
     */
    void handOverAll(long timeoutMs) {
        CompletableFuture<List<DatapathId>> released = new CompletableFuture<>();
        post(() -> {
            HandOver h = beginHandOver();
            commit(h);
            released.complete(h.successors.entrySet().stream().filter(s -> s.getValue() != null)
                    .map(Map.Entry::getKey).toList()); // a switch with no other candidate is left masterless
        });
        try {
            List<DatapathId> ids = released.get(timeoutMs, TimeUnit.MILLISECONDS);
            await(e -> ids.stream().allMatch(id -> e.masterOf(id).filter(m -> !m.equals(me)).isPresent()))
                    .get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            LOG.warn("hand-over at shutdown not confirmed within {} ms: {}", timeoutMs, e.toString());
        }
    }

    /** What a shutdown releases: the mastered switches with their successors (null: none), the candidacies. */
    private static final class HandOver {
        final Map<DatapathId, String> successors = new LinkedHashMap<>();
        final List<DatapathId> candidacies = new ArrayList<>();
    }

    /** On the thread: stops competing and acting as master; returns what to release. */
    private HandOver beginHandOver() {
        closing = true;
        if (pendingBalance != null) {
            pendingBalance.cancel(false);
            pendingBalance = null;
        }
        HandOver h = new HandOver();
        for (Local l : locals.values()) {
            cancelFallback(l);
            l.candidate = false; // withdrawn by the transaction; not made again
            if (!connected) {
                continue; // demoted when the session was suspended; its nodes go with the session
            }
            if (cache.get(candidatePath(l.id, me)).isPresent()) {
                h.candidacies.add(l.id);
            }
            if (l.masterGeneration >= 0) {
                demote(l, l.masterGeneration);
                List<String> order = takeoverOrder(l.id);
                order.remove(me);
                h.successors.put(l.id, order.isEmpty() ? null : order.get(0));
            }
        }
        if (!h.successors.isEmpty()) {
            Set<String> to = new TreeSet<>(h.successors.values().stream().map(i -> i == null ? "nobody" : i).toList());
            StringBuilder which = new StringBuilder();
            h.successors.forEach((id, i) -> which.append(which.length() == 0 ? "" : ", ").append(id).append(" to ")
                    .append(i == null ? "nobody (no other candidate)" : i));
            LOG.info("handing mastership over to {} (shutting down): {}", String.join(" and ", to), which);
        }
        return h;
    }

    /** On the thread: the one transaction of a hand-over; one call per node if it cannot commit. */
    private void commit(HandOver h) {
        if (!connected) {
            LOG.warn("hand-over: no ZooKeeper session; the switches go to the others when it ends");
            return;
        }
        List<CuratorOp> ops = new ArrayList<>();
        try {
            for (Map.Entry<DatapathId, String> s : h.successors.entrySet()) {
                String to = s.getValue();
                if (to != null) {
                    byte[] data = to.getBytes(StandardCharsets.UTF_8);
                    String path = preferredPath(s.getKey());
                    ops.add(cache.get(path).isPresent() ? client.transactionOp().setData().forPath(path, data)
                            : client.transactionOp().create().forPath(path, data));
                }
            }
            for (DatapathId id : h.candidacies) {
                ops.add(client.transactionOp().delete().forPath(candidatePath(id, me)));
            }
            for (DatapathId id : h.successors.keySet()) {
                OptionalInt version = ownMasterVersion(locals.get(id));
                if (version.isPresent()) {
                    ops.add(client.transactionOp().delete().withVersion(version.getAsInt()).forPath(masterPath(id)));
                }
            }
            if (ops.isEmpty()) {
                return;
            }
            client.transaction().inBackground((c, event) -> {
                int rc = event.getResultCode();
                if (rc != KeeperException.Code.OK.intValue()) {
                    post(() -> {
                        LOG.warn("hand-over: the transaction of {} operation(s) failed ({}); releasing one node at a time",
                                ops.size(), KeeperException.Code.get(rc));
                        commitOneByOne(h);
                    });
                }
            }).forOperations(ops);
        } catch (Exception e) {
            LOG.warn("hand-over: could not send the transaction ({}); releasing one node at a time", e.toString());
            commitOneByOne(h);
        }
    }

    /** The hand-over without a transaction: what was not released already is released node by node. */
    private void commitOneByOne(HandOver h) {
        h.successors.forEach((id, to) -> {
            if (to != null && !to.equals(preferred(id))) {
                setPreferred(id, to);
            }
        });
        for (DatapathId id : h.candidacies) {
            background("withdraw the candidacy for " + id,
                    () -> client.delete().quietly().inBackground().forPath(candidatePath(id, me)));
        }
        h.successors.keySet().stream().map(locals::get).filter(l -> l != null).forEach(this::releaseMaster);
    }

    @Override
    public void close() {
        try {
            balancerLatch.close(LeaderLatch.CloseMode.SILENT);
        } catch (Exception e) {
            LOG.debug("closing the balancer latch", e);
        }
        cache.close();
        thread.shutdownNow();
    }

    // ---- helpers on the cache ----

    private Optional<String> masterOf(DatapathId id) {
        return cache.get(masterPath(id)).map(d -> text(d.getData()));
    }

    private String preferred(DatapathId id) {
        return cache.get(preferredPath(id)).map(d -> text(d.getData())).orElse(null);
    }

    /**
     * The instances whose candidacy for the switch the cache holds: each instance ever seen as a
     * candidate is looked up, which costs the cluster's size, where a scan of the cache cost every
     * node of every switch (with a thousand switches connecting, the square of their number).
     */
    private Set<String> candidates(DatapathId id) {
        Set<String> c = new TreeSet<>();
        for (String instance : candidateNames) {
            if (cache.get(candidatePath(id, instance)).isPresent()) {
                c.add(instance);
            }
        }
        return c;
    }

    /** Remembers the instance of a candidacy path (the cache's listener sees every node, on the way in). */
    private void noteCandidate(String path) {
        int at = path.indexOf(CANDIDATES);
        if (at >= 0 && switchOf(path) != null) {
            candidateNames.add(path.substring(at + CANDIDATES.length()));
        }
    }

    private List<DatapathId> knownSwitches() {
        String prefix = ROOT + "/";
        List<DatapathId> ids = new ArrayList<>();
        cache.stream().map(ChildData::getPath)
                .filter(p -> p.startsWith(prefix) && p.indexOf('/', prefix.length()) < 0)
                .forEach(p -> {
                    DatapathId id = switchOf(p);
                    if (id != null) {
                        ids.add(id);
                    }
                });
        return ids;
    }

    private long sessionId() {
        try {
            return client.getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            return -1;
        }
    }

    /** A ZooKeeper call whose result comes back in a callback; it throws only when it cannot be sent. */
    private interface BackgroundCall {
        void send() throws Exception;
    }

    private static void background(String what, BackgroundCall call) {
        try {
            call.send();
        } catch (Exception e) {
            LOG.warn("could not {}: {}", what, e.toString());
        }
    }

    private void cancelFallback(Local l) {
        if (l.fallback != null) {
            l.fallback.cancel(false);
            l.fallback = null;
        }
    }

    private void post(Runnable task) {
        try {
            thread.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    LOG.warn("mastership: unexpected failure", e);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            LOG.debug("mastership stopped; event dropped");
        }
    }

    static String key(DatapathId id) {
        return String.format("%016x", id.getLong());
    }

    static String switchPath(DatapathId id) {
        return ROOT + "/" + key(id);
    }

    static String masterPath(DatapathId id) {
        return switchPath(id) + "/master";
    }

    static String preferredPath(DatapathId id) {
        return switchPath(id) + "/preferred";
    }

    static String candidatePath(DatapathId id, String instance) {
        return switchPath(id) + CANDIDATES + instance;
    }

    /** The switch a path below ROOT belongs to, or null. */
    static DatapathId switchOf(String path) {
        if (!path.startsWith(ROOT + "/")) {
            return null;
        }
        String rest = path.substring(ROOT.length() + 1);
        int slash = rest.indexOf('/');
        String key = slash < 0 ? rest : rest.substring(0, slash);
        if (key.length() != 16) {
            return null;
        }
        try {
            return DatapathId.of(Long.parseUnsignedLong(key, 16));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Throwable cause(Throwable e) {
        return e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
    }

    private static String text(byte[] data) {
        return data == null ? "" : new String(data, StandardCharsets.UTF_8);
    }
}
