package io.heliograph.webui.rest;

import static io.heliograph.webui.rest.RestFixture.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFVersion;

import io.heliograph.core.testing.FakeSwitch;
import io.heliograph.core.testing.FakeSwitchService;
import io.heliograph.webui.rest.RestFixture.Answer;

/**
 * What the OpenFlow layer says about a switch beyond OpenFlow: what it refused or dropped from it
 * (counters), and that a switch which has not described itself yet is listed and shown all the same.
 */
class SwitchCountersTest {

    /** A switch that has not answered the description request, and whose connection counted drops. */
    private static FakeSwitch undescribed(long dpid, Map<String, Long> counters) {
        return new FakeSwitch(dpid, OFVersion.OF_13) {
            @Override
            public Map<String, Long> getCounters() {
                return counters;
            }
        }.setFeatures(OpenFlowReplies.fakeSwitch(dpid, OFVersion.OF_13).getFeatures());
    }

    private static SwitchResource resource(FakeSwitch... switches) {
        SwitchResource resource = new SwitchResource();
        FakeSwitchService service = new FakeSwitchService();
        for (FakeSwitch sw : switches) {
            service.add(sw);
        }
        resource.switches = service;
        return resource;
    }

    @Test
    void theSwitchsCountersAreInItsViewAndItsLine() throws Exception {
        FakeSwitch flooding = undescribed(5, Map.of("packetInsDropped", 1234L, "badInput.BAD_REQUEST/BAD_LEN", 2L));
        var mvc = RestFixture.mvc(resource(flooding));

        Answer one = call(mvc, get("/api/v1/switches/5")).expect(200);
        assertEquals(1234, one.number("/counters/packetInsDropped"));
        assertEquals(2, one.number("/counters/badInput.BAD_REQUEST~1BAD_LEN"));
        assertTrue(one.json().at("/description").isNull(), "no description yet: " + one.body());

        Answer list = call(mvc, get("/api/v1/switches")).expect(200);
        assertEquals(1234, list.number("/0/counters/packetInsDropped"));
        assertTrue(list.json().at("/0/description").isNull(), list.body());
    }

    @Test
    void aSwitchWithNothingCountedHasEmptyCounters() throws Exception {
        Answer one = call(RestFixture.mvc(resource(undescribed(6, Map.of()))), get("/api/v1/switches/6")).expect(200);
        assertTrue(one.json().at("/counters").isObject() && one.json().at("/counters").isEmpty(), one.body());
    }

    @Test
    void theDescriptionOfASwitchThatHasNotAnsweredIs504NamingIt() throws Exception {
        var mvc = RestFixture.mvc(resource(undescribed(7, Map.of())));
        Answer a = call(mvc, get("/api/v1/switches/7/description")).expect(504);
        assertTrue(a.body().contains("has not answered the description request"), a.body());
    }
}
