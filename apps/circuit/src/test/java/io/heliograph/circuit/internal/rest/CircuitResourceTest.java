package io.heliograph.circuit.internal.rest;

import static io.heliograph.webui.testing.Responses.answer;
import static io.heliograph.webui.testing.Responses.ok;
import static io.heliograph.webui.testing.Responses.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.RequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import com.fasterxml.jackson.databind.JsonNode;

import io.heliograph.circuit.engine.WeekPlan;
import io.heliograph.circuit.internal.CircuitFixture;
import io.heliograph.webui.api.ApiException;

/** The REST API on a running app (alone, manual clock): answers, and bad bodies refused with nothing changed. */
class CircuitResourceTest {

    private static final String BASE = "/api/v1/circuit";
    private static final String FLOW = "{\"src\": \"10.0.0.1\", \"srcPort\": 40000, \"dst\": \"10.0.1.1\", "
            + "\"dstPort\": 5001, \"protocol\": 6}";

    private final CircuitFixture app = new CircuitFixture();
    private final MockMvc mvc = MockMvcBuilders.standaloneSetup(new CircuitResource(app.circuit())).build();

    @AfterEach
    void stop() {
        app.close();
    }

    private static RequestBuilder json(org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder b,
            String body) {
        return b.contentType(MediaType.APPLICATION_JSON).content(body);
    }

    private static String week(String days) {
        return "{\"scheduler\": \"fixed\", \"estimator\": \"voq\", \"fixedWeek\": {\"weekMicros\": 440, "
                + "\"nightMicros\": 20, \"days\": [" + days + "]}}";
    }

    @Test
    void theScheduleGroupsAndPlacementAreServed() throws Exception {
        JsonNode schedule = ok(mvc, get(BASE + "/schedule"));
        assertEquals(10, schedule.at("/current/week").asLong());
        assertEquals("solstice", schedule.at("/current/scheduler").asText());
        assertEquals("voq", schedule.at("/current/estimator").asText());
        assertEquals(2000, schedule.at("/current/plan/weekMicros").asLong());
        assertEquals(4, schedule.at("/current/plan/days/0/sourceOf").size());
        assertEquals(4, schedule.at("/current/circuitBytes").size());
        assertTrue(schedule.get("next").isNull());
        app.advanceWeeks(0.5);
        assertEquals(11, ok(mvc, get(BASE + "/schedule")).at("/next/week").asLong());

        JsonNode groups = ok(mvc, get(BASE + "/groups"));
        assertEquals(4, groups.get("racks").size());
        assertEquals("10.0.3.2", groups.at("/racks/3/hosts/1").asText());

        JsonNode placement = ok(mvc, get(BASE + "/placement?writerRack=3"));
        assertEquals(0, placement.get("replicaRack").asInt(), "ring: 3 + 1 mod 4");
        refused(mvc, get(BASE + "/placement?writerRack=4"), 400, "writerRack");
        refused(mvc, get(BASE + "/placement?writerRack=-1"), 400, "writerRack");
        refused(mvc, get(BASE + "/placement?writerRack=one"), 400, "writerRack");
        refused(mvc, get(BASE + "/placement"), 400, "writerRack");
    }

    @Test
    void aValidChoiceIsUsedFromTheNextWeekAndABadOneChangesNothing() throws Exception {
        WeekPlan running = app.currentPlan();
        String before = ok(mvc, get(BASE + "/scheduler")).toString();

        refused(mvc, json(put(BASE + "/scheduler"), "{\"scheduler\": \"bvn\", \"estimator\": \"voq\"}"), 400, "scheduler");
        refused(mvc, json(put(BASE + "/scheduler"), "{\"scheduler\": \"solstice\", \"estimator\": \"psychic\"}"), 400,
                "estimator");
        refused(mvc, json(put(BASE + "/scheduler"), "{\"scheduler\": \"solstice\", \"estimator\": \"voq\", \"x\": 1}"),
                400, "x");
        refused(mvc, json(put(BASE + "/scheduler"), "[1, 2]"), 400, "$");
        refused(mvc, json(put(BASE + "/scheduler"), "{\"scheduler\": "), 400, "$");
        refused(mvc, put(BASE + "/scheduler"), 400, "$");
        // a fixed week that is not a matching, has a negative or NaN day, does not add up, or is not this network's
        ApiException e = refused(mvc, json(put(BASE + "/scheduler"), week("{\"upMicros\": 200, \"sourceOf\": [0, 0, 1, 2]},"
                + "{\"upMicros\": 200, \"sourceOf\": [1, 2, 3, 0]}")), 400, "fixedWeek.days[0].sourceOf[1]");
        assertTrue(e.message().contains("perfect matching"), e.message());
        refused(mvc, json(put(BASE + "/scheduler"), week("{\"upMicros\": -200, \"sourceOf\": [1, 2, 3, 0]},"
                + "{\"upMicros\": 200, \"sourceOf\": [3, 0, 1, 2]}")), 400, "fixedWeek.days[0].upMicros");
        refused(mvc, json(put(BASE + "/scheduler"), week("{\"upMicros\": NaN, \"sourceOf\": [1, 2, 3, 0]},"
                + "{\"upMicros\": 200, \"sourceOf\": [3, 0, 1, 2]}")), 400, "$");
        refused(mvc, json(put(BASE + "/scheduler"), week("{\"upMicros\": \"NaN\", \"sourceOf\": [1, 2, 3, 0]},"
                + "{\"upMicros\": 200, \"sourceOf\": [3, 0, 1, 2]}")), 400, "fixedWeek.days[0].upMicros");
        refused(mvc, json(put(BASE + "/scheduler"), week("{\"upMicros\": 200, \"sourceOf\": [1, 2, 0]},"
                + "{\"upMicros\": 200, \"sourceOf\": [2, 0, 1]}")), 400, "fixedWeek.days[0].sourceOf");
        refused(mvc, json(put(BASE + "/scheduler"), week("{\"upMicros\": 300, \"sourceOf\": [1, 2, 3, 0]},"
                + "{\"upMicros\": 200, \"sourceOf\": [3, 0, 1, 2]}")), 400, "fixedWeek.weekMicros");

        assertEquals(before, ok(mvc, get(BASE + "/scheduler")).toString(), "nothing changed");
        app.advanceWeeks(1.5);
        assertEquals("solstice", ok(mvc, get(BASE + "/schedule")).at("/current/scheduler").asText());
        assertEquals(running, app.currentPlan(), "the same demand (none) gives the same week");

        JsonNode chosen = ok(mvc, json(put(BASE + "/scheduler"), week("{\"upMicros\": 200, \"sourceOf\": [1, 2, 3, 0]},"
                + "{\"upMicros\": 200, \"sourceOf\": [3, 0, 1, 2]}")));
        assertEquals("fixed", chosen.get("scheduler").asText());
        assertEquals(2, chosen.at("/fixedWeek/days").size());
        app.advanceWeeks(1);
        JsonNode next = ok(mvc, get(BASE + "/schedule")).get("next");
        assertEquals("fixed", next.get("scheduler").asText());
        assertEquals(440, next.at("/plan/weekMicros").asLong());
        assertEquals(3, next.at("/plan/days/1/sourceOf/0").asInt());
    }

    @Test
    void adusAreTakenAllOrNoneAndDriveTheAduEstimate() throws Exception {
        refused(mvc, json(post(BASE + "/adus"), "[{\"flow\": " + FLOW + ", \"bytes\": 1000}, {\"flow\": "
                + FLOW.replace("10.0.0.1", "192.168.9.9") + ", \"bytes\": 5}]"), 400, "$[1].flow.src");
        refused(mvc, json(post(BASE + "/adus"), "[{\"flow\": " + FLOW + ", \"bytes\": 2000000000000}]"), 400, "$[0].bytes");
        refused(mvc, json(post(BASE + "/adus"), "[{\"flow\": " + FLOW + ", \"bytes\": -1}]"), 400, "$[0].bytes");
        refused(mvc, json(post(BASE + "/adus"), "[{\"flow\": " + FLOW + ", \"bytes\": \"NaN\"}]"), 400, "$[0].bytes");
        refused(mvc, json(post(BASE + "/adus"), "[{\"flow\": " + FLOW + ", \"bytes\": 1.5}]"), 400, "$");
        refused(mvc, json(post(BASE + "/adus"), "{\"flow\": 1}"), 400, "$");
        StringBuilder many = new StringBuilder("[");
        for (int i = 0; i <= 10_000; i++) {
            many.append(i == 0 ? "" : ",").append("{\"flow\": ").append(FLOW).append(", \"bytes\": 1}");
        }
        refused(mvc, json(post(BASE + "/adus"), many + "]"), 400, "$");
        assertEquals(0, app.adusOpen(), "nothing recorded");
        assertEquals(0, ok(mvc, get(BASE + "/demand")).at("/estimators/adu/0/1").asLong());

        JsonNode accepted = answer(mvc, json(post(BASE + "/adus"), "[{\"flow\": " + FLOW + ", \"bytes\": 7000000}]"), 202);
        assertEquals(1, accepted.get("accepted").asInt());
        assertEquals(1, app.adusOpen());
        JsonNode demand = ok(mvc, get(BASE + "/demand"));
        assertEquals(7_000_000, demand.at("/estimators/adu/0/1").asLong());
        assertEquals(0, demand.at("/estimators/voq/0/1").asLong());

        ok(mvc, json(put(BASE + "/scheduler"), "{\"scheduler\": \"solstice\", \"estimator\": \"adu\"}"));
        app.advanceWeeks(1);
        JsonNode current = ok(mvc, get(BASE + "/schedule")).get("current");
        assertEquals(11, current.get("week").asLong());
        assertEquals("adu", current.get("estimator").asText());
        assertEquals(7_000_000, current.at("/demand/0/1").asLong());
        assertTrue(current.at("/circuitBytes/0/1").asLong() > 0, "rack 0 to 1 gets a circuit: " + current);
        assertEquals("adu", ok(mvc, get(BASE + "/demand")).get("estimator").asText());
    }

    @Test
    void theSchedulerStatusSaysWhereTheLoopRunsAndThatThereIsNoExecutor() throws Exception {
        JsonNode status = ok(mvc, get(BASE + "/scheduler"));
        assertEquals("solstice", status.get("scheduler").asText());
        assertEquals("voq", status.get("estimator").asText());
        assertTrue(status.get("schedulingHere").asBoolean());
        assertTrue(status.get("executor").isNull());
        assertEquals(4, status.at("/network/racks").asInt());
        assertEquals(80.0, status.at("/network/circuitGbps").asDouble(), 1e-9);
        assertTrue(status.get("error").isNull());
    }
}
