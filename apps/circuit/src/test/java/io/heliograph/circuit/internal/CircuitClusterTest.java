package io.heliograph.circuit.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFVersion;

import io.heliograph.circuit.engine.AduReport;
import io.heliograph.circuit.engine.FiveTuple;
import io.heliograph.core.Role;
import io.heliograph.core.json.Json;
import io.heliograph.core.testing.Eventually;
import io.heliograph.core.testing.FakeClusterService;
import io.heliograph.core.testing.FakeSwitch;
import io.heliograph.core.testing.FakeSwitchService;
import io.heliograph.core.testing.InMemorySharedStore;

/**
 * Two instances of the app on one store (unit level: the in-memory store, manual clocks): one runs the
 * loop and every instance serves its weeks; each instance's ADU estimate reaches the store and the loop
 * sums them; a choice made on one is used by both; only the circuit switch's master executes.
 */
class CircuitClusterTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final long WEEK = CircuitFixture.WEEK_NANOS;

    private final InMemorySharedStore storeA = new InMemorySharedStore();
    private final InMemorySharedStore storeB = storeA.anotherInstance("b");
    private final FakeClusterService clusterA = new FakeClusterService("a");
    private final FakeClusterService clusterB = clusterA.anotherInstance("b");
    private final ManualTimer timer = new ManualTimer(20 * WEEK + 1);
    private CircuitRuntime a;
    private CircuitRuntime b;

    @AfterEach
    void stop() {
        for (CircuitRuntime r : new CircuitRuntime[] {a, b}) {
            if (r != null) {
                r.stop();
            }
        }
    }

    private static void await(String what, BooleanSupplier condition) {
        Eventually.await(what, WAIT, condition);
    }

    private CircuitRuntime instance(CircuitSettings settings, String id, InMemorySharedStore store,
            FakeClusterService cluster) throws InterruptedException {
        CircuitRuntime r = new CircuitRuntime(settings, id, timer::now, timer);
        r.start();
        r.clusterSharing().bindStore(store);
        r.clusterSharing().bindCluster(cluster);
        await(id + " to share", () -> r.clusterSharing().current() != null);
        return r;
    }

    private static AduReport written(String src, String dst, long bytes) {
        return AduReport.written(new FiveTuple(src, 40000, dst, 5001, 6), bytes);
    }

    @Test
    void oneInstanceSchedulesEveryInstanceServesAndTheAduEstimatesAreSummed() throws Exception {
        a = instance(CircuitSettings.DEFAULTS, "a", storeA, clusterA);
        b = instance(CircuitSettings.DEFAULTS, "b", storeB, clusterB);
        await("one instance to schedule", () -> (a.schedulingHere() ^ b.schedulingHere())
                && storeA.get(CircuitSharing.WEEKS).isPresent());
        CircuitRuntime leader = a.schedulingHere() ? a : b;
        CircuitRuntime other = leader == a ? b : a;
        await("the other to serve the weeks", () -> other.current().isPresent());
        assertEquals(leader.current(), other.current());
        assertEquals(20, other.current().orElseThrow().week());

        // ADUs to each instance; each publishes its estimate, the leader sums them
        leader.currentSetup().adu().report(List.of(written("10.0.0.1", "10.0.1.1", 1_000_000)));
        other.currentSetup().adu().report(List.of(written("10.0.0.2", "10.0.1.2", 500_000),
                written("10.0.2.1", "10.0.3.1", 3_000_000)));
        other.clusterSharing().current().publishAdu();
        double[][] sum = leader.estimate("adu").demand();
        assertEquals(1_500_000, sum[0][1]);
        assertEquals(3_000_000, sum[2][3]);
        assertEquals(1_000_000, other.currentSetup().adu().estimate()[0][1] + 500_000, "each keeps its own");
        // an instance's stale estimate (it died) is not summed
        storeA.put(CircuitSharing.ADU + "/dead", Json.compact(java.util.Map.of("atMillis", 1L,
                "estimate", PublishedWeeks.whole(new double[][] {{0, 9, 9, 9}, {9, 0, 9, 9}, {9, 9, 0, 9}, {9, 9, 9, 0}}))));
        assertEquals(1_500_000, leader.estimate("adu").demand()[0][1]);

        // a choice made on the other instance is the leader's too, and its next week uses it
        other.choose("{\"scheduler\": \"round-robin\", \"estimator\": \"adu\"}");
        await("the choice to reach the leader", () -> leader.choiceInUse().scheduler().equals("round-robin"));
        timer.advanceTo(20 * WEEK + WEEK / 2);
        await("the next week everywhere", () -> other.next().isPresent());
        assertEquals("round-robin", other.next().orElseThrow().scheduler());
        assertEquals("adu", other.next().orElseThrow().estimator());
        assertEquals(1_500_000, other.next().orElseThrow().demand()[0][1]);
    }

    @Test
    void onlyTheMasterOfTheCircuitSwitchExecutesEachWeekOnce() throws Exception {
        CircuitSettings withFabric = CircuitSettings.read("", 80, 10, 2000, 20, 200, 1000, "solstice", "voq", "", 1, 0,
                65_536, "circuit=16; rack0=1/1/1/2; rack1=2/2/1/2; rack2=3/3/1/2; rack3=4/4/1/2");
        FakeSwitch masterView = new FakeSwitch(0x10, OFVersion.OF_14);
        masterView.requestRole(Role.MASTER, 1);
        FakeSwitch slaveView = new FakeSwitch(0x10, OFVersion.OF_14);
        slaveView.requestRole(Role.SLAVE, 1);
        a = new CircuitRuntime(withFabric, "a", timer::now, timer);
        b = new CircuitRuntime(withFabric, "b", timer::now, timer);
        a.switches.bind(new FakeSwitchService().add(masterView));
        b.switches.bind(new FakeSwitchService().add(slaveView));
        a.start();
        b.start();
        for (CircuitRuntime r : List.of(a, b)) {
            r.clusterSharing().bindStore(r == a ? storeA : storeB);
            r.clusterSharing().bindCluster(r == a ? clusterA : clusterB);
        }
        await("both to serve the weeks of the singleton's loop", () -> storeA.get(CircuitSharing.WEEKS).isPresent()
                && a.current().isPresent() && b.current().isPresent() && (a.schedulingHere() ^ b.schedulingHere()));
        timer.advanceTo(21 * WEEK);
        await("week 21 everywhere", () -> a.current().orElseThrow().week() == 21 && b.current().orElseThrow().week() == 21);
        Object weeksA = a.currentSetup().executor().status().get("weeksReceived");
        Object weeksB = b.currentSetup().executor().status().get("weeksReceived");
        assertEquals(0L, weeksB, "a SLAVE of the circuit switch does not execute");
        assertTrue((Long) weeksA >= 2, "the master executed weeks 20, 21 (and 20 before sharing): " + weeksA);
        assertTrue((Long) weeksA <= 3, "each week once: " + weeksA);
        assertNotEquals(null, a.scheduler().get("executor"));
        assertEquals(true, a.scheduler().get("executing"));
        assertEquals(false, b.scheduler().get("executing"));
    }
}
