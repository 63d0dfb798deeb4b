package io.heliograph.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFType;

class PipelineOrdersTest {

    private final List<String> problems = new ArrayList<>();

    @Test
    void withoutConfigurationPacketInHasTheDefaultOrder() {
        Map<OFType, List<String>> orders = PipelineOrders.parse(Map.of("service.pid", "io.heliograph.pipelines"),
                problems::add);

        assertEquals(Map.of(OFType.PACKET_IN, List.of("topology", "devices", "forwarding", "learningswitch")), orders);
        assertEquals(List.of(), problems);
    }

    @Test
    void keysNameTheTypeAndValuesAreCommaSeparatedNames() {
        Map<OFType, List<String>> orders = PipelineOrders.parse(Map.of(
                "order.PACKET_IN", " learningswitch , topology,,",
                "order.port_status", new String[] {"topology", "devices,stats"},
                "order.FLOW_REMOVED", List.of("stats")), problems::add);

        assertEquals(List.of("learningswitch", "topology"), orders.get(OFType.PACKET_IN));
        assertEquals(List.of("topology", "devices", "stats"), orders.get(OFType.PORT_STATUS));
        assertEquals(List.of("stats"), orders.get(OFType.FLOW_REMOVED));
        assertEquals(List.of(), problems);
    }

    @Test
    void anEmptyValueClearsTheDefault() {
        Map<OFType, List<String>> orders = PipelineOrders.parse(Map.of("order.PACKET_IN", ""), problems::add);

        assertEquals(List.of(), orders.get(OFType.PACKET_IN));
    }

    @Test
    void badKeysAndValuesAreReportedAndTheRestIsKept() {
        Map<OFType, List<String>> orders = PipelineOrders.parse(Map.of(
                "order.PAKET_IN", "topology",
                "order.ERROR", 42,
                "order.PORT_STATUS", "devices"), problems::add);

        assertEquals(List.of("devices"), orders.get(OFType.PORT_STATUS));
        assertEquals(PipelineOrders.DEFAULT_PACKET_IN, orders.get(OFType.PACKET_IN));
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("order.PAKET_IN") && p.contains("not an OpenFlow message type")),
                problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("order.ERROR") && p.contains("Integer")), problems.toString());
    }
}
