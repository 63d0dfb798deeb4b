package io.heliograph.core.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.heliograph.core.json.Json;

class DecisionTableJsonTest {

    private final DecisionTableJson<String> json = DecisionTableJson.ofStrings();
    private final Instant t = Instant.parse("2026-11-29T15:20:00.123Z");

    private final DecisionTable<String> table = new DecisionTable<>("E1", 7, t, List.of(
            new Decision<>("v0/800/*", "R2", Origin.CENTRAL, 7,
                    Evidence.of(Map.of("R2->E1", 10_000.0, "R1->E1", 15_000.5, "viewers:v0/800", 3000.0)), t.minusSeconds(5)),
            new Decision<>("v0/*/*", "R1", Origin.LOCAL, 6, Evidence.of(Map.of("R1->E1", 1e-3)), t)));

    @Test
    void aTableSurvivesTheRoundTripThroughJsonBytes() {
        assertEquals(table, json.decode(json.encode(table)));
        String text = new String(json.encode(table), StandardCharsets.UTF_8);
        assertTrue(text.contains("\"R2->E1\":10000,"), "whole measurements are numbers: " + text);
        assertTrue(text.contains("\"R1->E1\":\"15000.5\""), "others decimal strings, which the controller's JSON reads: " + text);
    }

    @Test
    void aDocumentReadByAnotherMapperWithIntegersAndDoublesIsTakenToo() {
        Map<String, Object> doc = Map.of("partition", "E1", "version", 7, "issuedAt", 5,
                "decisions", List.of(Map.of("key", "v0/800", "value", "R2", "origin", "CENTRAL", "version", 7,
                        "decidedAt", 5, "evidence", Map.of("R2->E1", 2.5))));
        DecisionTable<String> read = json.fromJson(doc);
        assertEquals(2.5, read.lookup("v0/800").orElseThrow().evidence().measurements().get("R2->E1"));
    }

    private String refusal(String document) {
        return assertThrows(IllegalArgumentException.class, () -> json.decode(document.getBytes(StandardCharsets.UTF_8)))
                .getMessage();
    }

    /** A table whose first three decisions are well formed and whose fourth ({@code $.decisions[3]}) is given. */
    private static String tableWith(String fourth) {
        StringBuilder doc = new StringBuilder("{\"partition\":\"E1\",\"version\":7,\"issuedAt\":1,\"decisions\":[");
        for (String key : List.of("a", "b", "c")) {
            doc.append("{\"key\":\"").append(key)
                    .append("\",\"value\":\"R\",\"origin\":\"CENTRAL\",\"version\":7,\"decidedAt\":1,\"evidence\":{}},");
        }
        return doc.append(fourth).append("]}").toString();
    }

    @Test
    void aMalformedTableIsRefusedNamingThePathAndTheProblem() {
        String ok = "{\"key\":\"v0/800\",\"value\":\"R2\",\"origin\":\"CENTRAL\",\"version\":7,\"decidedAt\":1,\"evidence\":{}}";
        // the fourth decision's member as written, what replaces it, and the refusal
        List<List<String>> cases = List.of(
                List.of("\"version\":7", "\"version\":\"7\"", "$.decisions[3].version: not a whole number"),
                List.of("\"version\":7", "\"version\":8", "$.decisions[3].version: 8 is newer than the table's 7"),
                List.of("\"origin\":\"CENTRAL\"", "\"origin\":\"GLOBAL\"", "$.decisions[3].origin: not CENTRAL or LOCAL: GLOBAL"),
                List.of("\"value\":\"R2\"", "\"value\":3", "$.decisions[3].value: not a non-empty string: 3"),
                List.of("\"evidence\":{}", "\"evidence\":{\"R2->E1\":\"NaN\"}",
                        "$.decisions[3].evidence[\"R2->E1\"]: not a finite number: NaN"),
                List.of(",\"evidence\":{}", "", "$.decisions[3].evidence: missing"),
                List.of("\"key\":\"v0/800\"", "\"key\":\"a\"", "$.decisions[3].key: a appears twice"),
                List.of("\"key\":\"v0/800\"", "\"key\":\"v0//800\"", "$.decisions[3].key: \"v0//800\" has an empty segment"));
        for (List<String> c : cases) {
            String fourth = ok.replace(c.get(0), c.get(1));
            assertEquals(c.get(2), refusal(tableWith(fourth)), fourth);
        }
        assertEquals("$.version: negative: -1", refusal("{\"partition\":\"E1\",\"version\":-1,\"issuedAt\":1,\"decisions\":[]}"));
        assertEquals("$.decisions: missing", refusal("{\"partition\":\"E1\",\"version\":1,\"issuedAt\":1}"));
        assertEquals("$: not an object", refusal("[]"));
        assertTrue(refusal("{\"partition\":").startsWith("$: not JSON: "));
        assertEquals(table, json.fromJson(Json.parse(json.encode(table))));
    }
}
