package io.heliograph.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class InterfaceNamesTest {

    @Test
    void namesCarryTheRunPrefixAndFitLinuxLimit() {
        InterfaceNames names = InterfaceNames.fresh(Set.of());
        String name = names.name("s12s13");
        assertTrue(name.startsWith(names.prefix()));
        assertTrue(name.length() <= InterfaceNames.MAX_INTERFACE_NAME);
        assertTrue(names.owns(name));
    }

    @Test
    void tooLongNamesAreRefusedWithTheName() {
        InterfaceNames names = InterfaceNames.withPrefix("hgabcd");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> names.name("s100s101xy"));
        assertTrue(e.getMessage().contains("hgabcds100s101xy"), e.getMessage());
    }

    @Test
    void freshPrefixAvoidsNamesInUse() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            InterfaceNames names = InterfaceNames.fresh(seen);
            assertFalse(seen.stream().anyMatch(n -> n.startsWith(names.prefix())));
            seen.add(names.name("s1"));
        }
        assertEquals(50, seen.size());
    }
}
