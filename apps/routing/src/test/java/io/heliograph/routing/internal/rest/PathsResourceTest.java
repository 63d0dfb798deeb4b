package io.heliograph.routing.internal.rest;

import static io.heliograph.webui.testing.Responses.ok;
import static io.heliograph.webui.testing.Responses.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import com.fasterxml.jackson.databind.JsonNode;

import io.heliograph.core.SwitchPort;
import io.heliograph.routing.Metric;
import io.heliograph.routing.Route;
import io.heliograph.routing.RoutingService;
import io.heliograph.topology.Link;
import io.heliograph.topology.Topology;
import io.heliograph.topology.TopologyService;

class PathsResourceTest {

    private static final DatapathId S1 = DatapathId.of(1);
    private static final DatapathId S2 = DatapathId.of(2);
    private static final DatapathId S3 = DatapathId.of(3);
    /** Known to the topology but cut off from the others. */
    private static final DatapathId S4 = DatapathId.of(4);

    private static Link link(DatapathId a, int aPort, DatapathId b, int bPort) {
        return new Link(SwitchPort.of(a, OFPort.of(aPort)), SwitchPort.of(b, OFPort.of(bPort)));
    }

    /** 1 -> 3 directly (1/3 -> 3/1), or through 2 (1/2 -> 2/1, 2/3 -> 3/2). */
    private static final Route DIRECT = new Route(S1, S3, List.of(link(S1, 3, S3, 1)), 1);
    private static final Route VIA_2 = new Route(S1, S3, List.of(link(S1, 2, S2, 1), link(S2, 3, S3, 2)), 2);

    /** What the resource asked the routing service, as "ecmp|k=n metric". */
    private final List<String> asked = new ArrayList<>();
    private final MockMvc mvc = MockMvcBuilders.standaloneSetup(new PathsResource(new FakeRouting(),
            () -> topology(Set.of(S1, S2, S3, S4)))).build();

    @Test
    void equalCostShortestPathsUnderTheDefaultMetric() throws Exception {
        JsonNode paths = ok(mvc, get("/api/v1/paths/00:00:00:00:00:00:00:01/0x3"));
        assertEquals(List.of("ecmp CAPACITY"), asked);
        assertEquals("00:00:00:00:00:00:00:01", paths.get("src").asText());
        assertEquals("00:00:00:00:00:00:00:03", paths.get("dst").asText());
        assertEquals("CAPACITY", paths.get("metric").asText());
        assertTrue(paths.get("k").isNull());
        assertEquals(1, paths.get("paths").size());
        JsonNode path = paths.at("/paths/0");
        assertEquals(1, path.get("hops").asInt());
        assertEquals(1.0, path.get("cost").asDouble());
        assertEquals("00:00:00:00:00:00:00:01", path.at("/links/0/srcDpid").asText());
        assertEquals(3, path.at("/links/0/srcPort").asInt());
        assertEquals("00:00:00:00:00:00:00:03", path.at("/links/0/dstDpid").asText());
        assertEquals(1, path.at("/links/0/dstPort").asInt());
    }

    @Test
    void kShortestPathsInOrderUnderANamedMetric() throws Exception {
        JsonNode paths = ok(mvc, get("/api/v1/paths/1/3").param("k", "2").param("metric", "hops"));
        assertEquals(List.of("k=2 HOPS"), asked);
        assertEquals(2, paths.get("k").asInt());
        assertEquals("HOPS", paths.get("metric").asText());
        assertEquals(2, paths.get("paths").size());
        assertEquals(2, paths.at("/paths/1/hops").asInt());
        assertEquals("00:00:00:00:00:00:00:02", paths.at("/paths/1/links/0/dstDpid").asText());
        assertEquals(2, paths.at("/paths/1/links/1/dstPort").asInt());
    }

    @Test
    void anUnreachableSwitchHasNoPaths() throws Exception {
        assertEquals(0, ok(mvc, get("/api/v1/paths/1/4")).get("paths").size());
        assertEquals(0, ok(mvc, get("/api/v1/paths/1/4").param("k", "3")).get("paths").size());
    }

    @Test
    void badArgumentsAreRefusedNamingTheirField() throws Exception {
        for (String k : List.of("0", "-1", "two", "1.5", "")) {
            refused(mvc, get("/api/v1/paths/1/3").param("k", k), 400, "k");
        }
        // beyond the routing service's own bound
        refused(mvc, get("/api/v1/paths/1/3").param("k", "100000"), 400, "k");
        refused(mvc, get("/api/v1/paths/1/3").param("metric", "latency"), 400, "metric");
        refused(mvc, get("/api/v1/paths/s1/3"), 400, "src");
        refused(mvc, get("/api/v1/paths/1/0xzz"), 400, "dst");
        assertEquals(List.of("k=100000 CAPACITY"), asked, "nothing else reached the routing service");
    }

    @Test
    void aSwitchOutsideTheTopologyIsNotFound() throws Exception {
        refused(mvc, get("/api/v1/paths/9/3"), 404, "src");
        refused(mvc, get("/api/v1/paths/1/00:00:00:00:00:00:00:09"), 404, "dst");
        assertEquals(List.of(), asked);
    }

    private static Topology topology(Set<DatapathId> switches) {
        return new Topology() {
            @Override
            public long version() {
                return 1;
            }

            @Override
            public Set<DatapathId> switches() {
                return switches;
            }

            @Override
            public Set<Link> links() {
                return Set.of();
            }

            @Override
            public Set<Link> linksFrom(DatapathId dpid) {
                return Set.of();
            }

            @Override
            public boolean isInterSwitchPort(SwitchPort port) {
                return false;
            }

            @Override
            public Set<Link> unidirectionalLinks() {
                return Set.of();
            }

            @Override
            public Set<Set<DatapathId>> islands() {
                return Set.of();
            }

            @Override
            public Set<DatapathId> islandOf(DatapathId dpid) {
                return Set.of();
            }

            @Override
            public Set<OFPort> broadcastTreePorts(DatapathId dpid) {
                return Set.of();
            }

            @Override
            public boolean isBroadcastAllowed(SwitchPort port) {
                return false;
            }
        };
    }

    /** Routes between 1 and 3 only; bounds k as the real service does (1..256). */
    private final class FakeRouting implements RoutingService {

        @Override
        public Route getRoute(DatapathId src, DatapathId dst, Metric metric) {
            throw new AssertionError("the resource asks for route sets");
        }

        @Override
        public List<Route> getEqualCostRoutes(DatapathId src, DatapathId dst, Metric metric) {
            asked.add("ecmp " + metric);
            return src.equals(S1) && dst.equals(S3) ? List.of(DIRECT) : List.of();
        }

        @Override
        public List<Route> getKShortestRoutes(DatapathId src, DatapathId dst, int k, Metric metric) {
            asked.add("k=" + k + " " + metric);
            if (k < 1 || k > 256) {
                throw new IllegalArgumentException("k must be within 1..256, was " + k);
            }
            return src.equals(S1) && dst.equals(S3) ? List.of(DIRECT, VIA_2).subList(0, Math.min(k, 2)) : List.of();
        }

        @Override
        public Metric getDefaultMetric() {
            return Metric.CAPACITY;
        }
    }
}
