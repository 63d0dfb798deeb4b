package io.heliograph.cluster.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

class FlatJsonTest {

    @Test
    void membersReadBackInOrder() {
        Map<String, Object> members = new LinkedHashMap<>();
        members.put("id", "c1 \"quoted\"\n");
        members.put("generation", 42L);
        assertEquals(members, FlatJson.read(FlatJson.write(members)));
    }

    /** Issue 18: the reader does not recurse, so its depth limit is one level; a nested value is refused where it starts. */
    @Test
    void aNestedValueIsRefusedWhereItStarts() {
        String deep = "{\"id\":" + "{\"a\":".repeat(100_000) + "1" + "}".repeat(100_001);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FlatJson.read(deep.getBytes(StandardCharsets.UTF_8)));
        assertEquals("bad JSON at offset 6: expected a string or a whole number", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> FlatJson.read("{\"id\":[\"c1\"]}".getBytes(StandardCharsets.UTF_8)));
        assertEquals("bad JSON at offset 6: expected a string or a whole number", e.getMessage());
    }
}
