package io.heliograph.vdn.agent;

import static io.heliograph.vdn.agent.AgentFixtures.await;
import static io.heliograph.vdn.agent.AgentFixtures.config;
import static io.heliograph.vdn.agent.AgentFixtures.get;
import static io.heliograph.vdn.agent.AgentFixtures.parent;
import static io.heliograph.vdn.agent.AgentFixtures.post;
import static io.heliograph.vdn.agent.AgentFixtures.rib;
import static io.heliograph.vdn.agent.AgentFixtures.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.core.hybrid.DecisionTableJson;
import io.heliograph.core.hybrid.Lookup;
import io.heliograph.core.hybrid.Origin;
import io.heliograph.core.json.Json;
import io.heliograph.vdn.agent.AgentFixtures.FakeController;
import io.heliograph.vdn.agent.AgentFixtures.FakeParent;
import io.heliograph.vdn.engine.ClusterReport;
import io.heliograph.vdn.engine.Topology;
import io.heliograph.vdn.engine.Tier;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One edge agent between two fake reflectors and a fake controller: how it chooses a parent in each mode. */
class EdgeControlTest {

    private FakeParent r1;
    private FakeParent r2;
    private FakeController controller;
    private VdnAgent edge;

    @BeforeEach
    void fakes() throws Exception {
        r1 = new FakeParent("R1");
        r2 = new FakeParent("R2");
        controller = new FakeController();
    }

    @AfterEach
    void stop() {
        if (edge != null) {
            edge.close();
        }
        r1.close();
        r2.close();
        controller.close();
    }

    private VdnAgent edge(String mode, Map<String, Object> more) throws Exception {
        Map<String, Object> json = new HashMap<>(Map.of("mode", mode, "dvMillis", 5000L,
                "parents", List.of(parent("R1", r1.url(), 100_000), parent("R2", r2.url(), 100_000))));
        if (!mode.equals("distributed")) {
            json.putAll(Map.of("controller", controller.url().toString(), "user", "admin", "password", "secret", "key", "k-E1",
                    "reportMillis", 200L, "ribPollMillis", 50L, "fibMillis", 200L));
        }
        json.putAll(more);
        edge = VdnAgent.start(config("E1", "edge", 0, json));
        return edge;
    }

    private HttpResponse<byte[]> chunk(String key, long n, String... headers) {
        String[] all = new String[headers.length + 2];
        all[0] = VdnAgent.GROUP_HEADER;
        all[1] = "G1";
        System.arraycopy(headers, 0, all, 2, headers.length);
        return get(URI.create(edge.url() + "/live/" + key + "/" + n), all);
    }

    /** A hybrid edge whose RIB 1 sends v0/800 to R2 (both parents could take it); the live chunk, fetched through R2. */
    private long streamingThroughR2ByRib1(Map<String, Object> more) throws Exception {
        edge("hybrid", more);
        r1.advertise(edge.url(), Map.of("v0/800", new long[] {1, 5000}));
        r2.advertise(edge.url(), Map.of("v0/800", new long[] {1, 5000}));
        controller.rib(rib("E1", 1, Map.of("v0/800", "R2"), 100_000));
        await("RIB 1", () -> Long.valueOf(1).equals(edge.status().get("ribVersion")));
        long n = AgentFixtures.liveChunk();
        assertEquals("E1,R2", path(chunk("v0/800", n)));
        return n;
    }

    private static String path(HttpResponse<byte[]> response) {
        assertEquals(200, response.statusCode(), () -> text(response));
        return response.headers().firstValue(VdnAgent.PATH_HEADER).orElseThrow();
    }

    @Test
    void algorithmOnePicksTheNearestParentWithCapacityAndDeniesWithoutOne() throws Exception {
        edge("distributed", Map.of());
        r1.advertise(edge.url(), Map.of("v0/800", new long[] {1, 5000}, "v2/800", new long[] {2, 5000}));
        r2.advertise(edge.url(), Map.of("v0/800", new long[] {1, 500}, "v2/800", new long[] {1, 500}));
        long n = AgentFixtures.liveChunk();

        assertEquals("E1,R1", path(chunk("v0/800", n)), "R2's path has no room for 800 kbit/s");
        Lookup<String> decided = edge.fib().lookup("v0/800");
        assertEquals(Origin.LOCAL, decided.decision().origin());
        assertEquals("R1", decided.decision().value());
        assertEquals("E1,R1", path(chunk("v0/800", n + 1)), "the local decision holds for the next chunk");

        HttpResponse<byte[]> unknown = chunk("v1/800", n);
        assertEquals(503, unknown.statusCode(), "no parent advertised v1/800");
        assertTrue(text(unknown).contains("no parent with capacity for v1/800"), text(unknown));
        assertEquals(503, chunk("v2/800", n).statusCode(), "the nearest parent (R2) has no room, which hides the farther R1");
        assertEquals(0, r2.requests.get());
        assertEquals(2L, ((Map<?, ?>) edge.status().get("serving")).get("denied"));
    }

    @Test
    void theRibsHopServesAndARequestTaggedWithAnOlderVersionFollowsTheShadowFib() throws Exception {
        long n = streamingThroughR2ByRib1(Map.of());

        controller.rib(rib("E1", 2, Map.of("v0/800", "R1"), 100_000));
        await("RIB 2", () -> Long.valueOf(2).equals(edge.status().get("ribVersion")));
        assertEquals("E1,R2", path(chunk("v0/800", n + 1, VdnAgent.VERSION_HEADER, "1")), "version 1's shadow FIB");
        assertEquals("E1,R1", path(chunk("v0/800", n + 2)), "the current RIB");
        assertEquals(List.of("2"), r1.versions, "upstream requests carry the edge's RIB version");
        assertEquals(0, edge.counter("localDecisions"));

        await("a report with the client as a viewer", () -> controller.reports.stream()
                .anyMatch(r -> r.get("viewers").toString().contains("group=G1, video=v0, bitrateKbps=800, clients=1")));
        assertTrue(controller.reports.get(0).get("links").toString().contains("R1->E1=100000"), controller.reports.toString());
        assertTrue(controller.authorizations.get(0).startsWith("Basic YWRtaW46c2VjcmV0 k-E1"), controller.authorizations.toString());
        await("a FIB with the central entry and serving figures", () -> controller.fibs.stream().anyMatch(f ->
                "CENTRAL".equals(f.get("mode")) && f.get("table").toString().contains("value=R1")
                        && ((Long) ((Map<?, ?>) f.get("serving")).get("joins")) >= 1));

        // what the VDN app reads of them
        Topology topology = Topology.builder().node("S1", Tier.SOURCE, 0, 0).node("R1", Tier.REFLECTOR, 0, 0)
                .node("R2", Tier.REFLECTOR, 0, 0).node("E1", Tier.EDGE, 0, 0).node("G1", Tier.CLIENT_GROUP, 0, 0)
                .link("S1", "R1", 100_000, 1).link("S1", "R2", 100_000, 1).link("R1", "E1", 100_000, 1)
                .link("R2", "E1", 100_000, 1).link("E1", "G1", 150_000, 0).build();
        Map<String, Object> withViewers = controller.reports.stream()
                .filter(r -> !r.get("viewers").toString().equals("[]")).findFirst().orElseThrow();
        ClusterReport report = ClusterReport.read(Json.parse(Json.compact(withViewers)), topology);
        assertEquals(List.of(new ClusterReport.Viewers("G1", "v0", 800, 1)), report.viewers());
        assertEquals(Map.of("R1->E1", 100_000L, "R2->E1", 100_000L), report.links());
        Map<String, Object> fib = controller.fibs.get(controller.fibs.size() - 1);
        assertEquals(2, DecisionTableJson.ofStrings().fromJson(fib.get("table")).version());
    }

    @Test
    void aSilentControllerMakesTheEdgeDistributedAndNewRequestsAreStillServed() throws Exception {
        controller.controllerTimeoutSeconds = 1;
        edge("hybrid", Map.of());
        r1.advertise(edge.url(), Map.of("v0/800", new long[] {1, 5000}, "v3/800", new long[] {1, 5000}));
        r2.advertise(edge.url(), Map.of("v0/800", new long[] {1, 5000}));
        controller.rib(rib("E1", 1, Map.of("v0/800", "R2"), 100_000));
        await("RIB 1 and the controller's timeout", () -> Long.valueOf(1).equals(edge.status().get("ribVersion"))
                && Long.valueOf(1).equals(edge.status().get("controllerTimeoutSeconds")) && "CENTRAL".equals(edge.status().get("fibMode")));
        long n = AgentFixtures.liveChunk();
        assertEquals("E1,R2", path(chunk("v0/800", n)));

        controller.silent = true;
        await("the centre's timeout", () -> "DISTRIBUTED".equals(edge.status().get("fibMode")));
        assertEquals(200, chunk("v0/800", n + 1).statusCode(), "the stream goes on under Algorithm 1");
        assertEquals(Origin.LOCAL, edge.fib().lookup("v0/800").decision().origin());
        assertEquals("E1,R1", path(chunk("v3/800", n)), "a new channel joins through Algorithm 1");
        assertEquals(2, edge.counter("localDecisions"));
    }

    @Test
    void anInstanceThatCannotBeReachedOrFailsIsLeftForTheNextInTheListAndTheFibServesMeanwhile() throws Exception {
        try (FakeController other = new FakeController()) {
            edge("hybrid", Map.of("controller", List.of(controller.url().toString(), other.url().toString())));
            r1.advertise(edge.url(), Map.of("v0/800", new long[] {1, 5000}));
            r2.advertise(edge.url(), Map.of("v0/800", new long[] {1, 5000}));
            await("RIB polls answered 404 (no decision yet)", () -> controller.authorizations.size() >= 5);
            controller.rib(rib("E1", 1, Map.of("v0/800", "R2"), 100_000));
            await("RIB 1", () -> Long.valueOf(1).equals(edge.status().get("ribVersion")));
            assertEquals(controller.url().toString(), edge.status().get("controller"));
            assertEquals(0L, edge.status().get("controllerMoves"), "a 404 is an answer, not a failed instance");
            long n = AgentFixtures.liveChunk();
            assertEquals("E1,R2", path(chunk("v0/800", n)));

            controller.silent = true;
            other.rib(rib("E1", 2, Map.of("v0/800", "R2"), 100_000));
            await("the next instance's RIB 2", () -> Long.valueOf(2).equals(edge.status().get("ribVersion")));
            assertEquals(other.url().toString(), edge.status().get("controller"), "a 503 moves the agent on");
            await("reports to the next instance", () -> !other.reports.isEmpty());
            assertEquals("E1,R2", path(chunk("v0/800", n + 1)), "the central entry serves throughout");

            controller.silent = false;
            controller.rib(rib("E1", 3, Map.of("v0/800", "R2"), 100_000));
            other.close();
            await("back to the first instance, RIB 3", () -> Long.valueOf(3).equals(edge.status().get("ribVersion")));
            assertEquals(controller.url().toString(), edge.status().get("controller"), "a refused connection moves it on");
            assertEquals(2L, edge.status().get("controllerMoves"));
            assertEquals("CENTRAL", edge.status().get("fibMode"), "never silent for the controller's timeout");
        }
    }

    @Test
    void aRibMovesALiveStreamOnlyOntoAPathWithRoomForItNow() throws Exception {
        long n = streamingThroughR2ByRib1(Map.of());
        r1.advertise(edge.url(), Map.of("v0/800", new long[] {1, 500}));
        controller.rib(rib("E1", 2, Map.of("v0/800", "R1"), 100_000));
        await("RIB 2", () -> Long.valueOf(2).equals(edge.status().get("ribVersion")));

        assertEquals("E1,R2", path(chunk("v0/800", n + 1)), "R1's path has 500 kbit/s left: the stream stays");
        assertEquals(1, edge.counter("movesKept"));
        r1.advertise(edge.url(), Map.of("v0/800", new long[] {1, 5000}));
        assertEquals("E1,R1", path(chunk("v0/800", n + 2)), "room on R1's path now: the RIB's move happens");
        assertEquals(0, edge.counter("localDecisions"));
    }

    @Test
    void aRibMovesALiveStreamOnlyOntoALinkWithSlackForItWhileNewStreamsFollowIt() throws Exception {
        edge("hybrid", Map.of("parents", List.of(parent("R1", r1.url(), 2000), parent("R2", r2.url(), 100_000))));
        Map<String, long[]> all = Map.of("v0/800", new long[] {1, 5000}, "v1/800", new long[] {1, 5000},
                "v2/800", new long[] {1, 5000});
        r1.advertise(edge.url(), all);
        r2.advertise(edge.url(), all);
        controller.rib(rib("E1", 1, Map.of("v0/800", "R2"), 100_000));
        await("RIB 1", () -> Long.valueOf(1).equals(edge.status().get("ribVersion")));
        long n = AgentFixtures.liveChunk();
        assertEquals("E1,R2", path(chunk("v0/800", n)));

        controller.rib(rib("E1", 2, Map.of("v0/800", "R1", "v1/800", "R1", "v2/800", "R1"), 2000));
        await("RIB 2", () -> Long.valueOf(2).equals(edge.status().get("ribVersion")));
        assertEquals("E1,R1", path(chunk("v1/800", n)), "a new stream follows the RIB");
        assertEquals("E1,R1", path(chunk("v2/800", n)));
        assertEquals("E1,R2", path(chunk("v0/800", n + 1)), "R1's 2000 kbit/s carry 1600: no room for 800 more");
        assertEquals(1, edge.counter("movesKept"));
        assertEquals(0, edge.counter("localDecisions"));
    }

    @Test
    void aRequestTaggedWithANewerVersionFetchesThatRibAtOnceAndFollowsItAndAnUnknownOneIsDecidedLocally()
            throws Exception {
        controller.rib(rib("E1", 1, Map.of("v0/800", "R2"), 100_000));
        edge("hybrid", Map.of("ribPollMillis", 60_000L));
        await("RIB 1, polled at start", () -> Long.valueOf(1).equals(edge.status().get("ribVersion")));
        r1.advertise(edge.url(), Map.of("v1/800", new long[] {1, 5000}));
        r2.advertise(edge.url(), Map.of());
        controller.rib(rib("E1", 2, Map.of("v1/800", "R2"), 100_000));
        long n = AgentFixtures.liveChunk();

        assertEquals("E1,R2", path(chunk("v1/800", n, VdnAgent.VERSION_HEADER, "2")),
                "version 2's entry, fetched for the request (the next poll is a minute away)");
        assertEquals(2L, edge.status().get("ribVersion"));
        assertEquals(1, edge.counter("newerVersionWaits"));
        assertEquals(0, edge.counter("localDecisions"));

        long before = System.nanoTime();
        assertEquals("E1,R1", path(chunk("v1/800", n + 1, VdnAgent.VERSION_HEADER, "7")),
                "no version 7 came: decided locally, Algorithm 1 over R1's advertisement");
        assertTrue(System.nanoTime() - before >= 900_000_000L, "it waited for version 7 first");
        assertEquals(2, edge.counter("newerVersionWaits"));
        assertEquals(1, edge.counter("localDecisions"));
    }

    @Test
    void aLinkChangePastTheThresholdMakesTheCentralEntryStaleAndTheStreamIsDecidedLocally() throws Exception {
        long n = streamingThroughR2ByRib1(Map.of());
        URI link = URI.create(edge.url() + "/vdn/links/R2");

        HttpResponse<byte[]> small = put(link, "{\"capacityKbps\":90000}");
        assertEquals(200, small.statusCode(), () -> text(small));
        assertTrue(text(small).contains("\"stale\":[]"), "10 % is within the threshold: " + text(small));
        assertEquals("E1,R2", path(chunk("v0/800", n + 1)));

        HttpResponse<byte[]> large = put(link, "{\"capacityKbps\":50000}");
        assertTrue(text(large).contains("\"stale\":[\"v0/800\"]"), text(large));
        assertEquals(200, chunk("v0/800", n + 2).statusCode());
        assertEquals(Origin.LOCAL, edge.fib().lookup("v0/800").decision().origin(), "re-treated as a new request");
        assertEquals(1, edge.counter("localDecisions"));
        await("a report of the new capacity", () -> controller.reports.get(controller.reports.size() - 1).get("links")
                .toString().contains("R2->E1=50000"));

        assertEquals(400, put(link, "{\"capacityKbps\":-1}").statusCode());
        assertEquals(404, put(URI.create(edge.url() + "/vdn/links/R9"), "{\"capacityKbps\":1}").statusCode());
    }

    @Test
    void aParentSilentForThreePeriodsHasFailedItsStreamsMoveAndItRecoversWhenHeard() throws Exception {
        long n = streamingThroughR2ByRib1(Map.of("dvMillis", 200L));
        Map<String, long[]> v0 = Map.of("v0/800", new long[] {1, 5000});

        await("R2 failed while R1 keeps advertising", () -> {
            r1.advertise(edge.url(), v0);
            return edge.status().get("parents").toString().contains("id=R2, heard=false, failed=true");
        });
        r1.advertise(edge.url(), v0);
        assertEquals("E1,R1", path(chunk("v0/800", n + 1)), "the central entry names a failed link: Algorithm 1 moves it");
        await("a report of the failed link", () -> controller.reports.get(controller.reports.size() - 1).get("failed")
                .toString().equals("[R2->E1]"));

        r2.advertise(edge.url(), v0);
        assertTrue(edge.status().get("parents").toString().contains("id=R2, heard=true, failed=false"));
    }

    private static HttpResponse<byte[]> put(URI uri, String body) throws Exception {
        return AgentFixtures.HTTP.send(java.net.http.HttpRequest.newBuilder(uri).PUT(
                java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void centralModeWaitsForTheControllersEntryAndDeniesWithoutOne() throws Exception {
        edge("central", Map.of("reportMillis", 60_000L, "centralWaitMillis", 3000L));
        long n = AgentFixtures.liveChunk();
        CompletableFuture<HttpResponse<byte[]>> joining = CompletableFuture.supplyAsync(() -> chunk("v0/800", n));
        await("the immediate report of the new viewer",
                () -> controller.reports.stream().anyMatch(r -> r.get("viewers").toString().contains("video=v0")));
        assertTrue(!joining.isDone(), "the request waits for a RIB");
        controller.rib(rib("E1", 1, Map.of("v0/800", "R1"), 100_000));
        assertEquals("E1,R1", path(joining.join()));
        assertEquals(0, edge.counter("localDecisions"), "central mode never decides locally");

        long before = System.nanoTime();
        HttpResponse<byte[]> none = chunk("v5/800", n);
        assertEquals(503, none.statusCode());
        assertTrue(text(none).contains("no central entry for v5/800 within 3000 ms"), text(none));
        assertTrue(System.nanoTime() - before >= 2_900_000_000L, "it waited for the controller");
    }

    @Test
    void aMalformedAdvertisementIsA400AndOneFromANonParentA403() throws Exception {
        edge("distributed", Map.of());
        URI dv = URI.create(edge.url() + "/vdn/dv");
        HttpResponse<byte[]> negative = post(dv, "{\"sender\":\"R1\",\"distances\":{\"v0/800\":{\"hops\":-1}}}");
        assertEquals(400, negative.statusCode());
        assertTrue(text(negative).contains("$.distances[\\\"v0/800\\\"].hops: must be from 0 to 64"), text(negative));
        HttpResponse<byte[]> badKey = post(dv, "{\"sender\":\"R1\",\"distances\":{\"v0\":{\"hops\":1}}}");
        assertEquals(400, badKey.statusCode());
        assertTrue(text(badKey).contains("not an object key video/bitrate"), text(badKey));
        assertEquals(400, post(dv, "not json").statusCode());
        assertEquals("Bad Request", ((Map<?, ?>) Json.parse(post(dv, "{}").body())).get("error"));

        HttpResponse<byte[]> stranger = post(dv, "{\"sender\":\"R9\",\"distances\":{\"v0/800\":{\"hops\":0}}}");
        assertEquals(403, stranger.statusCode());
        assertTrue(text(stranger).contains("R9 is not a parent of E1 (its parents: R1, R2)"), text(stranger));
        assertTrue(edge.routes("v0/800").isEmpty(), "nothing refused was taken");
        assertEquals(5, edge.counter("advertisementsRefused"));
        assertEquals(405, get(dv).statusCode());
    }
}
