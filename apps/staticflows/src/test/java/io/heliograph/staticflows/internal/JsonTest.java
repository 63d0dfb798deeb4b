package io.heliograph.staticflows.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

class JsonTest {

    private static String nested(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }

    @Test
    void nestingUpToTheLimitIsRead() {
        Object value = Json.parse(nested(Json.MAX_DEPTH));
        for (int level = 1; level < Json.MAX_DEPTH; level++) {
            value = assertInstanceOf(List.class, value).get(0);
        }
        assertEquals(List.of(), value);
        assertEquals(java.util.Map.of("a", java.util.Map.of("b", List.of(1L))), Json.parse("{\"a\": {\"b\": [1]}}"));
    }

    @Test
    void oneLevelMoreIsRefusedNamingTheLimitAndWhere() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Json.parse("{\"a\":" + nested(Json.MAX_DEPTH) + "}"));
        assertEquals("nested deeper than " + Json.MAX_DEPTH + " levels of arrays and objects at line 1, column "
                + (5 + Json.MAX_DEPTH), e.getMessage());
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
