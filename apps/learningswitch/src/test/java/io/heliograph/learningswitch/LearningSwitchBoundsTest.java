package io.heliograph.learningswitch;

import static io.heliograph.learningswitch.PacketIns.H1;
import static io.heliograph.learningswitch.PacketIns.H2;
import static io.heliograph.learningswitch.PacketIns.packetIn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFBufferId;

import io.heliograph.core.OversizeFrames;
import io.heliograph.core.StateBounds.Bound;
import io.heliograph.core.testing.FakeSwitch;
import io.netty.buffer.Unpooled;

/** The learning switch's bounds as an operator sees them, and frames too large to send back (D1). */
class LearningSwitchBoundsTest {

    private long now = 1_000_000_000L;
    private final List<String> warnings = new ArrayList<>();
    private final LearningSwitch app = new LearningSwitch(
            new LearningSwitchSettings(5, 0, 1, 100, 10, 120_000), () -> now,
            new OversizeFrames(LearningSwitch.NAME, () -> now, warnings::add));

    private Map<String, Bound> bounds() {
        return app.bounds().stream().collect(Collectors.toMap(Bound::table, Function.identity()));
    }

    /** A MAC flood on one port of one switch while h1 and h2 keep talking on other ports. */
    @Test
    void aFloodOnOnePortIsTurnedAwayCountedAndTheTalkingHostsStayKnown() {
        FakeSwitch sw = new FakeSwitch(1, OFVersion.OF_13);
        app.receive(sw, packetIn(OFVersion.OF_13, 1, H2, H1));
        app.receive(sw, packetIn(OFVersion.OF_13, 2, H1, H2));
        for (int i = 1; i <= 5000; i++) {
            now += TimeUnit.MILLISECONDS.toNanos(100); // 500 s of flood: idle flood addresses give way
            app.receive(sw, packetIn(OFVersion.OF_13, 9, H1, 0x0600_0000_0000L | i));
            if (i % 100 == 0) {
                sw.take();
                app.receive(sw, packetIn(OFVersion.OF_13, 1, H2, H1)); // every 10 s
                List<OFMessage> out = sw.take();
                assertInstanceOf(OFFlowAdd.class, out.get(0), "h2 is still known after " + i + ": " + out);
            }
        }
        Map<String, Bound> bounds = bounds();
        Bound perPort = bounds.get("learningswitch.hostsPerPort");
        assertEquals(10, perPort.limit());
        assertEquals(10, perPort.size(), "the flooding port holds its share");
        assertTrue(perPort.refused() > 4000, perPort.toString());
        assertTrue(perPort.evicted() > 0, "idle flood addresses made room for newer ones: " + perPort);
        Bound hosts = bounds.get("learningswitch.hosts");
        assertEquals(12, hosts.size());
        assertEquals(0, hosts.refused() + hosts.evicted(), "the table never filled: " + hosts);
        assertEquals("io.heliograph.learningswitch/maxHostsPerPort", perPort.setting());
    }

    @Test
    void thereIsOneTablePerConnectedSwitchAndTheCountsOfGoneTablesRemain() {
        app.countSwitchesWith(() -> 2);
        FakeSwitch s1 = new FakeSwitch(1, OFVersion.OF_10);
        FakeSwitch s2 = new FakeSwitch(2, OFVersion.OF_10);
        app.receive(s1, packetIn(OFVersion.OF_10, 1, H2, H1));
        for (int i = 1; i <= 20; i++) {
            app.receive(s2, packetIn(OFVersion.OF_10, 9, H1, 0x0600_0000_0000L | i));
        }
        assertEquals(2, bounds().get("learningswitch.tables").size());
        assertEquals(2, bounds().get("learningswitch.tables").limit());
        assertEquals(10, bounds().get("learningswitch.hostsPerPort").refused());

        app.switchRemoved(s2);

        assertEquals(1, bounds().get("learningswitch.tables").size());
        assertEquals(10, bounds().get("learningswitch.hostsPerPort").refused(), "counted since the start");
        assertEquals(1, bounds().get("learningswitch.hosts").size(), "s1's table, the fullest left");
    }

    @Test
    void newTableBoundsStartTheTablesAfreshAndKeepTheCounts() {
        FakeSwitch sw = new FakeSwitch(1, OFVersion.OF_13);
        for (int i = 1; i <= 20; i++) {
            app.receive(sw, packetIn(OFVersion.OF_13, 9, H1, 0x0600_0000_0000L | i));
        }
        app.configure(new LearningSwitchSettings(5, 0, 1, 100, 50, 120_000));
        assertEquals(0, app.hostCount(sw.getId()));
        assertEquals(10, bounds().get("learningswitch.hostsPerPort").refused());
        assertEquals(50, bounds().get("learningswitch.hostsPerPort").limit());
        app.configure(new LearningSwitchSettings(9, 0, 1, 100, 50, 120_000));
        app.receive(sw, packetIn(OFVersion.OF_13, 9, H1, H2));
        assertEquals(1, app.hostCount(sw.getId()), "a flow setting leaves the tables alone");
    }

    /**
     * D1: an unbuffered packet-in of the largest size each version allows. On 1.0 (18-byte header) the
     * frame can be 65,517 bytes, and a packet-out with one output action (24 bytes) cannot carry it: it
     * is dropped, counted and logged once; the flow to a known destination is still installed. On 1.3
     * (42 bytes with the in_port match) the frame fits with one action, and goes out.
     */
    @ParameterizedTest
    @EnumSource(names = {"OF_10", "OF_13", "OF_15"})
    void theLargestFrameAPacketInCarriesGoesBackIfOnePacketOutCanCarryItElseIsDroppedAndCounted(OFVersion version) {
        int largest = switch (version) {
            case OF_10 -> 65_535 - 18;
            default -> 65_535 - 42;
        };
        boolean fits = version == OFVersion.OF_13;
        FakeSwitch sw = new FakeSwitch(1, version);
        byte[] toUnknown = PacketIns.frame(H2, H1);
        byte[] big = java.util.Arrays.copyOf(toUnknown, largest);
        OFPacketIn flood = packetIn(version, 1, big, OFBufferId.NO_BUFFER);

        app.receive(sw, flood);
        app.receive(sw, flood);

        List<OFMessage> out = sw.take();
        out.forEach(m -> m.writeTo(Unpooled.buffer())); // every message written can be encoded
        assertEquals(fits ? 2 : 0, out.size(), out.toString());
        assertEquals(fits ? 0 : 2, app.samples().get(0).value());
        assertEquals(fits ? 0 : 1, warnings.size(), "logged once: " + warnings);

        app.receive(sw, packetIn(version, 2, H1, H2)); // h2 known now
        sw.take();
        byte[] toKnown = java.util.Arrays.copyOf(PacketIns.frame(H2, H1), largest);
        app.receive(sw, packetIn(version, 1, toKnown, OFBufferId.NO_BUFFER));
        out = sw.take();
        out.forEach(m -> m.writeTo(Unpooled.buffer()));
        assertInstanceOf(OFFlowAdd.class, out.get(0), "the flow goes in whatever the frame's size");
        assertEquals(fits ? 2 : 1, out.size(), out.toString());
        if (fits) {
            assertEquals(largest, ((OFPacketOut) out.get(1)).getData().length);
        }
    }

    @Test
    void itsMetricIsACounterOfDroppedFrames() {
        var sample = app.samples().get(0);
        assertEquals("heliograph_learningswitch_oversize_frames_total", sample.name());
        assertEquals(io.heliograph.core.MetricSource.Type.COUNTER, sample.type());
    }
}
