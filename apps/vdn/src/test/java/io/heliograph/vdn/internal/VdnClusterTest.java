package io.heliograph.vdn.internal;

import static io.heliograph.vdn.internal.VdnFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.core.testing.Eventually;
import io.heliograph.core.testing.FakeClusterService;
import io.heliograph.core.testing.InMemorySharedStore;
import io.heliograph.core.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two instances of the app on one store (the in-memory store): what the operator sets on one and what an
 * agent reports to the other both reach the one that decides; every instance serves its RIBs; when it
 * stops, the other decides on from the next version.
 */
class VdnClusterTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-29T12:00:00Z"));
    private final InMemorySharedStore storeA = new InMemorySharedStore();
    private final InMemorySharedStore storeB = storeA.anotherInstance("b");
    private final FakeClusterService clusterA = new FakeClusterService("a");
    private final FakeClusterService clusterB = clusterA.anotherInstance("b");
    private VdnRuntime a;
    private VdnRuntime b;

    @AfterEach
    void stop() {
        for (VdnRuntime r : new VdnRuntime[] {a, b}) {
            if (r != null) {
                r.stop();
            }
        }
    }

    private static void await(String what, BooleanSupplier condition) {
        Eventually.await(what, WAIT, condition);
    }

    private VdnRuntime instance(String id, InMemorySharedStore store, FakeClusterService cluster) throws Exception {
        VdnRuntime r = VdnFixture.started(id, clock);
        r.clusterSharing().bindStore(store);
        r.clusterSharing().bindCluster(cluster);
        await(id + " to share", () -> r.clusterSharing().current() != null);
        return r;
    }

    private static boolean deciding(VdnRuntime r) {
        return Boolean.TRUE.equals(r.decision().get("decidingHere"));
    }

    @Test
    void oneInstanceDecidesEveryInstanceServesAndAnotherTakesOver() throws Exception {
        a = instance("a", storeA, clusterA);
        b = instance("b", storeB, clusterB);
        await("one instance to decide", () -> deciding(a) ^ deciding(b));
        VdnRuntime leader = deciding(a) ? a : b;
        VdnRuntime other = leader == a ? b : a;

        other.putTopology(json(VdnFixture.TOPOLOGY));
        await("the topology on the leader", () -> leader.network().topology() != null);
        Map<String, String> keys = leader.agentKeys();
        assertEquals(keys, other.agentKeys(), "one key per cluster, the same everywhere");
        other.report("E1", keys.get("E1"), json(VdnFixture.E1_REPORT));
        await("the report on the leader", () -> leader.reports().containsKey("E1"));

        assertEquals(0L, other.decision().get("version"));
        other.decideNow().get();
        assertEquals(0L, other.decision().get("version"), "only the leader decides");
        leader.decideNow().get();
        long first = (Long) leader.decision().get("version");
        assertTrue(first >= 1, "a decision: " + leader.decision());
        await("the decision everywhere", () -> other.latestDecision().version() == first);
        assertEquals(leader.rib("E1"), other.rib("E1"), "the other serves the same RIB, from the store");
        assertEquals("R1", VdnRuntime.TABLES.fromJson(other.rib("E1")).lookup("news/800").orElseThrow().value());
        assertEquals(leader.trees("news"), other.trees("news"));

        // the leader stops (its candidacy closes): the other decides on, from the next version
        leader.stop();
        if (leader == a) {
            a = null;
        } else {
            b = null;
        }
        await("the other to lead", () -> deciding(other));
        other.decideNow().get();
        assertTrue(other.latestDecision().version() > first, "versions go on: " + other.latestDecision().version());
        assertEquals("R1", VdnRuntime.TABLES.fromJson(other.rib("E1")).lookup("news/800").orElseThrow().value());
    }
}
