package io.heliograph.topology.internal.rest;

import static io.heliograph.webui.testing.Responses.ok;
import static io.heliograph.webui.testing.Responses.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import com.fasterxml.jackson.databind.JsonNode;

import io.heliograph.core.SwitchPort;
import io.heliograph.topology.Link;
import io.heliograph.topology.internal.LinkStatus;
import io.heliograph.topology.internal.LldpProbeCodec.Outcome;
import io.heliograph.topology.internal.TopologyDiagnostics;
import io.heliograph.topology.internal.TopologyGraph;
import io.heliograph.topology.internal.TopologySettings;

class TopologyResourceTest {

    private static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");
    /** The discovery clock's reading at NOW. */
    private static final long NOW_MS = 1_000_000;

    private final List<LinkStatus> statuses = new ArrayList<>();
    private final Set<DatapathId> switches = Set.of(DatapathId.of(1), DatapathId.of(2), DatapathId.of(3),
            DatapathId.of(9));
    private final MockMvc mvc = MockMvcBuilders.standaloneSetup(
            new TopologyResource(new FakeDiagnostics(), Clock.fixed(NOW, ZoneOffset.UTC))).build();

    private static Link link(long a, int aPort, long b, int bPort) {
        return new Link(SwitchPort.of(DatapathId.of(a), OFPort.of(aPort)), SwitchPort.of(DatapathId.of(b), OFPort.of(bPort)));
    }

    /** A cable between 1/2 and 2/1, and a link 3/5 -> 2/7 whose reverse is not seen; switch 9 alone. */
    private void network() {
        Link ab = link(1, 2, 2, 1);
        statuses.add(new LinkStatus(ab, NOW_MS - 60_000, NOW_MS - 1_500, true, null));
        statuses.add(new LinkStatus(ab.reverse(), NOW_MS - 59_000, NOW_MS - 2_000, true, null));
        statuses.add(new LinkStatus(link(3, 5, 2, 7), NOW_MS - 10_000, NOW_MS - 500, false, "c2"));
    }

    @Test
    void linksCarryBothEndsTheDirectionFlagAndWallClockTimes() throws Exception {
        network();
        JsonNode links = ok(mvc, get("/api/v1/topology/links"));
        assertEquals(3, links.size());
        JsonNode first = links.get(0);
        assertEquals("00:00:00:00:00:00:00:01", first.at("/src/dpid").asText());
        assertEquals(2, first.at("/src/port").asInt());
        assertEquals("00:00:00:00:00:00:00:02", first.at("/dst/dpid").asText());
        assertEquals(1, first.at("/dst/port").asInt());
        assertTrue(first.get("bidirectional").asBoolean());
        assertEquals("2026-11-21T11:59:00Z", first.get("firstSeen").asText());
        assertEquals("2026-11-21T11:59:58.500Z", first.get("lastSeen").asText());
        assertEquals("00:00:00:00:00:00:00:02", links.at("/1/src/dpid").asText());
        assertEquals("00:00:00:00:00:00:00:03", links.at("/2/src/dpid").asText());
        assertFalse(links.at("/2/bidirectional").asBoolean());
        assertTrue(first.get("discoveredBy").isNull(), "found by this controller, alone");
        assertEquals("c2", links.at("/2/discoveredBy").asText(), "found by instance c2 of the cluster");
    }

    @Test
    void linksOfOneSwitchInAnyDpidForm() throws Exception {
        network();
        for (String form : List.of("00:00:00:00:00:00:00:03", "0x3", "3", "00:03")) {
            JsonNode links = ok(mvc, get("/api/v1/topology/links").param("dpid", form));
            assertEquals(1, links.size(), form);
            assertEquals(7, links.at("/0/dst/port").asInt());
        }
        assertEquals(0, ok(mvc, get("/api/v1/topology/links").param("dpid", "9")).size());
    }

    @Test
    void aBadOrUnknownDpidIsRefusedNamingTheParameter() throws Exception {
        network();
        for (String bad : List.of("00:zz", "0x", "-1", "1:2:3:4:5:6:7:8:9", "001:02", "")) {
            refused(mvc, get("/api/v1/topology/links").param("dpid", bad), 400, "dpid");
        }
        refused(mvc, get("/api/v1/topology/links").param("dpid", "0x42"), 404, "dpid");
    }

    @Test
    void summaryCountsSwitchesLinksAndIslands() throws Exception {
        network();
        JsonNode summary = ok(mvc, get("/api/v1/topology"));
        assertEquals(7, summary.get("version").asLong());
        assertEquals(4, summary.get("switches").asInt());
        assertEquals(3, summary.get("links").asInt());
        assertEquals(1, summary.get("unidirectionalLinks").asInt());
        // 3 reaches 2 one way only, and islands join over cables seen both ways
        assertEquals(3, summary.get("islands").size());
        assertEquals("00:00:00:00:00:00:00:01", summary.at("/islands/0/0").asText());
        assertEquals("00:00:00:00:00:00:00:02", summary.at("/islands/0/1").asText());
        assertEquals("00:00:00:00:00:00:00:03", summary.at("/islands/1/0").asText());
        assertEquals("00:00:00:00:00:00:00:09", summary.at("/islands/2/0").asText());
    }

    @Test
    void floodlightAliasListsACableOnceFromItsLowerEnd() throws Exception {
        network();
        JsonNode links = ok(mvc, get("/wm/topology/links/json"));
        assertEquals(2, links.size());
        JsonNode cable = links.get(0);
        assertEquals(List.of("src-switch", "src-port", "dst-switch", "dst-port", "type", "direction"),
                fieldNames(cable));
        assertEquals("00:00:00:00:00:00:00:01", cable.get("src-switch").asText());
        assertEquals(2, cable.get("src-port").asInt());
        assertEquals("00:00:00:00:00:00:00:02", cable.get("dst-switch").asText());
        assertEquals(1, cable.get("dst-port").asInt());
        assertEquals("internal", cable.get("type").asText());
        assertEquals("bidirectional", cable.get("direction").asText());
        assertEquals("00:00:00:00:00:00:00:03", links.at("/1/src-switch").asText());
        assertEquals("unidirectional", links.at("/1/direction").asText());
    }

    @Test
    void floodlightSwitchClustersAreTheIslandsUnderTheirLowestDpid() throws Exception {
        network();
        JsonNode clusters = ok(mvc, get("/wm/topology/switchclusters/json"));
        assertEquals(List.of("00:00:00:00:00:00:00:01", "00:00:00:00:00:00:00:03", "00:00:00:00:00:00:00:09"),
                fieldNames(clusters));
        assertEquals("[\"00:00:00:00:00:00:00:01\",\"00:00:00:00:00:00:00:02\"]",
                clusters.get("00:00:00:00:00:00:00:01").toString());
        assertEquals("[\"00:00:00:00:00:00:00:03\"]", clusters.get("00:00:00:00:00:00:00:03").toString(),
                "a link seen one way does not join a cluster");
        assertEquals(0, ok(mvc, get("/wm/topology/external-links/json")).size(), "direct links are not external");
    }

    @Test
    void noLinksIsAnEmptyList() throws Exception {
        assertEquals(0, ok(mvc, get("/api/v1/topology/links")).size());
        assertEquals(0, ok(mvc, get("/wm/topology/links/json")).size());
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private final class FakeDiagnostics implements TopologyDiagnostics {

        @Override
        public List<LinkStatus> linkStatus() {
            return List.copyOf(statuses);
        }

        @Override
        public long nowMs() {
            return NOW_MS;
        }

        @Override
        public Map<Outcome, Long> lldpCounts() {
            return Map.of();
        }

        @Override
        public TopologyGraph topology() {
            return new TopologyGraph(7, switches, statuses.stream().map(LinkStatus::link).collect(Collectors.toSet()));
        }

        @Override
        public TopologySettings settings() {
            return TopologySettings.DEFAULTS;
        }

        @Override
        public String sharing() {
            return null;
        }
    }
}
