package io.heliograph.staticflows.internal.rest;

import static io.heliograph.webui.testing.Responses.answer;
import static io.heliograph.webui.testing.Responses.ok;
import static io.heliograph.webui.testing.Responses.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import com.fasterxml.jackson.databind.JsonNode;

import io.heliograph.staticflows.internal.ConnectedStaticFlows;

class ReconciliationResourceTest {

    private ConnectedStaticFlows flows;
    private MockMvc mvc;

    @BeforeEach
    void start() {
        flows = new ConnectedStaticFlows();
        mvc = MockMvcBuilders.standaloneSetup(new ReconciliationResource(flows.service()),
                new StaticEntriesResource(flows.service())).build();
    }

    @Test
    void aSwitchThatDoesNotAnswerReadsNotPossibleWithTheReasonAndTheListSaysSo() throws Exception {
        assertEquals(0, ok(mvc, get("/api/v1/staticflows/reconciliation")).size(), "nothing reconciled yet");
        answer(mvc, StaticEntriesResourceTest.json(post("/api/v1/staticflows/flows"), StaticEntriesResourceTest.WEB), 201);

        flows.reconcile(false);
        flows.advance(Duration.ofSeconds(3)); // the retries after 1 s and 2 s

        JsonNode all = ok(mvc, get("/api/v1/staticflows/reconciliation"));
        assertEquals(1, all.size(), all.toString());
        JsonNode one = ok(mvc, get("/api/v1/staticflows/reconciliation/00:00:00:00:00:00:00:01"));
        assertEquals(all.get(0), one);
        assertEquals("00:00:00:00:00:00:00:01", one.get("dpid").asText());
        assertEquals("NOT_POSSIBLE", one.get("state").asText());
        assertEquals("the switch did not answer the flow statistics request within 10000 ms", one.get("reason").asText());
        assertEquals(3, one.get("attempts").asInt());
        assertEquals(3, one.get("failedInARow").asInt());
        assertEquals("2026-01-01T00:00:03Z", one.get("lastAttempt").asText());
        assertEquals("2026-01-01T00:00:07Z", one.get("nextAttempt").asText(), "4 s after the third failure");

        // Added while the switch was connected: its own push was confirmed (barrier), so it stays INSTALLED.
        JsonNode entry = ok(mvc, get("/api/v1/staticflows/flows")).get(0);
        assertEquals("INSTALLED", entry.get("state").asText());
        assertEquals("NOT_POSSIBLE", entry.get("reconciliation").asText(), "the list says the switch cannot be read");
        assertEquals("NOT_POSSIBLE", ok(mvc, get("/api/v1/staticflows")).get(0).get("reconciliation").asText());
    }

    @Test
    void aSwitchThatAnswersIsOk() throws Exception {
        flows.reconcile(true);
        JsonNode one = ok(mvc, get("/api/v1/staticflows/reconciliation/0x1"));
        assertEquals("OK", one.get("state").asText());
        assertEquals("", one.get("reason").asText());
        assertTrue(one.get("nextAttempt").isNull(), one.toString());
    }

    @Test
    void aSwitchNotConnectedHereIs404AndABadIdIs400() throws Exception {
        refused(mvc, get("/api/v1/staticflows/reconciliation/0x2"), 404, "dpid");
        refused(mvc, get("/api/v1/staticflows/reconciliation/s1"), 400, "dpid");
    }
}
