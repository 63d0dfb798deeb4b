package io.heliograph.webui.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.cluster.Mastership;
import io.heliograph.core.cluster.MastershipService;

/**
 * Masterships the test sets up. A move to a candidate makes it master with the next generation, as
 * the election would once the switch confirms; a move the election would refuse fails with an
 * IllegalArgumentException naming the problem. {@link #answerMovesWith} replaces that answer (a future
 * that never completes, a failure) for the tests of waiting. Every move and rebalance asked is recorded.
 */
public final class FakeMasterships implements MastershipService {

    private final Map<DatapathId, Mastership> masterships = new LinkedHashMap<>();
    private final List<String> asked = new ArrayList<>();
    private long generation = 100;
    private Supplier<CompletableFuture<Mastership>> moveAnswer;
    private Supplier<CompletableFuture<Map<DatapathId, Mastership>>> rebalanceAnswer;

    /** Switch {@code dpid} with master {@code master} (null: none) and these candidates. */
    public synchronized FakeMasterships put(long dpid, String master, String... candidates) {
        DatapathId id = DatapathId.of(dpid);
        masterships.put(id, new Mastership(id, master, master == null ? 0 : ++generation, Set.of(candidates)));
        return this;
    }

    public synchronized FakeMasterships remove(long dpid) {
        masterships.remove(DatapathId.of(dpid));
        return this;
    }

    /** What every later move answers instead of moving. */
    public synchronized void answerMovesWith(Supplier<CompletableFuture<Mastership>> answer) {
        moveAnswer = answer;
    }

    /** What every later rebalance answers instead of rebalancing. */
    public synchronized void answerRebalancesWith(Supplier<CompletableFuture<Map<DatapathId, Mastership>>> answer) {
        rebalanceAnswer = answer;
    }

    /** The moves and rebalances asked so far: "move 00:..:01 to c2", "rebalance". */
    public synchronized List<String> asked() {
        return List.copyOf(asked);
    }

    @Override
    public synchronized Map<DatapathId, Mastership> getMasterships() {
        return Map.copyOf(masterships);
    }

    @Override
    public synchronized Optional<Mastership> getMastership(DatapathId switchId) {
        return Optional.ofNullable(masterships.get(switchId));
    }

    @Override
    public synchronized CompletableFuture<Mastership> moveMastership(DatapathId switchId, String instanceId) {
        asked.add("move " + switchId + " to " + instanceId);
        if (moveAnswer != null) {
            return moveAnswer.get();
        }
        Mastership now = masterships.get(switchId);
        if (now == null) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("no instance is connected to switch "
                    + switchId));
        }
        if (!now.candidates().contains(instanceId)) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("instance " + instanceId
                    + " is not connected to switch " + switchId + "; its candidates are " + new TreeSet<>(now.candidates())));
        }
        return CompletableFuture.completedFuture(become(switchId, instanceId));
    }

    /** Every switch to its candidates in turn, in datapath id order: an even spread when all see all. */
    @Override
    public synchronized CompletableFuture<Map<DatapathId, Mastership>> rebalance() {
        asked.add("rebalance");
        if (rebalanceAnswer != null) {
            return rebalanceAnswer.get();
        }
        int turn = 0;
        List<DatapathId> switches = new ArrayList<>(masterships.keySet());
        switches.sort((a, b) -> Long.compareUnsigned(a.getLong(), b.getLong()));
        for (DatapathId id : switches) {
            List<String> candidates = new ArrayList<>(new TreeSet<>(masterships.get(id).candidates()));
            String next = candidates.get(turn++ % candidates.size());
            if (!next.equals(masterships.get(id).master())) {
                become(id, next);
            }
        }
        return CompletableFuture.completedFuture(Map.copyOf(masterships));
    }

    private Mastership become(DatapathId id, String master) {
        Mastership moved = new Mastership(id, master, ++generation, masterships.get(id).candidates());
        masterships.put(id, moved);
        return moved;
    }
}
