package io.heliograph.vdn.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import io.heliograph.vdn.engine.Advertisement.Distance;

class DistanceVectorTest {

    private static final Instant T0 = Instant.parse("2026-11-29T15:20:00Z");

    @Test
    void aParentsDistanceArrivesOneHopFartherAndNoWiderThanTheLinkFromIt() {
        DistanceVector a = new DistanceVector("A");
        a.receive(new Advertisement("X", Map.of("v0/800", Distance.SUBSCRIBED, "v1/800", new Distance(1, 5000))), 3000, T0);
        assertEquals(Map.of("X", new Distance(1, 3000)), a.routes("v0/800"));
        assertEquals(Map.of("X", new Distance(2, 3000)), a.routes("v1/800"));
        a.receive(new Advertisement("Y", Map.of("v1/800", new Distance(1, 1500))), 9000, T0);
        assertEquals(Map.of("X", new Distance(2, 3000), "Y", new Distance(2, 1500)), a.routes("v1/800"));
        a.receive(new Advertisement("X", Map.of("v0/800", Distance.SUBSCRIBED)), 3000, T0);
        assertEquals(Map.of("Y", new Distance(2, 1500)), a.routes("v1/800"), "X's new advertisement no longer has v1/800");
        assertTrue(a.parentLost("Y"));
        assertEquals(Map.of(), a.routes("v1/800"));
        a.receive(new Advertisement("Z", Map.of("v0/800", Distance.SUBSCRIBED)), -5, T0);
        assertEquals(new Distance(1, 0), a.routes("v0/800").get("Z"), "an overloaded link has no slack, not a negative one");
    }

    @Test
    void aParentNotHeardForLongerThanTheTimeoutIsForgotten() {
        DistanceVector a = new DistanceVector("A");
        a.receive(new Advertisement("X", Map.of("v0/800", Distance.SUBSCRIBED)), 3000, T0);
        a.receive(new Advertisement("Y", Map.of("v0/800", Distance.SUBSCRIBED)), 3000, T0.plusSeconds(2));
        Duration threePeriods = Duration.ofSeconds(3);
        assertEquals(List.of(), a.expireParents(T0.plusSeconds(3), threePeriods), "exactly the timeout is not yet a failure");
        assertEquals(List.of("X"), a.expireParents(T0.plusMillis(3001), threePeriods));
        assertEquals(Map.of("Y", new Distance(1, 3000)), a.routes("v0/800"));
        a.receive(new Advertisement("Y", Map.of("v0/800", Distance.SUBSCRIBED)), 3000, T0.plusSeconds(6));
        assertEquals(List.of(), a.expireParents(T0.plusSeconds(8), threePeriods), "Y was heard again");
    }

    @Test
    void aClusterAdvertisesZeroForWhatItReceivesElseTheClosestPathWithEnoughCapacity() {
        DistanceVector a = new DistanceVector("A");
        a.receive(new Advertisement("X", Map.of("v0/800", new Distance(1, 5000), "v2/4500", new Distance(0, 4000))), 100_000, T0);
        a.receive(new Advertisement("Y", Map.of("v0/800", new Distance(0, 700), "v1/400", new Distance(2, 600))), 100_000, T0);
        a.receive(new Advertisement("Z", Map.of("v1/400", new Distance(2, 900))), 100_000, T0);
        a.subscribe("v9/200");
        Map<String, Distance> down = a.advertise().distances();
        assertEquals(new Distance(2, 5000), down.get("v0/800"), "Y is closer but has 700 kbit/s for an 800 kbit/s stream");
        assertEquals(new Distance(3, 900), down.get("v1/400"), "between equal distances, the wider path");
        assertFalse(down.containsKey("v2/4500"), "no path has room for 4500 kbit/s");
        assertEquals(Distance.SUBSCRIBED, down.get("v9/200"));
        assertEquals("A", a.advertise().sender());
    }

    @Test
    void aMalformedAdvertisementIsRefusedSayingWhatIsWrong() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Advertisement("R1", Map.of("v0/800", new Distance(-1, 5))))
                .getMessage().contains("distance -1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Distance(1, Double.NaN)).getMessage().contains("NaN"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Distance(1, -3)).getMessage().contains("-3"));
        for (String key : List.of("v0", "v0/0", "v0/fast", "/800", "v0/800/x")) {
            String message = assertThrows(IllegalArgumentException.class,
                    () -> new Advertisement("R1", Map.of(key, Distance.SUBSCRIBED))).getMessage();
            assertTrue(message.startsWith("advertisement from R1: " + key + ": not an object key"), message);
        }
        assertThrows(IllegalArgumentException.class, () -> new Advertisement(" ", Map.of()));
        DistanceVector a = new DistanceVector("A");
        assertThrows(IllegalArgumentException.class, () -> a.receive(new Advertisement("A", Map.of()), 10, T0));
        assertThrows(IllegalArgumentException.class, () -> a.subscribe("v0"));
    }

    /**
     * Two sources, two reflectors, two edges, every adjacent pair connected; S1 ingests v0 and v1, S2 only
     * v1, and S2->R2 is thin. Advertisements flow down tier by tier, as each second's do.
     */
    private static final class ThreeTiers {
        final Topology topology = Topology.builder()
                .node("S1", Tier.SOURCE, 0, 0).node("S2", Tier.SOURCE, 1, 0)
                .node("R1", Tier.REFLECTOR, 0, 1).node("R2", Tier.REFLECTOR, 1, 1)
                .node("E1", Tier.EDGE, 0, 2).node("E2", Tier.EDGE, 1, 2)
                .link("S1", "R1", 100_000, 10).link("S1", "R2", 100_000, 10)
                .link("S2", "R1", 100_000, 10).link("S2", "R2", 1_000, 10)
                .link("R1", "E1", 100_000, 10).link("R2", "E1", 100_000, 10)
                .link("R1", "E2", 100_000, 10).link("R2", "E2", 100_000, 10)
                .build();
        final Map<String, DistanceVector> vectors = new HashMap<>();
        final Map<String, Double> slack = new HashMap<>();
        final DistributedControl control = new DistributedControl(new SplittableRandom(7));

        ThreeTiers() {
            for (Node node : topology.nodes()) {
                vectors.put(node.id(), new DistanceVector(node.id()));
            }
            for (Link link : topology.links()) {
                slack.put(link.name(), (double) link.capacityKbps());
            }
            vectors.get("S1").subscribe("v0/800");
            vectors.get("S1").subscribe("v1/4500");
            vectors.get("S2").subscribe("v1/4500");
        }

        void advertiseDown() {
            for (Tier tier : List.of(Tier.SOURCE, Tier.REFLECTOR)) {
                for (Node node : topology.tier(tier)) {
                    Advertisement ad = vectors.get(node.id()).advertise();
                    for (Link link : topology.out(node.id())) {
                        vectors.get(link.to()).receive(ad, slack.get(link.name()), T0);
                    }
                }
            }
        }

        /** Algorithm 1 at each cluster from {@code edge} up to a subscribed one; the clusters that newly subscribe, or empty when denied. */
        Optional<List<String>> request(String edge, String key) {
            List<String> path = new ArrayList<>();
            String at = edge;
            while (!vectors.get(at).isSubscribed(key)) {
                path.add(at);
                Optional<String> parent = control.nextHop(vectors.get(at), key);
                if (parent.isEmpty()) {
                    return Optional.empty();
                }
                at = parent.get();
            }
            path.add(at);
            for (String cluster : path) {
                vectors.get(cluster).subscribe(key);
            }
            return Optional.of(path);
        }
    }

    @Test
    void distancesPropagateDownThreeTiersAndRequestsClimbToASubscribedCluster() {
        ThreeTiers cdn = new ThreeTiers();
        cdn.advertiseDown();
        assertEquals(Map.of("S1", new Distance(1, 100_000), "S2", new Distance(1, 1_000)), cdn.vectors.get("R2").routes("v1/4500"));
        assertEquals(Map.of("R1", new Distance(2, 100_000), "R2", new Distance(2, 100_000)), cdn.vectors.get("E1").routes("v1/4500"),
                "R2 advertises its path through S1, not the thin one through S2");
        assertEquals(Optional.of("S1"), cdn.control.nextHop(cdn.vectors.get("R2"), "v1/4500"));

        List<String> first = cdn.request("E1", "v0/800").orElseThrow();
        assertEquals(3, first.size(), "edge, reflector, source: at most n - 1 = 2 clusters newly subscribe: " + first);
        assertEquals("S1", first.get(2));
        String reflector = first.get(1);

        cdn.advertiseDown();
        assertEquals(1, cdn.vectors.get("E2").routes("v0/800").get(reflector).hops());
        assertEquals(List.of("E2", reflector), cdn.request("E2", "v0/800").orElseThrow(),
                "the next edge joins the subscribed reflector: a one-hop change");
    }

    @Test
    void aThinLinkToTheNearestSubscribedParentDeniesTheRequestAsAlgorithm1Says() {
        ThreeTiers cdn = new ThreeTiers();
        cdn.advertiseDown();
        String reflector = cdn.request("E1", "v0/800").orElseThrow().get(1);
        cdn.slack.put(reflector + "->E2", 500.0);
        cdn.advertiseDown();
        assertEquals(Optional.empty(), cdn.request("E2", "v0/800"));
        assertFalse(cdn.vectors.get("E2").isSubscribed("v0/800"));
    }

    @Test
    void equalReflectorsShareTheFirstRequestsOfDifferentVideos() {
        ThreeTiers cdn = new ThreeTiers();
        Map<String, Integer> byReflector = new HashMap<>();
        for (int v = 0; v < 200; v++) {
            cdn.vectors.get("S1").subscribe("w" + v + "/800");
        }
        cdn.advertiseDown();
        for (int v = 0; v < 200; v++) {
            byReflector.merge(cdn.request("E1", "w" + v + "/800").orElseThrow().get(1), 1, Integer::sum);
        }
        assertTrue(byReflector.getOrDefault("R1", 0) > 60 && byReflector.getOrDefault("R2", 0) > 60, byReflector.toString());
    }
}
