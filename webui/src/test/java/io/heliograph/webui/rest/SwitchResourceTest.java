package io.heliograph.webui.rest;

import static io.heliograph.webui.rest.RestFixture.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.protocol.OFControllerRole;
import org.projectfloodlight.openflow.protocol.OFFlowStatsRequest;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFRoleRequest;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.springframework.test.web.servlet.MockMvc;

import io.heliograph.core.OFErrorException;
import io.heliograph.core.testing.FakeSwitch;
import io.heliograph.core.testing.FakeSwitchService;
import io.heliograph.webui.rest.RestFixture.Answer;

class SwitchResourceTest {

    private static final List<String> PER_SWITCH = List.of("", "/ports", "/flows", "/tables", "/groups", "/meters",
            "/description", "/statistics", "/statistics/aggregate", "/role");

    private final FakeSwitchService switches = new FakeSwitchService();
    private final SwitchResource resource = new SwitchResource();
    private FakeSwitch s1;
    private MockMvc mvc;

    @BeforeEach
    void connect() {
        s1 = OpenFlowReplies.fakeSwitch(1, OFVersion.OF_13);
        switches.add(s1).add(OpenFlowReplies.fakeSwitch(0x2a, OFVersion.OF_10));
        resource.switches = switches;
        resource.timeout = Duration.ofMillis(300);
        mvc = RestFixture.mvc(resource);
    }

    private Answer get200(String path) throws Exception {
        return call(mvc, get(path)).expect(200);
    }

    @Test
    void listsTheConnectedSwitches() throws Exception {
        Answer a = get200("/api/v1/switches");
        assertEquals(2, a.size(""));
        assertEquals("00:00:00:00:00:00:00:01", a.text("/0/dpid"));
        assertEquals("OpenFlow 1.3", a.text("/0/version"));
        assertEquals(4, a.number("/0/ports"));
        assertEquals("00:00:00:00:00:00:00:2a", a.text("/1/dpid"));
        assertEquals("OpenFlow 1.0", a.text("/1/version"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"00:00:00:00:00:00:00:2a", "0x2a", "0X2A", "42"})
    void readsTheDatapathIdInEachForm(String dpid) throws Exception {
        assertEquals("00:00:00:00:00:00:00:2a", get200("/api/v1/switches/" + dpid).text("/dpid"));
    }

    @Test
    void oneSwitchHasItsConnectionFeaturesAndDescription() throws Exception {
        Answer a = get200("/api/v1/switches/1");
        assertEquals("OpenFlow 1.3", a.text("/version"));
        assertEquals("fake:6653", a.text("/address"));
        assertEquals("1970-01-01T00:00:00Z", a.text("/connectedSince"));
        assertEquals(256, a.number("/features/buffers"));
        assertEquals(254, a.number("/features/tables"));
        assertEquals("FLOW_STATS", a.text("/features/capabilities/0"));
        assertEquals("Open vSwitch", a.text("/description/hardware"));
        assertEquals("s1", a.text("/description/datapath"));
        Answer d = get200("/api/v1/switches/1/description");
        assertEquals("Nicira, Inc.", d.text("/manufacturer"));
        assertEquals("3.1.0", d.text("/software"));
    }

    @Test
    void portsWithStateConfigAndSpeed() throws Exception {
        s1.putPort(s1.getFactory().buildPortDesc().setPortNo(OFPort.of(2)).setName("s1-eth2")
                .setHwAddr(s1.getPort(OFPort.of(2)).getHwAddr()).setCurrSpeed(10_000_000).setMaxSpeed(40_000_000)
                .build());
        s1.setPort(3, false);
        Answer a = get200("/api/v1/switches/1/ports");
        assertEquals(4, a.size(""));
        assertEquals(1, a.number("/0/number"));
        assertEquals(true, a.at("/0/up").asBoolean());
        assertEquals("s1-eth2", a.text("/1/name"));
        assertEquals(10_000_000, a.number("/1/currentSpeedKbps"));
        assertEquals(40_000_000, a.number("/1/maxSpeedKbps"));
        assertEquals(false, a.at("/2/up").asBoolean());
        assertEquals("PORT_DOWN", a.text("/2/config/0"));
        assertEquals("LINK_DOWN", a.text("/2/state/0"));
        assertEquals("local", a.text("/3/id"));
        assertEquals(4294967294L, a.number("/3/number"));
    }

    @Test
    void portsOfAnOpenFlow10SwitchHaveTheSpeedOfTheirFeatureBits() throws Exception {
        FakeSwitch s2 = (FakeSwitch) switches.getSwitch(org.projectfloodlight.openflow.types.DatapathId.of(0x2a));
        s2.putPort(s2.getFactory().buildPortDesc().setPortNo(OFPort.of(1)).setName("eth1")
                .setHwAddr(s2.getPort(OFPort.of(1)).getHwAddr())
                .setCurr(java.util.Set.of(org.projectfloodlight.openflow.protocol.OFPortFeatures.PF_1GB_FD,
                        org.projectfloodlight.openflow.protocol.OFPortFeatures.PF_COPPER)).build());
        Answer a = get200("/api/v1/switches/42/ports");
        assertEquals(1_000_000, a.number("/0/currentSpeedKbps"));
        assertEquals(true, a.at("/0/maxSpeedKbps").isNull());
    }

    @Test
    void flowsAreAskedOfTheSwitchForEveryTable() throws Exception {
        Answer a = get200("/api/v1/switches/1/flows");
        assertEquals(1, a.size(""));
        assertEquals(0, a.number("/0/tableId"));
        assertEquals(100, a.number("/0/priority"));
        assertEquals("0x2a", a.text("/0/cookie"));
        assertEquals(7, a.number("/0/packets"));
        assertEquals(700, a.number("/0/bytes"));
        assertEquals(30, a.number("/0/idleTimeout"));
        assertEquals("1", a.text("/0/match/in_port"));
        assertEquals("0x800", a.text("/0/match/eth_type"));
        assertEquals("apply_actions", a.text("/0/instructions/0/type"));
        assertEquals("output=2", a.text("/0/instructions/0/actions/0"));
        OFFlowStatsRequest sent = (OFFlowStatsRequest) only(s1.take());
        assertEquals(TableId.ALL, sent.getTableId());
        assertEquals(OFPort.ANY, sent.getOutPort());
        assertEquals(OFGroup.ANY, sent.getOutGroup());
    }

    @Test
    void flowsOfAnOpenFlow10SwitchAreItsActions() throws Exception {
        Answer a = get200("/api/v1/switches/0x2a/flows");
        assertEquals("output=2", a.text("/0/instructions/0/actions/0"));
        assertEquals(12, a.number("/0/durationSeconds"));
    }

    @Test
    void flowsAndTotalsOfAnOpenFlow15SwitchAreItsOxsStatistics() throws Exception {
        switches.add(OpenFlowReplies.fakeSwitch(0x15, OFVersion.OF_15));
        Answer flows = get200("/api/v1/switches/0x15/flows");
        assertEquals(7, flows.number("/0/packets"));
        assertEquals(700, flows.number("/0/bytes"));
        assertEquals(12, flows.number("/0/durationSeconds"));
        assertEquals("output=2", flows.text("/0/instructions/0/actions/0"));
        Answer statistics = get200("/api/v1/switches/0x15/statistics");
        assertEquals(2, statistics.number("/aggregate/flowCount"));
        assertEquals(70, statistics.number("/aggregate/packets"));
        assertEquals(7000, statistics.number("/aggregate/bytes"));
        assertEquals(11, statistics.number("/ports/0/rxPackets"));
    }

    @Test
    void aSwitchThatDoesNotAnswerInTimeIs504() throws Exception {
        s1.answerWith(request -> new CompletableFuture<>());
        for (String path : List.of("/flows", "/tables", "/groups", "/meters", "/statistics", "/role")) {
            call(mvc, get("/api/v1/switches/1" + path)).refused(504, null, "did not answer the");
        }
        call(mvc, get("/api/v1/switches/1/flows")).refused(504, null,
                "switch 00:00:00:00:00:00:00:01 did not answer the flow statistics request within 300 ms");
    }

    @Test
    void aRequestTheCoreGaveUpOnIs504Too() throws Exception {
        s1.answerWith(request -> CompletableFuture.failedFuture(new TimeoutException("no reply")));
        call(mvc, get("/api/v1/switches/1/tables")).refused(504, null, "did not answer the table statistics");
    }

    @Test
    void anOpenFlowErrorFromTheSwitchIs502WithTheError() throws Exception {
        s1.answerWith(request -> CompletableFuture.failedFuture(new OFErrorException(
                s1.getFactory().errorMsgs().buildBadRequestErrorMsg().setCode(OFBadRequestCode.BAD_STAT).build())));
        call(mvc, get("/api/v1/switches/1/flows")).refused(502, null, "refused the flow statistics request");
    }

    @Test
    void tables() throws Exception {
        Answer a = get200("/api/v1/switches/1/tables");
        assertEquals(0, a.number("/0/tableId"));
        assertEquals(3, a.number("/0/activeCount"));
        assertEquals(100, a.number("/0/lookupCount"));
        assertEquals(90, a.number("/0/matchedCount"));
    }

    @Test
    void groupsJoinTheirDescriptionAndCounters() throws Exception {
        Answer a = get200("/api/v1/switches/1/groups");
        assertEquals(1, a.size(""));
        assertEquals(5, a.number("/0/groupId"));
        assertEquals("SELECT", a.text("/0/type"));
        assertEquals(2, a.number("/0/referenceCount"));
        assertEquals(10, a.number("/0/packets"));
        assertEquals(3, a.number("/0/buckets/1/weight"));
        assertEquals("output=2", a.text("/0/buckets/1/actions/0"));
        assertEquals(4, a.number("/0/buckets/1/packets"));
    }

    @Test
    void metersJoinTheirConfigurationAndCounters() throws Exception {
        Answer a = get200("/api/v1/switches/1/meters");
        assertEquals(3, a.number("/0/meterId"));
        assertEquals("KBPS", a.text("/0/flags/0"));
        assertEquals("drop", a.text("/0/bands/0/type"));
        assertEquals(1000, a.number("/0/bands/0/rate"));
        assertEquals(5, a.number("/0/bands/0/packets"));
        assertEquals(50, a.number("/0/packetsIn"));
        assertEquals(1, a.number("/0/flowCount"));
    }

    @Test
    void groupsMetersAndRolesOfAnOpenFlow10SwitchAre409() throws Exception {
        call(mvc, get("/api/v1/switches/42/groups")).refused(409, "dpid", "speaks OpenFlow 1.0, which has no groups");
        call(mvc, get("/api/v1/switches/42/meters")).refused(409, "dpid", "OpenFlow 1.3 or later");
        call(mvc, get("/api/v1/switches/42/role")).refused(409, "dpid", "no role requests");
    }

    @Test
    void statisticsArePortCountersAndFlowTotals() throws Exception {
        Answer a = get200("/api/v1/switches/1/statistics");
        assertEquals("00:00:00:00:00:00:00:01", a.text("/dpid"));
        assertEquals(1, a.number("/ports/0/port"));
        assertEquals(11, a.number("/ports/0/rxPackets"));
        assertEquals(1200, a.number("/ports/0/txBytes"));
        assertEquals(4, a.number("/ports/0/txErrors"));
        assertEquals(60, a.number("/ports/0/durationSeconds"));
        assertEquals(2, a.number("/aggregate/flowCount"));
        assertEquals(7000, a.number("/aggregate/bytes"));
        assertEquals(70, get200("/api/v1/switches/1/statistics/aggregate").number("/packets"));
    }

    @Test
    void roleIsAskedWithoutChangingIt() throws Exception {
        Answer a = get200("/api/v1/switches/1/role");
        assertEquals("MASTER", a.text("/role"));
        assertEquals("7", a.text("/generationId"));
        OFRoleRequest sent = (OFRoleRequest) only(s1.take());
        assertEquals(OFControllerRole.ROLE_NOCHANGE, sent.getRole());
    }

    @ParameterizedTest
    @ValueSource(strings = {"xyz", "0x", "00:00:00:00:00:00:00:00:01", "0x10000000000000000", "18446744073709551616", "-1",
            "00:00:00:00:00:00:00:0g", "1.5", "%20"})
    void aBadDatapathIdIs400NamingTheField(String dpid) throws Exception {
        for (String path : PER_SWITCH) {
            call(mvc, get("/api/v1/switches/" + dpid + path)).refused(400, "dpid", "is not a datapath id");
        }
    }

    /** The forms the console takes, too: colon bytes (a short form is padded on the left), hex, decimal. */
    @ParameterizedTest
    @ValueSource(strings = {"00:00:00:00:00:00:00:01", "00:01", "0x1", "1"})
    void everyFormOfADatapathIdNamesTheSameSwitch(String dpid) throws Exception {
        assertEquals("00:00:00:00:00:00:00:01", get200("/api/v1/switches/" + dpid).text("/dpid"));
    }

    @Test
    void theLargestDatapathIdIsRead() throws Exception {
        call(mvc, get("/api/v1/switches/18446744073709551615")).refused(404, "dpid",
                "no switch ff:ff:ff:ff:ff:ff:ff:ff is connected");
    }

    @Test
    void anUnknownSwitchIs404() throws Exception {
        for (String path : PER_SWITCH) {
            call(mvc, get("/api/v1/switches/0x99" + path)).refused(404, "dpid",
                    "no switch 00:00:00:00:00:00:00:99 is connected");
        }
    }

    @Test
    void withoutTheOpenFlowLayerEverythingIs503() throws Exception {
        resource.switches = null;
        call(mvc, get("/api/v1/switches")).refused(503, null, "not running");
        for (String path : PER_SWITCH) {
            call(mvc, get("/api/v1/switches/1" + path)).refused(503, null, "not running");
        }
    }

    private static OFMessage only(List<OFMessage> sent) {
        assertEquals(1, sent.size(), "requests sent: " + sent);
        return sent.get(0);
    }
}
