package io.heliograph.topology.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.packet.Ethernet;
import io.heliograph.core.packet.Lldp;
import io.heliograph.topology.internal.LldpProbeCodec.Outcome;
import io.heliograph.topology.internal.LldpProbeCodec.Verdict;

class LldpProbeCodecTest {

    private static final DatapathId DPID = DatapathId.of(0x0000_0a0b_0c0d_0e0fL);
    private static final OFPort PORT = OFPort.of(7);
    private static final MacAddress SOURCE = MacAddress.of("02:00:00:00:00:07");
    private static final long SENT = 1_000_000;
    private static final long MAX_AGE = 3_000;

    private final LldpProbeCodec codec = new LldpProbeCodec(key(1), 0x1234_5678);

    private static byte[] key(int seed) {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) seed);
        return key;
    }

    private byte[] probe() {
        return codec.encode(DPID, PORT, SOURCE, SENT, 15);
    }

    @Test
    void aProbeComesBackAsWhatWasSent() {
        Verdict verdict = codec.check(probe(), SENT + 20, MAX_AGE);
        assertEquals(Outcome.ACCEPTED, verdict.outcome(), verdict.detail());
        assertEquals(new LldpProbe(DPID, PORT, SENT), verdict.probe());
    }

    @Test
    void aProbeIsStandardLldpThatOtherToolsCanRead() {
        byte[] frame = probe();
        Ethernet eth = Ethernet.wrap(frame);
        assertEquals(LldpProbeCodec.LLDP_MULTICAST, eth.destinationMac());
        assertEquals(SOURCE, eth.sourceMac());
        Lldp lldp = eth.lldp();
        assertTrue(lldp.isValid(), lldp.problem());
        assertEquals("dpid:00000a0b0c0d0e0f", new String(lldp.chassisId(), StandardCharsets.US_ASCII));
        assertEquals("7", new String(lldp.portId(), StandardCharsets.US_ASCII));
        assertEquals(15, lldp.ttl());
        // Under OVS's default miss_send_len (128), so a buffering switch still sends it whole.
        assertTrue(frame.length <= 128, "frame is " + frame.length + " bytes");
    }

    @Test
    void everyHighPortNumberAndDpidSurvives() {
        DatapathId dpid = DatapathId.of(0xffff_ffff_ffff_fffeL);
        OFPort port = OFPort.of(0xffff_ff00);
        Verdict verdict = codec.check(codec.encode(dpid, port, SOURCE, SENT, 0), SENT, MAX_AGE);
        assertEquals(new LldpProbe(dpid, port, SENT), verdict.probe());
    }

    @Test
    void aChangedSignatureIsRefused() {
        byte[] frame = probe();
        int macAt = frame.length - 2 - LldpProbeCodec.MAC_BYTES; // before the End TLV
        frame[macAt + 3] ^= 0x01;
        assertRefused(Outcome.BAD_SIGNATURE, frame, SENT);
    }

    @Test
    void aChangedSenderIsRefused() {
        // Someone rewrites the claimed port (to fake a link from another port) and keeps the signature.
        byte[] frame = probe();
        int portAt = frame.length - 2 - LldpProbeCodec.MAC_BYTES - 8 - 4;
        assertEquals(7, ByteBuffer.wrap(frame, portAt, 4).getInt());
        ByteBuffer.wrap(frame, portAt, 4).putInt(8);
        assertRefused(Outcome.BAD_SIGNATURE, frame, SENT);
    }

    @Test
    void aLaterSendTimeIsRefused() {
        // Moving the time stamp forward would make an old capture fresh again.
        byte[] frame = probe();
        int timeAt = frame.length - 2 - LldpProbeCodec.MAC_BYTES - 8;
        ByteBuffer.wrap(frame, timeAt, 8).putLong(SENT + 60_000);
        assertRefused(Outcome.BAD_SIGNATURE, frame, SENT + 60_000);
    }

    @Test
    void anotherControllersProbeIsRefused() {
        LldpProbeCodec other = new LldpProbeCodec(key(2), 0x0bad_cafe);
        assertRefused(Outcome.OTHER_CONTROLLER, other.encode(DPID, PORT, SOURCE, SENT, 15), SENT);
    }

    @Test
    void anotherKeyWithOurInstanceIdIsRefused() {
        // An attacker who copied our instance id from a captured probe still cannot sign.
        LldpProbeCodec impostor = new LldpProbeCodec(key(2), codec.instance());
        assertRefused(Outcome.BAD_SIGNATURE, impostor.encode(DPID, PORT, SOURCE, SENT, 15), SENT);
    }

    @Test
    void aReplayedProbeIsRefusedOnceOlderThanTheLimit() {
        byte[] frame = probe();
        assertEquals(Outcome.ACCEPTED, codec.check(frame, SENT + MAX_AGE, MAX_AGE).outcome());
        assertRefused(Outcome.STALE, frame, SENT + MAX_AGE + 1);
        assertRefused(Outcome.STALE, frame, SENT + 3_600_000);
    }

    @Test
    void aProbeFromTheFutureIsRefused() {
        assertRefused(Outcome.STALE, probe(), SENT - 1);
    }

    @Test
    void noTruncationOfAProbeIsAccepted() {
        byte[] frame = probe();
        for (int length = 0; length < frame.length - 2; length++) {
            byte[] cut = Arrays.copyOf(frame, length);
            Verdict verdict = codec.check(cut, SENT, MAX_AGE);
            assertNotEquals(Outcome.ACCEPTED, verdict.outcome(), "cut to " + length + " bytes");
        }
        // Cut right after our TLV (no End TLV) is still a whole probe: LLDP allows the frame to end there.
        assertEquals(Outcome.ACCEPTED, codec.check(Arrays.copyOf(frame, frame.length - 2), SENT, MAX_AGE).outcome());
        // Cut inside our TLV: named as malformed, not as foreign or forged.
        assertRefused(Outcome.MALFORMED, Arrays.copyOf(frame, frame.length - 10), SENT);
    }

    @Test
    void ourTlvWithTheWrongLengthIsMalformed() {
        byte[] frame = new LldpBuilder().mandatory().org(LldpProbeCodec.OUI, LldpProbeCodec.SUBTYPE, new byte[10])
                .end().build();
        assertRefused(Outcome.MALFORMED, frame, SENT);
    }

    @Test
    void beaconAndFloodlightProbesAreForeign() {
        byte[] dpid = ByteBuffer.allocate(8).putLong(DPID.getLong()).array();
        byte[] frame = new LldpBuilder().mandatory().org(0x0026e1, 0, dpid).end().build();
        assertRefused(Outcome.FOREIGN, frame, SENT);
    }

    @Test
    void lldpWithoutOurTlvIsForeign() {
        assertRefused(Outcome.FOREIGN, new LldpBuilder().mandatory().end().build(), SENT);
    }

    @Test
    void brokenLldpIsMalformed() {
        byte[] frame = new LldpBuilder().tlv(Lldp.TLV_TTL, new byte[] {0, 120}).end().build();
        assertRefused(Outcome.MALFORMED, frame, SENT);
    }

    @Test
    void otherFramesAreNotLldp() {
        byte[] ipv4 = new byte[60];
        ipv4[12] = 0x08;
        assertRefused(Outcome.NOT_LLDP, ipv4, SENT);
        assertRefused(Outcome.NOT_LLDP, new byte[5], SENT);
    }

    @Test
    void aShortKeyIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new LldpProbeCodec(new byte[8], 1));
        assertTrue(e.getMessage().contains("16 bytes"), e.getMessage());
    }

    @Test
    void twoRandomCodecsDoNotTrustEachOther() {
        LldpProbeCodec a = LldpProbeCodec.random();
        LldpProbeCodec b = LldpProbeCodec.random();
        byte[] fromA = a.encode(DPID, PORT, SOURCE, SENT, 15);
        assertEquals(Outcome.ACCEPTED, a.check(fromA, SENT, MAX_AGE).outcome());
        assertNotEquals(Outcome.ACCEPTED, b.check(fromA, SENT, MAX_AGE).outcome());
    }

    @Test
    void encodingIsDeterministic() {
        assertArrayEquals(probe(), probe());
    }

    private void assertRefused(Outcome expected, byte[] frame, long now) {
        Verdict verdict = codec.check(frame, now, MAX_AGE);
        assertEquals(expected, verdict.outcome(), String.valueOf(verdict.detail()));
        assertEquals(null, verdict.probe());
    }

    /** Hand-made LLDP frames: what a host's lldpd, another controller or an attacker could send. */
    static final class LldpBuilder {

        private final ByteBuffer out = ByteBuffer.allocate(256);

        LldpBuilder() {
            out.put(LldpProbeCodec.LLDP_MULTICAST.getBytes()).put(SOURCE.getBytes())
                    .putShort((short) Ethernet.TYPE_LLDP);
        }

        LldpBuilder tlv(int type, byte[] value) {
            out.putShort((short) (type << 9 | value.length)).put(value);
            return this;
        }

        LldpBuilder mandatory() {
            return tlv(Lldp.TLV_CHASSIS_ID, new byte[] {Lldp.CHASSIS_MAC_ADDRESS, 2, 0, 0, 0, 0, 1})
                    .tlv(Lldp.TLV_PORT_ID, new byte[] {Lldp.LOCALLY_ASSIGNED, '1'})
                    .tlv(Lldp.TLV_TTL, new byte[] {0, 120});
        }

        LldpBuilder org(int oui, int subtype, byte[] info) {
            byte[] value = ByteBuffer.allocate(4 + info.length).put((byte) (oui >>> 16)).put((byte) (oui >>> 8))
                    .put((byte) oui).put((byte) subtype).put(info).array();
            return tlv(Lldp.TLV_ORGANIZATION_SPECIFIC, value);
        }

        LldpBuilder end() {
            return tlv(Lldp.TLV_END, new byte[0]);
        }

        byte[] build() {
            return Arrays.copyOf(out.array(), out.position());
        }
    }
}
