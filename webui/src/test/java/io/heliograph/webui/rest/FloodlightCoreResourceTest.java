package io.heliograph.webui.rest;

import static io.heliograph.webui.rest.RestFixture.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.springframework.test.web.servlet.MockMvc;

import io.heliograph.core.testing.FakeSwitch;
import io.heliograph.core.testing.FakeSwitchService;
import io.heliograph.webui.rest.RestFixture.Answer;

/** The Floodlight aliases answer in Floodlight 1.x's shapes: its keys, OF_13 versions, numbers as strings. */
class FloodlightCoreResourceTest {

    private final FakeSwitchService switches = new FakeSwitchService();
    private final FloodlightCoreResource resource = new FloodlightCoreResource();
    private FakeSwitch s1;
    private MockMvc mvc;

    @BeforeEach
    void connect() {
        s1 = OpenFlowReplies.fakeSwitch(1, OFVersion.OF_13);
        switches.add(s1).add(OpenFlowReplies.fakeSwitch(2, OFVersion.OF_10));
        resource.switches = switches;
        resource.timeout = Duration.ofMillis(300);
        mvc = RestFixture.mvc(resource);
    }

    private Answer stats(String dpid, String type) throws Exception {
        return call(mvc, get("/wm/core/switch/" + dpid + "/" + type + "/json")).expect(200);
    }

    @Test
    void controllerSwitchesListsDpidAddressAndConnectionTime() throws Exception {
        Answer a = call(mvc, get("/wm/core/controller/switches/json")).expect(200);
        assertEquals(2, a.size(""));
        assertEquals("00:00:00:00:00:00:00:01", a.text("/0/switchDPID"));
        assertEquals("/fake:6653", a.text("/0/inetAddress"));
        assertEquals(0, a.number("/0/connectedSince"));
    }

    @Test
    void portStatisticsAreAPortReplyWithNumbersAsStrings() throws Exception {
        Answer a = stats("00:00:00:00:00:00:00:01", "port");
        assertEquals("OF_13", a.text("/port_reply/0/version"));
        assertEquals("1", a.text("/port_reply/0/port/0/port_number"));
        assertTrue(a.at("/port_reply/0/port/0/receive_packets").isTextual());
        assertEquals("11", a.text("/port_reply/0/port/0/receive_packets"));
        assertEquals("1200", a.text("/port_reply/0/port/0/transmit_bytes"));
        assertEquals("0", a.text("/port_reply/0/port/0/receive_CRC_errors"));
        assertEquals("60", a.text("/port_reply/0/port/0/duration_sec"));
    }

    @Test
    void flowsHaveMatchAndInstructionsAsFloodlightWritesThem() throws Exception {
        Answer a = stats("1", "flow");
        assertEquals("OF_13", a.text("/flows/0/version"));
        assertEquals("42", a.text("/flows/0/cookie"));
        assertEquals("0", a.text("/flows/0/table_id"));
        assertEquals("7", a.text("/flows/0/packet_count"));
        assertEquals("100", a.text("/flows/0/priority"));
        assertEquals("30", a.text("/flows/0/idle_timeout_s"));
        assertEquals("1", a.text("/flows/0/match/in_port"));
        assertEquals("output=2", a.text("/flows/0/instructions/instruction_apply_actions/actions"));

        Answer of10 = stats("2", "flow");
        assertEquals("output=2", of10.text("/flows/0/actions/actions"));
        assertTrue(of10.json().at("/flows/0/flags").isMissingNode(), "OpenFlow 1.0 flows have no flags");
    }

    @Test
    void aggregateDescFeaturesAndTable() throws Exception {
        Answer aggregate = stats("1", "aggregate");
        assertEquals("2", aggregate.text("/aggregate/flow_count"));
        assertEquals("7000", aggregate.text("/aggregate/byte_count"));

        Answer desc = stats("1", "desc");
        assertEquals("OF_13", desc.text("/desc/version"));
        assertEquals("Nicira, Inc.", desc.text("/desc/manufacturer_description"));
        assertEquals("Open vSwitch", desc.text("/desc/hardware_description"));
        assertEquals("s1", desc.text("/desc/datapath_description"));

        Answer features = stats("1", "features");
        assertEquals("00:00:00:00:00:00:00:01", features.text("/dpid"));
        assertEquals("254", features.text("/tables"));
        assertEquals("256", features.text("/buffers"));
        assertTrue(features.text("/capabilities").contains("FLOW_STATS"));
        assertTrue(features.json().at("/port_desc").isMissingNode(), "OpenFlow 1.3 features have no ports");
        assertEquals(4, stats("2", "features").size("/port_desc"), "OpenFlow 1.0 features list the ports");

        Answer table = stats("1", "table");
        assertEquals("OF_13", table.text("/version"));
        assertEquals("3", table.text("/table/0/active_count"));
        assertEquals("90", table.text("/table/0/match_count"));
    }

    @Test
    void portDescGroupsAndMeters() throws Exception {
        Answer ports = stats("1", "port-desc");
        assertEquals("p1", ports.text("/port_desc/0/name"));
        assertEquals("local", ports.text("/port_desc/3/port_number"));

        Answer groupDesc = stats("1", "group-desc");
        assertEquals("SELECT", groupDesc.text("/group_desc/0/group_type"));
        assertEquals("5", groupDesc.text("/group_desc/0/group_number"));
        assertEquals("output=2", groupDesc.text("/group_desc/0/buckets/1/actions"));
        Answer group = stats("1", "group");
        assertEquals("2", group.text("/group/0/reference_count"));
        assertEquals("400", group.text("/group/0/bucket_counters/1/byte_count"));

        Answer meterConfig = stats("1", "meter-config");
        assertEquals("3", meterConfig.text("/meter_config/0/meter_id"));
        assertEquals("1000", meterConfig.text("/meter_config/0/meter_bands/0/rate"));
        Answer meter = stats("1", "meter");
        assertEquals("50", meter.text("/meter/0/packet_in_count"));
        assertEquals("5", meter.text("/meter/0/meter_band_stats/0/packet_band_count"));
    }

    @Test
    void allAnswersForEverySwitchByDpid() throws Exception {
        Answer a = stats("all", "desc");
        assertEquals(2, a.json().size());
        assertEquals("s1", a.text("/00:00:00:00:00:00:00:01/desc/datapath_description"));
        assertEquals("OF_10", a.text("/00:00:00:00:00:00:00:02/desc/version"));
    }

    @Test
    void allLeavesOutASwitchThatDoesNotAnswer() throws Exception {
        s1.answerWith(request -> new CompletableFuture<>());
        Answer a = stats("all", "port");
        assertEquals(List.of("00:00:00:00:00:00:00:02"), fieldNames(a));
    }

    @Test
    void errorsNameTheField() throws Exception {
        call(mvc, get("/wm/core/switch/1/bogus/json")).refused(400, "statType", "use one of port, port-desc");
        call(mvc, get("/wm/core/switch/nonsense/port/json")).refused(400, "dpid", "is not a datapath id");
        call(mvc, get("/wm/core/switch/0x77/port/json")).refused(404, "dpid", "no switch");
        call(mvc, get("/wm/core/switch/2/meter/json")).refused(409, "dpid", "which has no meters");
        s1.answerWith(request -> new CompletableFuture<>());
        call(mvc, get("/wm/core/switch/1/flow/json")).refused(504, null, "did not answer");
        resource.switches = null;
        call(mvc, get("/wm/core/controller/switches/json")).refused(503, null, "not running");
    }

    @Test
    void healthIsHealthyWhileTheSwitchServiceRuns() throws Exception {
        assertTrue(call(mvc, get("/wm/core/health/json")).expect(200).at("/healthy").asBoolean());
        resource.switches = null;
        Answer down = call(mvc, get("/wm/core/health/json")).expect(200);
        assertTrue(down.at("/healthy").isBoolean());
        assertFalse(down.at("/healthy").asBoolean(), down.body());
    }

    @Test
    void memoryIsTheHeapInBytesWithFreeWithinTotal() throws Exception {
        Answer a = call(mvc, get("/wm/core/memory/json")).expect(200);
        assertEquals(List.of("total", "free"), fieldNames(a));
        long total = a.number("/total");
        long free = a.number("/free");
        assertTrue(total > 0 && total <= Runtime.getRuntime().maxMemory(), a.body());
        assertTrue(free >= 0 && free <= total, a.body());
    }

    private static List<String> fieldNames(Answer a) {
        List<String> names = new java.util.ArrayList<>();
        a.json().fieldNames().forEachRemaining(names::add);
        assertFalse(names.isEmpty(), a.body());
        return names;
    }
}
