package io.heliograph.forwarding.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.annotation.Annotation;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.OFVersion;

import io.heliograph.core.MessageListener.Command;

/** The DS component without a framework: its name and types, live configuration, and missing services. */
class ForwardingComponentTest {

    static ForwardingConfig config(int idle, int hard, int priority, boolean ecmp, String granularity) {
        return new ForwardingConfig() {
            @Override
            public Class<? extends Annotation> annotationType() {
                return ForwardingConfig.class;
            }

            @Override
            public int idleTimeout() {
                return idle;
            }

            @Override
            public int hardTimeout() {
                return hard;
            }

            @Override
            public int priority() {
                return priority;
            }

            @Override
            public boolean ecmp() {
                return ecmp;
            }

            @Override
            public String matchGranularity() {
                return granularity;
            }

            @Override
            public int maxInstalledPaths() {
                return 32_768;
            }

            @Override
            public int maxHeldPackets() {
                return 1_024;
            }

            @Override
            public long heldTimeoutMs() {
                return 2_000;
            }
        };
    }

    /** Binds a fabric's services as SCR would, through the component's bind methods. */
    private static void bind(ForwardingComponent component, Fabric f) {
        component.bindSwitches(f);
        component.bindTopology(f);
        component.bindDevices(f);
        component.bindRouting(f);
    }

    @Test
    void joinsThePacketInAndFlowRemovedPipelinesAsForwarding() {
        ForwardingComponent component = new ForwardingComponent();
        assertEquals("forwarding", component.getName());
        assertEquals(Set.of(OFType.PACKET_IN, OFType.FLOW_REMOVED), component.getTypes());
    }

    @Test
    void configurationAppliesLiveAndABadValueKeepsTheLastGoodSettings() {
        ForwardingComponent component = new ForwardingComponent();
        component.activate(config(5, 0, 10, true, "TRANSPORT"));
        assertEquals(ForwardingSettings.DEFAULTS, component.forwarding().settings());

        component.modified(config(30, 300, 200, false, "mac"));
        assertEquals(new ForwardingSettings(30, 300, 200, false, MatchGranularity.MAC, 32_768, 1_024, 2_000),
                component.forwarding().settings());

        component.modified(config(30, 300, 200, false, "PER_PACKET"));
        assertEquals(MatchGranularity.MAC, component.forwarding().settings().granularity());
        component.modified(config(70000, 0, 10, true, "IP"));
        assertEquals(30, component.forwarding().settings().idleTimeout());
    }

    @Test
    void settingsNameTheBadValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ForwardingSettings(5, 0, 0, true, MatchGranularity.IP, 32_768, 1_024, 2_000));
        assertTrue(e.getMessage().contains("priority"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ForwardingSettings.granularity("L4"));
        assertTrue(e.getMessage().contains("MAC, IP, TRANSPORT") && e.getMessage().contains("L4"), e.getMessage());
    }

    @Test
    void withServicesMissingPacketsGoToTheLearningSwitchAndOnceBoundTheyAreForwarded() throws Exception {
        Fabric f = new Fabric();
        f.addSwitch(1, OFVersion.OF_13, 2);
        f.host(0x0200_0000_0002L, "10.0.0.2", 1, 2);
        ForwardingComponent component = new ForwardingComponent();
        component.activate(config(5, 0, 10, true, "TRANSPORT"));
        var packetIn = Packets.packetIn(OFVersion.OF_13, 1,
                Packets.tcp(0x0200_0000_0001L, "10.0.0.1", 1, 0x0200_0000_0002L, "10.0.0.2", 2));

        assertEquals(Command.CONTINUE, component.receive(f.sw(1), packetIn));
        assertTrue(f.journal.isEmpty());

        bind(component, f);
        assertEquals(Command.STOP, component.receive(f.sw(1), packetIn));
        assertEquals(3, f.journal.size(), "two flows and the packet");

        component.deactivate();
        assertEquals(0, component.forwarding().paths().size());
    }

    @Test
    void itReportsItsBoundsUnderTheirSettings() {
        ForwardingComponent component = new ForwardingComponent();
        component.activate(config(5, 0, 10, true, "TRANSPORT"));
        assertEquals(List.of("forwarding.installedPaths io.heliograph.forwarding/maxInstalledPaths 32768",
                "forwarding.heldPackets io.heliograph.forwarding/maxHeldPackets 1024"),
                component.bounds().stream().map(b -> b.table() + " " + b.setting() + " " + b.limit()).toList());
        assertEquals(List.of("heliograph_forwarding_oversize_frames_total",
                "heliograph_forwarding_unconfirmed_paths_total"),
                component.samples().stream().map(s -> s.name()).toList());
    }
}
