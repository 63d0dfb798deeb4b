package io.heliograph.sims.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
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

    @Test
    void takesOneOfTheNamesOrAll() {
        assertEquals("b", Flags.oneOrAll("run", "b", List.of("a", "b")));
        assertEquals("all", Flags.oneOrAll("run", "all", List.of("a", "b")));
        assertEquals("which run? one of a, b, all",
                assertThrows(IllegalArgumentException.class, () -> Flags.oneOrAll("run", null, List.of("a", "b"))).getMessage());
        assertEquals("no run 'c': one of a, b, all",
                assertThrows(IllegalArgumentException.class, () -> Flags.oneOrAll("run", "c", List.of("a", "b"))).getMessage());
    }
}
