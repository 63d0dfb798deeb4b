package io.heliograph.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.DatapathId;

class DatapathIdsTest {

    @Test
    void colonHexHexAndDecimalAllWork() {
        assertEquals(DatapathId.of(1), DatapathIds.parse("00:00:00:00:00:00:00:01"));
        assertEquals(DatapathId.of(0xabcdL), DatapathIds.parse("ab:cd"));
        assertEquals(DatapathId.of(0x1fL), DatapathIds.parse("0x1F"));
        assertEquals(DatapathId.of(31), DatapathIds.parse(" 31 "));
        assertEquals(DatapathId.of(-1L), DatapathIds.parse("ff:ff:ff:ff:ff:ff:ff:ff"));
        assertEquals(DatapathId.of(-1L), DatapathIds.parse("18446744073709551615"));
    }

    @Test
    void aLongBadIdIsShownShortened() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DatapathIds.parse("9".repeat(500)));
        assertEquals("'" + "9".repeat(61) + "...' is not a datapath id (e.g. 00:00:00:00:00:00:00:01, 0x1 or 1)",
                e.getMessage());
    }

    @Test
    void anythingElseIsRefusedWithAnExample() {
        for (String bad : new String[] {"", "s1", "00:00:00:00:00:00:00:00:01", "0:zz", "1::2", "0x", "-3", "100:1"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DatapathIds.parse(bad));
            assertEquals("'" + bad + "' is not a datapath id (e.g. 00:00:00:00:00:00:00:01, 0x1 or 1)", e.getMessage());
        }
    }
}
