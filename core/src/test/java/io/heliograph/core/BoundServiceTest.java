package io.heliograph.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BoundServiceTest {

    private final BoundService<String> bound = new BoundService<>();

    @Test
    void aServiceIsCurrentFromItsBindToItsUnbind() {
        assertNull(bound.get());
        bound.bind("a");
        assertEquals("a", bound.get());
        assertTrue(bound.unbind("a"));
        assertNull(bound.get());
    }

    /** A GREEDY rebind: bind(new) comes before unbind(old), which must leave the new one in place. */
    @Test
    void unbindingTheServiceAReplacementAlreadyTookOverFromKeepsTheReplacement() {
        String old = new String("service");
        String replacement = new String("service");
        bound.bind(old);
        bound.bind(replacement);
        assertFalse(bound.unbind(old), "an equal instance is still another service");
        assertSame(replacement, bound.get());
        assertTrue(bound.unbind(replacement));
        assertNull(bound.get());
    }
}
