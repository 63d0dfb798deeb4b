package io.heliograph.staticflows.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FieldTest {

    @Test
    void aFullMaskIsAnExactMatchForEveryKindOfValue() {
        assertTrue(Field.ETH_DST.parse("00:00:00:00:00:01/ff:ff:ff:ff:ff:ff").exact());
        assertTrue(Field.ETH_TYPE.parse("0x0800/0xffff").exact());
        assertTrue(Field.TCP_DST.parse("80/0xffff").exact());
        assertTrue(Field.IPV4_DST.parse("10.0.0.1/32").exact());
        assertTrue(Field.IPV6_DST.parse("fe80::1/128").exact());
        assertTrue(Field.METADATA.parse("0x10/0xffffffffffffffff").exact());
        assertTrue(Field.IN_PORT.parse("1").exact());
    }

    @Test
    void partialAndEmptyMasksAreToldApart() {
        FieldValue mac = Field.ETH_DST.parse("00:00:00:00:00:01/ff:ff:ff:00:00:00");
        assertFalse(mac.exact());
        assertFalse(mac.wildcard());
        assertTrue(Field.ETH_DST.parse("00:00:00:00:00:01/00:00:00:00:00:00").wildcard());
        assertTrue(Field.TCP_DST.parse("80/0").wildcard());
        assertFalse(Field.TCP_DST.parse("80/0xff00").exact());
    }

    @Test
    void namesIncludeFloodlightsOpenFlow10Aliases() {
        assertEquals(Field.ETH_TYPE, Field.byName("dl_type"));
        assertEquals(Field.IPV4_SRC, Field.byName("NW_SRC"));
        assertEquals(Field.VLAN_VID, Field.byName("eth_vlan_vid"));
        assertEquals(null, Field.byName("ip_dst"));
    }
}
