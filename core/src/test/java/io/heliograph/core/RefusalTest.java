package io.heliograph.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.heliograph.core.json.Json;
import io.heliograph.core.json.JsonPath;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RefusalTest {

    @Test
    void aBadDocumentBlamesThePathItsProblemStartsWith() {
        IllegalArgumentException problem = null;
        try {
            JsonPath.whole(JsonPath.object(Json.parse("{\"cost\": \"high\"}"), "$", Set.of("cost")).get("cost"), "$.cost",
                    0, 10);
        } catch (IllegalArgumentException e) {
            problem = e;
        }
        Refusal refusal = Refusal.badDocument(problem);
        assertEquals(400, refusal.status());
        assertEquals("$.cost", refusal.field());
        assertEquals("$.cost: must be a whole number, not \"high\"", refusal.getMessage());
        assertSame(problem, refusal.getCause());

        Refusal pathless = Refusal.badDocument(new IllegalArgumentException("not JSON at line 1, column 2"));
        assertNull(pathless.field());
        assertEquals(403, Refusal.forbidden("X-Vdn-Agent-Key", "not yours").status());
    }
}
