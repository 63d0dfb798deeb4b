package io.heliograph.sims.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class FlagsTest {

    @Test
    void readsAndRefusesWithTheFlagInTheMessage() {
        assertEquals("3", Flags.value(new String[] {"--n", "3"}, 1, "--n"));
        assertEquals("--n needs a value",
                assertThrows(IllegalArgumentException.class, () -> Flags.value(new String[] {"--n"}, 1, "--n")).getMessage());
        assertEquals(7, Flags.positive("7", "--n"));
        assertEquals("--n must be a whole number from 1, not '0'",
                assertThrows(IllegalArgumentException.class, () -> Flags.positive("0", "--n")).getMessage());
        assertEquals(-4L, Flags.whole("-4", "--seed"));
        assertEquals("--seed must be a whole number, not 'x'",
                assertThrows(IllegalArgumentException.class, () -> Flags.whole("x", "--seed")).getMessage());
    }
}
