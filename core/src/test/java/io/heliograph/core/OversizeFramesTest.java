package io.heliograph.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.testing.FakeSwitch;
import io.heliograph.core.testing.TableMiss;

class OversizeFramesTest {

    private final AtomicLong now = new AtomicLong(1_000);
    private final List<String> lines = new ArrayList<>();
    private final OversizeFrames frames = new OversizeFrames("forwarding", now::get, lines::add);
    private final FakeSwitch sw = new FakeSwitch(7, OFVersion.OF_13);

    private static OFPacketIn packetIn(int frameLength) {
        return TableMiss.packetIn(OFVersion.OF_13, OFPort.of(1), new byte[frameLength], OFBufferId.NO_BUFFER);
    }

    @Test
    void aFrameThatFitsPassesUncounted() {
        assertTrue(frames.fits(sw, packetIn(1500), 48));
        assertTrue(frames.fits(sw, TableMiss.packetIn(OFVersion.OF_13, OFPort.of(1), new byte[65_480],
                OFBufferId.of(9)), 3), "buffered: only the buffer id goes back");
        assertEquals(0, frames.dropped());
        assertEquals(List.of(), lines);
    }

    @Test
    void dropsAreCountedAndLoggedOncePerQuietPeriodWithTheNumberLeftOut() {
        OFPacketIn big = packetIn(65_480); // 24 + 3 * 16 + 65,480 = 65,552 bytes with three outputs

        assertFalse(frames.fits(sw, big, 3));
        assertEquals(1, lines.size());
        assertTrue(lines.get(0).startsWith("forwarding: switch 00:00:00:00:00:00:00:07 sent a 65480-byte frame"),
                lines.get(0));
        for (int i = 0; i < 1000; i++) {
            assertFalse(frames.fits(sw, big, 3));
        }
        assertEquals(1, lines.size(), "no flood of lines");
        assertTrue(frames.fits(sw, big, 1), "with one output it fits: 24 + 16 + 65,480 = 65,520");

        now.addAndGet(TimeUnit.SECONDS.toNanos(OversizeFrames.QUIET_SECONDS));
        assertFalse(frames.fits(sw, big, 3));
        assertEquals(2, lines.size());
        assertTrue(lines.get(1).endsWith("(1000 more such frames in the last 10 s not logged)"), lines.get(1));
        assertEquals(1002, frames.dropped());
    }
}
