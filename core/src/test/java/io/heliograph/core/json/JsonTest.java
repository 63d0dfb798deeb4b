package io.heliograph.core.json;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

class JsonTest {

    private static String nested(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aDocumentReadsAsPlainValuesInOrderWithWholeNumbersAsLongs() {
        Object value = Json.parse("{\"b\": [1, -2, 9223372036854775807], \"a\": {\"s\": \"x\\n\\u0041\", \"t\": true, \"n\": null}}");
        Map<?, ?> root = assertInstanceOf(Map.class, value);
        assertEquals(List.of("b", "a"), new ArrayList<>(root.keySet()));
        assertEquals(List.of(1L, -2L, Long.MAX_VALUE), root.get("b"));
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("s", "x\nA");
        a.put("t", true);
        a.put("n", null);
        assertEquals(a, root.get("a"));
    }

    @Test
    void writingPrettyIsTheEntryFileLayout() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "f \"1\"");
        m.put("ids", List.of(1L, 2L));
        m.put("none", List.of());
        m.put("empty", Map.of());
        m.put("inner", Map.of("k", true));
        String expected = "{\n"
                + "  \"name\": \"f \\\"1\\\"\",\n"
                + "  \"ids\": [\n"
                + "    1,\n"
                + "    2\n"
                + "  ],\n"
                + "  \"none\": [],\n"
                + "  \"empty\": {},\n"
                + "  \"inner\": {\n"
                + "    \"k\": true\n"
                + "  }\n"
                + "}\n";
        assertEquals(expected, Json.pretty(m));
        assertEquals(m, Json.parse(Json.pretty(m)));
        assertArrayEquals(bytes("{\"name\":\"f \\\"1\\\"\",\"ids\":[1,2],\"none\":[],\"empty\":{},\"inner\":{\"k\":true}}"),
                Json.compact(m));
    }

    @Test
    void aDamagedDocumentIsRefusedNamingWhere() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Json.parse("{\n  \"a\": 1,\n  \"b\" 2\n}"));
        assertTrue(e.getMessage().endsWith(" at line 3, column 7"), e.getMessage());
        assertTrue(e.getMessage().contains("expecting a colon"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Json.parse(bytes("{\"a\": 1} x")));
        assertTrue(e.getMessage().contains("at line 1, column"), e.getMessage());
    }

    @Test
    void onlyWholeNumbersWithinALongAreTaken() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"p\":\n 1.5}"));
        assertTrue(e.getMessage().startsWith("only whole numbers are expected, not 1.5 at line 2"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Json.parse("[9223372036854775808]"));
        assertTrue(e.getMessage().startsWith("9223372036854775808 is beyond a 64-bit integer at line 1"), e.getMessage());
    }

    @Test
    void nestingUpToTheLimitIsRead() {
        Object value = Json.parse(nested(Json.MAX_DEPTH));
        for (int level = 1; level < Json.MAX_DEPTH; level++) {
            value = assertInstanceOf(List.class, value).get(0);
        }
        assertEquals(List.of(), value);
        assertEquals(Map.of("a", Map.of("b", List.of(1L))), Json.parse("{\"a\": {\"b\": [1]}}"));
    }

    @Test
    void oneLevelMoreIsRefusedNamingTheLimitAndWhere() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Json.parse("{\"a\":" + nested(Json.MAX_DEPTH) + "}"));
        assertEquals("nested deeper than " + Json.MAX_DEPTH + " levels of arrays and objects at line 1, column "
                + (6 + Json.MAX_DEPTH), e.getMessage());
    }

    @Test
    void aShallowValueIsRefusedWhereItGoesDeeper() {
        assertEquals(Map.of("id", "c1", "n", 42L), Json.parse(bytes("{\"id\":\"c1\",\"n\":42}"), 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Json.parse(bytes("{\"id\":" + "{\"a\":".repeat(100_000)), 1));
        assertEquals("nested deeper than 1 levels of arrays and objects at line 1, column 8", e.getMessage());
    }

    /** The cluster's small records (issue 18): a flat object reads back in order; a nested value is refused where it starts. */
    @Test
    void aFlatObjectReadsBackInOrderAndANestedValueIsRefused() {
        Map<String, Object> members = new LinkedHashMap<>();
        members.put("id", "c1 \"quoted\"\n");
        members.put("generation", 42L);
        assertEquals(members, Json.flatObject(Json.compact(members)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Json.flatObject(bytes("{\"id\":" + "{\"a\":".repeat(100_000) + "1" + "}".repeat(100_001))));
        assertEquals("nested deeper than 1 levels of arrays and objects at line 1, column 8", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Json.flatObject(bytes("{\"id\":[\"c1\"]}")));
        assertEquals("nested deeper than 1 levels of arrays and objects at line 1, column 8", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Json.flatObject(bytes("{\"id\":true}")));
        assertEquals("\"id\" is not a string or a whole number: true", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Json.flatObject(bytes("[\"c1\"]")));
        assertEquals("not a JSON object", e.getMessage());
    }

    /** 100,000 levels on a thread with a small stack: a refusal, not a StackOverflowError. */
    @Test
    void aHostileDepthIsRefusedWithoutExhaustingTheStack() throws InterruptedException {
        String hostile = "{\"x\":".repeat(100_000);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread reader = new Thread(null, () -> {
            try {
                Json.parse(hostile);
            } catch (Throwable t) {
                thrown.set(t);
            }
        }, "small-stack", 256 * 1024);
        reader.start();
        reader.join();
        IllegalArgumentException e = assertInstanceOf(IllegalArgumentException.class, thrown.get());
        assertTrue(e.getMessage().startsWith("nested deeper than " + Json.MAX_DEPTH), e.getMessage());
    }
}
