package io.heliograph.stats.internal.rest;

import static io.heliograph.webui.testing.Responses.ok;
import static io.heliograph.webui.testing.Responses.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import com.fasterxml.jackson.databind.JsonNode;

import io.heliograph.core.SwitchPort;
import io.heliograph.stats.FlowKey;
import io.heliograph.stats.FlowRate;
import io.heliograph.stats.PortRate;
import io.heliograph.stats.StatisticsService;
import io.heliograph.stats.SwitchStatistics;
import io.heliograph.stats.TrafficMatrix;

class StatisticsResourceTest {

    private static final OFFactory OF13 = OFFactories.getFactory(OFVersion.OF_13);
    private static final Instant T0 = Instant.parse("2026-11-21T12:00:00Z");
    private static final DatapathId S1 = DatapathId.of(1);
    /** Polled, but its replies have not come in. */
    private static final DatapathId S2 = DatapathId.of(2);
    private static final Match IP_FLOW = OF13.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(1))
            .setExact(MatchField.ETH_TYPE, EthType.IPv4)
            .setMasked(MatchField.IPV4_DST, IPv4Address.of("10.0.0.0"), IPv4Address.of("255.0.0.0")).build();
    private static final FlowKey HIGH = new FlowKey(TableId.of(0), 100, IP_FLOW, U64.of(0xabc));
    private static final FlowKey LOW = new FlowKey(TableId.of(0), 1, OF13.buildMatch().build(), U64.ZERO);

    private final MockMvc mvc = MockMvcBuilders.standaloneSetup(new StatisticsResource(new FakeStatistics())).build();

    private static PortRate portRate(int port, int second, double rxBps) {
        return new PortRate(SwitchPort.of(S1, OFPort.of(port)), T0.plusSeconds(second), rxBps, rxBps / 2, rxBps / 8000,
                rxBps / 16000);
    }

    private static FlowRate flowRate(FlowKey flow, int second, double bps) {
        return new FlowRate(S1, flow, T0.plusSeconds(second), bps, bps / 8000);
    }

    @Test
    void portRatesOfASwitchByPortNumber() throws Exception {
        JsonNode rates = ok(mvc, get("/api/v1/stats/switches/0x1/ports"));
        assertEquals(2, rates.size());
        JsonNode first = rates.get(0);
        assertEquals("00:00:00:00:00:00:00:01", first.get("dpid").asText());
        assertEquals(1, first.get("port").asInt());
        assertEquals("2026-11-21T12:00:20Z", first.get("at").asText());
        assertEquals(8000.0, first.get("rxBitsPerSecond").asDouble());
        assertEquals(4000.0, first.get("txBitsPerSecond").asDouble());
        assertEquals(1.0, first.get("rxPacketsPerSecond").asDouble());
        assertEquals(0.5, first.get("txPacketsPerSecond").asDouble());
        assertEquals(2, rates.at("/1/port").asInt());
        assertEquals(0, ok(mvc, get("/api/v1/stats/switches/2/ports")).size());
    }

    @Test
    void onePortsCurrentRatesAndHistoryOldestFirst() throws Exception {
        JsonNode port = ok(mvc, get("/api/v1/stats/switches/00:00:00:00:00:00:00:01/ports/1"));
        assertEquals(1, port.get("port").asInt());
        assertEquals(8000.0, port.at("/current/rxBitsPerSecond").asDouble());
        assertEquals(3, port.get("history").size());
        assertEquals("2026-11-21T12:00:00Z", port.at("/history/0/at").asText());
        assertEquals(2000.0, port.at("/history/0/rxBitsPerSecond").asDouble());
        assertEquals("2026-11-21T12:00:20Z", port.at("/history/2/at").asText());
    }

    @Test
    void flowRatesByTableThenPriorityWithPlainMatchFields() throws Exception {
        JsonNode flows = ok(mvc, get("/api/v1/stats/switches/1/flows"));
        assertEquals(2, flows.size());
        JsonNode high = flows.get(0);
        assertEquals(0, high.get("table").asInt());
        assertEquals(100, high.get("priority").asInt());
        assertEquals(U64.of(0xabc).toString(), high.get("cookie").asText());
        assertEquals(Map.of("in_port", "1", "eth_type", "0x800", "ipv4_dst", "10.0.0.0/255.0.0.0"), Map.of(
                "in_port", high.at("/match/in_port").asText(), "eth_type", high.at("/match/eth_type").asText(),
                "ipv4_dst", high.at("/match/ipv4_dst").asText()));
        assertEquals(3, high.get("match").size());
        assertEquals(80_000.0, high.get("bitsPerSecond").asDouble());
        assertEquals(10.0, high.get("packetsPerSecond").asDouble());
        assertTrue(high.get("history").isNull(), "no history unless asked for");
        assertEquals(1, flows.at("/1/priority").asInt());
        assertEquals(0, flows.at("/1/match").size());
    }

    @Test
    void flowHistoryWhenAskedFor() throws Exception {
        JsonNode flows = ok(mvc, get("/api/v1/stats/switches/1/flows").param("history", "true"));
        assertEquals(2, flows.at("/0/history").size());
        assertEquals("2026-11-21T12:00:10Z", flows.at("/0/history/0/at").asText());
        assertEquals(40_000.0, flows.at("/0/history/0/bitsPerSecond").asDouble());
        assertFalse(flows.at("/1/history").isNull());
        assertEquals(0, flows.at("/1/history").size());
    }

    @Test
    void badOrUnknownSwitchesAndPortsAreRefusedNamingTheirField() throws Exception {
        refused(mvc, get("/api/v1/stats/switches/s1/ports"), 400, "dpid");
        refused(mvc, get("/api/v1/stats/switches/0x9/ports"), 404, "dpid");
        refused(mvc, get("/api/v1/stats/switches/0x9/flows"), 404, "dpid");
        refused(mvc, get("/api/v1/stats/switches/1/ports/0"), 400, "port");
        refused(mvc, get("/api/v1/stats/switches/1/ports/eth0"), 400, "port");
        refused(mvc, get("/api/v1/stats/switches/1/ports/7"), 404, "port");
        refused(mvc, get("/api/v1/stats/switches/1/flows").param("history", "yes"), 400, "history");
    }

    private static final class FakeStatistics implements StatisticsService {

        @Override
        public PortRate getPortRate(SwitchPort port) {
            List<PortRate> history = getPortRateHistory(port);
            return history.isEmpty() ? null : history.get(history.size() - 1);
        }

        @Override
        public List<PortRate> getPortRateHistory(SwitchPort port) {
            if (!port.dpid().equals(S1)) {
                return List.of();
            }
            return switch (port.port().getPortNumber()) {
                case 1 -> List.of(portRate(1, 0, 2000), portRate(1, 10, 4000), portRate(1, 20, 8000));
                case 2 -> List.of(portRate(2, 20, 16000));
                default -> List.of();
            };
        }

        @Override
        public List<PortRate> getPortRates(DatapathId dpid) {
            // out of order on purpose: the resource sorts by port
            return dpid.equals(S1) ? List.of(getPortRate(SwitchPort.of(S1, OFPort.of(2))),
                    getPortRate(SwitchPort.of(S1, OFPort.of(1)))) : List.of();
        }

        @Override
        public List<FlowRate> getFlowRates(DatapathId dpid) {
            return dpid.equals(S1) ? List.of(flowRate(LOW, 20, 800), flowRate(HIGH, 20, 80_000)) : List.of();
        }

        @Override
        public List<FlowRate> getFlowRateHistory(DatapathId dpid, FlowKey flow) {
            List<FlowRate> history = new ArrayList<>();
            if (dpid.equals(S1) && flow.equals(HIGH)) {
                history.add(flowRate(HIGH, 10, 40_000));
                history.add(flowRate(HIGH, 20, 80_000));
            }
            return history;
        }

        @Override
        public SwitchStatistics getSwitchStatistics(DatapathId dpid) {
            return dpid.equals(S1) || dpid.equals(S2) ? SwitchStatistics.empty(dpid) : null;
        }

        @Override
        public TrafficMatrix getTrafficMatrix() {
            return TrafficMatrix.EMPTY;
        }
    }
}
