package io.heliograph.core.packet;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** No bytes a switch can send make a view throw: every prefix, random bytes, random corruption. */
class MalformedPacketTest {

    @Test
    void everyPrefixOfEveryFrameIsReadSafely() {
        for (byte[] frame : Frames.all()) {
            List<String> fullProblems = Walk.everything(frame);
            assertEquals(List.of(), fullProblems, "the complete frame parses");
            for (int length = 0; length < frame.length; length++) {
                byte[] prefix = Arrays.copyOf(frame, length);
                assertDoesNotThrow(() -> Walk.everything(prefix), "prefix of " + length + " bytes");
            }
        }
    }

    @Test
    void aPrefixCutInsideAHeaderIsReportedAtThatLayer() {
        byte[] frame = Frames.vlanTcp(); // 18 Ethernet+tag, 20 IPv4, 24 TCP, 6 payload
        assertTrue(Walk.everything(Arrays.copyOf(frame, 17)).get(0).startsWith("Ethernet:"));
        assertTrue(Walk.everything(Arrays.copyOf(frame, 37)).get(0).startsWith("IPv4:"));
        assertTrue(Walk.everything(Arrays.copyOf(frame, 61)).get(0).startsWith("TCP:"));
        assertEquals(List.of(), Walk.everything(Arrays.copyOf(frame, 62)), "payload may be cut short");
    }

    @Test
    void randomBytes() {
        SplittableRandom random = new SplittableRandom(20261121);
        int[] etherTypes = {Ethernet.TYPE_IPV4, Ethernet.TYPE_IPV6, Ethernet.TYPE_ARP, Ethernet.TYPE_LLDP,
            Ethernet.TYPE_VLAN, Ethernet.TYPE_QINQ};
        for (int i = 0; i < 50_000; i++) {
            byte[] frame = new byte[random.nextInt(0, 160)];
            random.nextBytes(frame);
            if (frame.length >= 14 && random.nextBoolean()) {
                // Steer half of them past Ethernet, so the upper layers get random input too.
                int type = etherTypes[random.nextInt(etherTypes.length)];
                frame[12] = (byte) (type >>> 8);
                frame[13] = (byte) type;
                if (frame.length > 14 && type == Ethernet.TYPE_IPV4) {
                    frame[14] = (byte) (0x40 | frame[14] & 0x0f);
                }
            }
            byte[] input = frame;
            assertDoesNotThrow(() -> Walk.everything(input), () -> "random frame " + Arrays.toString(input));
        }
    }

    @Test
    void randomCorruptionOfValidFrames() {
        SplittableRandom random = new SplittableRandom(7);
        byte[][] frames = Frames.all();
        int invalid = 0;
        for (int i = 0; i < 50_000; i++) {
            byte[] frame = frames[random.nextInt(frames.length)].clone();
            int flips = random.nextInt(1, 4);
            for (int f = 0; f < flips; f++) {
                frame[random.nextInt(frame.length)] = (byte) random.nextInt(256);
            }
            if (random.nextInt(4) == 0) {
                frame = Arrays.copyOf(frame, random.nextInt(frame.length));
            }
            byte[] input = frame;
            List<String> problems = assertDoesNotThrow(() -> Walk.everything(input),
                    () -> "corrupted frame " + Arrays.toString(input));
            invalid += problems.isEmpty() ? 0 : 1;
        }
        assertTrue(invalid > 1000, "the corruption reached the parsers' checks (" + invalid + " invalid)");
    }

    @Test
    void viewsOfAnInvalidLayerOfferNothingAbove() {
        byte[] frame = Frames.ping();
        frame[14] = 0x41; // IHL 1
        Ipv4 ip = Ethernet.wrap(frame).ipv4();

        assertFalse(ip.isValid());
        assertEquals(null, ip.icmp());
    }
}
