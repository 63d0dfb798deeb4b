package io.heliograph.webui.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFVersion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.heliograph.core.SwitchListener.PortChange;
import io.heliograph.core.testing.FakeSwitch;
import io.heliograph.webui.RestJson;
import io.heliograph.webui.api.LiveEvents;

class SwitchEventsTest {

    private static final ObjectMapper JSON = RestJson.objectMapper();

    private final List<String> types = new ArrayList<>();
    private final List<JsonNode> published = new ArrayList<>();
    private final LiveEvents recorder = (type, payload) -> {
        types.add(type);
        published.add(JSON.valueToTree(payload.get()));
    };
    private final SwitchEvents events = new SwitchEvents(recorder);
    private final FakeSwitch s1 = OpenFlowReplies.fakeSwitch(1, OFVersion.OF_13);

    @Test
    void aConnectingSwitchIsPublishedAsTheSwitchListShowsIt() {
        events.switchAdded(s1);
        assertEquals(List.of("switch"), types);
        JsonNode e = published.get(0);
        assertEquals("connected", e.get("action").asText());
        assertEquals("00:00:00:00:00:00:00:01", e.get("dpid").asText());
        assertEquals("00:00:00:00:00:00:00:01", e.at("/switch/dpid").asText());
        assertEquals("OpenFlow 1.3", e.at("/switch/version").asText());
        assertEquals(4, e.at("/switch/ports").asInt());
        assertFalse(e.has("port"), "no port in a connect event: " + e);
    }

    @Test
    void aDisconnectingSwitchIsPublished() {
        events.switchRemoved(s1);
        assertEquals("disconnected", published.get(0).get("action").asText());
        assertEquals("00:00:00:00:00:00:00:01", published.get(0).get("dpid").asText());
    }

    @Test
    void aPortChangeCarriesThePortAsItIsNow() {
        OFPortDesc down = s1.setPort(2, false);
        events.portChanged(s1, down, PortChange.MODIFIED);
        JsonNode e = published.get(0);
        assertEquals("changed", e.get("action").asText());
        assertEquals("modified", e.get("portChange").asText());
        assertEquals(2, e.at("/port/number").asInt());
        assertFalse(e.at("/port/up").asBoolean(), e.toString());
    }
}
