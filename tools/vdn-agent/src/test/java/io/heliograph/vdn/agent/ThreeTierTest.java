package io.heliograph.vdn.agent;

import static io.heliograph.vdn.agent.AgentFixtures.await;
import static io.heliograph.vdn.agent.AgentFixtures.child;
import static io.heliograph.vdn.agent.AgentFixtures.config;
import static io.heliograph.vdn.agent.AgentFixtures.freePort;
import static io.heliograph.vdn.agent.AgentFixtures.local;
import static io.heliograph.vdn.agent.AgentFixtures.parent;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.core.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A source, a reflector and an edge, fully distributed (no controller), serving clients on loopback. */
class ThreeTierTest {

    private static VdnAgent source;
    private static VdnAgent reflector;
    private static VdnAgent edge;

    @BeforeAll
    static void start() throws Exception {
        int s = freePort();
        int r = freePort();
        int e = freePort();
        source = VdnAgent.start(config("S1", "source", s, Map.of("videos", List.of("v0"), "bitrates", List.of(800L, 200L),
                "children", List.of(child("R1", local(r))), "dvMillis", 200L)));
        reflector = VdnAgent.start(config("R1", "reflector", r, Map.of("mode", "distributed",
                "parents", List.of(parent("S1", local(s), 100_000)), "children", List.of(child("E1", local(e))), "dvMillis", 200L)));
        edge = VdnAgent.start(config("E1", "edge", e, Map.of("mode", "distributed",
                "parents", List.of(parent("R1", local(r), 100_000)), "dvMillis", 200L)));
        await("the edge to learn a path to v0/800 and v0/200",
                () -> !edge.routes("v0/800").isEmpty() && !edge.routes("v0/200").isEmpty());
    }

    @AfterAll
    static void stop() {
        for (VdnAgent agent : new VdnAgent[] {edge, reflector, source}) {
            if (agent != null) {
                agent.close();
            }
        }
    }

    @Test
    void aClientPlaysAChannelThroughTheTiers() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int rc = VdnAgentMain.client(List.of("--edge", edge.url().toString(), "--video", "v0", "--group", "G1",
                "--bitrates", "800,200", "--chunks", "2", "--chunk-seconds", "1"), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String[] lines = bytes.toString(StandardCharsets.UTF_8).strip().split("\n");
        assertEquals(0, rc, String.join("\n", lines));
        Map<?, ?> session = (Map<?, ?>) Json.parse(lines[0]);
        assertEquals(2L, session.get("chunks"));
        assertEquals(800L, session.get("bitrateKbpsMean"));
        assertEquals("E1,R1,S1", session.get("path"), "each cluster names itself on the way down");
        assertTrue((Long) session.get("joinMillis") >= 0);
        Map<?, ?> summary = (Map<?, ?>) ((Map<?, ?>) Json.parse(lines[1])).get("summary");
        assertEquals(1L, summary.get("complete"));

        Map<String, Object> status = edge.status();
        assertEquals("distributed", status.get("mode"));
        assertTrue(status.get("subscriptions").toString().contains("key=v0/800, parent=R1"), status.toString());
        assertTrue(status.get("parents").toString().contains("heard=true"), status.toString());
        Map<?, ?> serving = (Map<?, ?>) status.get("serving");
        assertTrue((Long) serving.get("joins") >= 1, serving.toString());
        HttpResponse<byte[]> overHttp = AgentFixtures.get(URI.create(edge.url() + "/vdn/status"));
        assertEquals(200, overHttp.statusCode());
        assertEquals("E1", ((Map<?, ?>) Json.parse(overHttp.body())).get("cluster"));
    }

    @Test
    void concurrentClientsOfAChannelCostOneUpstreamFetchPerChunk() {
        long atSource = source.counter("liveRequests");
        long atReflector = reflector.counter("upstreamFetches");
        long atEdge = edge.counter("upstreamFetches");
        long next = AgentFixtures.liveChunk() + 1; // not made yet: every client waits for it together
        for (long chunk = next; chunk < next + 2; chunk++) {
            List<CompletableFuture<HttpResponse<byte[]>>> clients = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                clients.add(AgentFixtures.HTTP.sendAsync(HttpRequest.newBuilder(URI.create(edge.url() + "/live/v0/200/" + chunk))
                        .header(VdnAgent.CLIENT_HEADER, "client-" + i).header(VdnAgent.GROUP_HEADER, "G1").build(),
                        HttpResponse.BodyHandlers.ofByteArray()));
            }
            byte[] expected = LiveChunk.content("v0", 200, chunk, 1);
            for (CompletableFuture<HttpResponse<byte[]>> client : clients) {
                HttpResponse<byte[]> response = client.join();
                assertEquals(200, response.statusCode());
                assertArrayEquals(expected, response.body());
            }
        }
        assertEquals(2, source.counter("liveRequests") - atSource, "one request per chunk reaches the source");
        assertEquals(2, reflector.counter("upstreamFetches") - atReflector);
        assertEquals(2, edge.counter("upstreamFetches") - atEdge);
    }

    @Test
    void aSourceRefusesWhatItDoesNotIngest() {
        HttpResponse<byte[]> response = AgentFixtures.get(URI.create(source.url() + "/live/v9/800/1"));
        assertEquals(404, response.statusCode());
        assertTrue(AgentFixtures.text(response).contains("ingests no v9"), AgentFixtures.text(response));
        assertEquals(400, AgentFixtures.get(URI.create(edge.url() + "/live/v0/fast/1")).statusCode());
    }
}
