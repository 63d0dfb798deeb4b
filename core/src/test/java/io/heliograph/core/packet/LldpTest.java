package io.heliograph.core.packet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

class LldpTest {

    @Test
    void mandatoryTlvs() {
        Lldp lldp = Ethernet.wrap(Frames.lldp()).lldp();

        assertTrue(lldp.isValid(), lldp.problem());
        assertEquals(Lldp.CHASSIS_MAC_ADDRESS, lldp.chassisIdSubtype());
        assertArrayEquals(new byte[] {2, 0, 0, 0, 0, 0x0a}, lldp.chassisId());
        assertEquals(2, lldp.portIdSubtype());
        assertArrayEquals(new byte[] {0, 3}, lldp.portId());
        assertEquals(120, lldp.ttl());
    }

    @Test
    void everyTlvIsIterableAndOrganisationSpecificOnesAreFound() {
        Lldp lldp = Ethernet.wrap(Frames.lldp()).lldp();

        List<Integer> types = lldp.tlvs().stream().map(Lldp.Tlv::type).toList();
        assertEquals(List.of(1, 2, 3, 5, 127), types, "up to the End TLV, padding ignored");
        assertEquals("sw1", new String(lldp.tlvs().get(3).value(), StandardCharsets.US_ASCII));
        assertEquals(-1, lldp.tlvs().get(3).oui());

        Lldp.Tlv ours = lldp.organizationSpecific(0x0026e1, 0);
        assertEquals(12, ours.length());
        assertEquals(0x0026e1, ours.oui());
        assertEquals(0, ours.subtype());
        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, 0x2a}, ours.organizationValue());
        assertNull(lldp.organizationSpecific(0x0026e1, 1));
        assertNull(lldp.organizationSpecific(0x0080c2, 0));
    }

    @Test
    void aDataUnitWithoutEndTlvIsAcceptedWhenItEndsOnATlvBoundary() {
        byte[] full = Frames.lldp();
        int endTlv = full.length - 6;

        Lldp lldp = Ethernet.wrap(Arrays.copyOf(full, endTlv)).lldp();

        assertTrue(lldp.isValid(), lldp.problem());
        assertEquals(5, lldp.tlvs().size());
    }

    @Test
    void notParseable() {
        byte[] full = Frames.lldp();
        assertProblem(Arrays.copyOf(full, 14 + 1), "LLDP: TLV 1 at byte 0 is cut off in its header");
        assertProblem(Arrays.copyOf(full, 14 + 2 + 7 + 2 + 2), "LLDP: TLV 2 (type 2) at byte 9 claims 3 bytes, 2 left");
        assertProblem(Arrays.copyOf(full, 14 + 2 + 7 + 2 + 3), "LLDP: ends after 2 TLVs, before the TTL TLV");
        assertProblem(Arrays.copyOf(full, 14), "LLDP: ends after 0 TLVs, before the chassis ID TLV");

        byte[] swapped = Frames.tlv(Frames.tlv(Frames.ethernet(1, 2, Ethernet.TYPE_LLDP),
                Lldp.TLV_PORT_ID, new byte[] {2, 0, 3}), Lldp.TLV_CHASSIS_ID, new byte[] {7, 1}).build();
        assertProblem(swapped, "LLDP: TLV 1 is type 2, expected the chassis ID TLV (type 1)");

        byte[] emptyChassis = Frames.tlv(Frames.ethernet(1, 2, Ethernet.TYPE_LLDP), Lldp.TLV_CHASSIS_ID, new byte[] {4})
                .build();
        assertProblem(emptyChassis, "LLDP: the chassis ID TLV has 1 bytes, it needs at least 2");

        byte[] earlyEnd = Frames.tlv(Frames.ethernet(1, 2, Ethernet.TYPE_LLDP), Lldp.TLV_CHASSIS_ID, new byte[] {7, 1})
                .u16(0).build();
        assertProblem(earlyEnd, "LLDP: TLV 2 is type 0, expected the port ID TLV (type 2)");
    }

    private static void assertProblem(byte[] frame, String problem) {
        Lldp lldp = Ethernet.wrap(frame).lldp();
        assertFalse(lldp.isValid());
        assertEquals(problem, lldp.problem());
        assertEquals(0, lldp.ttl());
        assertEquals(0, lldp.chassisId().length);
        assertEquals(List.of(), lldp.tlvs());
        assertNull(lldp.organizationSpecific(0x0026e1, 0));
    }
}
