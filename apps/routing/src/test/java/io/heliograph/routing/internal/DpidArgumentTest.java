package io.heliograph.routing.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.DatapathId;

class DpidArgumentTest {

    @Test
    void colonHexHexAndDecimalAllWork() {
        assertEquals(DatapathId.of(1), DpidArgument.parse("00:00:00:00:00:00:00:01"));
        assertEquals(DatapathId.of(0xabcdL), DpidArgument.parse("ab:cd"));
        assertEquals(DatapathId.of(0x1fL), DpidArgument.parse("0x1F"));
        assertEquals(DatapathId.of(31), DpidArgument.parse(" 31 "));
        assertEquals(DatapathId.of(-1L), DpidArgument.parse("ff:ff:ff:ff:ff:ff:ff:ff"));
        assertEquals(DatapathId.of(-1L), DpidArgument.parse("18446744073709551615"));
    }

    @Test
    void anythingElseIsRefusedWithAnExample() {
        for (String bad : new String[] {"", "s1", "00:00:00:00:00:00:00:00:01", "0:zz", "1::2", "0x", "-3", "100:1"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DpidArgument.parse(bad));
            assertEquals("'" + bad + "' is not a datapath id (e.g. 00:00:00:00:00:00:00:01, 0x1 or 1)", e.getMessage());
        }
    }
}
