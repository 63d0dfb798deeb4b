package io.heliograph.learningswitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.annotation.Annotation;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFType;

class LearningSwitchComponentTest {

    private final LearningSwitchComponent component = new LearningSwitchComponent();

    @Test
    void joinsThePacketInPipelineAsLearningswitch() {
        assertEquals("learningswitch", component.getName());
        assertEquals(Set.of(OFType.PACKET_IN), component.getTypes());
    }

    @Test
    void aBadConfigurationIsRefusedAndThePreviousOneStays() {
        component.modified(config(30, 0, 5, 100));
        component.modified(config(70_000, 0, 5, 100));

        assertEquals(new LearningSwitchSettings(30, 0, 5, 100, 100, 120_000), component.settings());
    }

    @Test
    void settingsRejectOutOfRangeValuesByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new LearningSwitchSettings(5, 0, 1, 0, 1, 120_000));
        assertEquals("maxHosts must be within 1..16777216, was 0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new LearningSwitchSettings(5, 0, 1, 10, 10, 999));
        assertEquals("hostIdleMs must be within 1000..604800000, was 999", e.getMessage());
    }

    @Test
    void aPerPortBoundAboveTheTablesIsTheTables() {
        component.modified(config(5, 0, 1, 100));
        assertEquals(100, component.settings().maxHostsPerPort(), "a smaller maxHosts alone is not refused");
    }

    @Test
    void itReportsItsTablesBoundsUnderTheirSettings() {
        component.modified(config(5, 0, 1, 100));
        List<String> settings = component.bounds().stream().map(b -> b.table() + " " + b.setting()).toList();
        assertEquals(List.of("learningswitch.hosts io.heliograph.learningswitch/maxHosts",
                "learningswitch.hostsPerPort io.heliograph.learningswitch/maxHostsPerPort",
                "learningswitch.tables "), settings);
        assertEquals(100, component.bounds().get(0).limit());
    }

    private static LearningSwitchConfig config(int idle, int hard, int priority, int maxHosts) {
        return new LearningSwitchConfig() {
            @Override
            public Class<? extends Annotation> annotationType() {
                return LearningSwitchConfig.class;
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
            public int maxHosts() {
                return maxHosts;
            }

            @Override
            public int maxHostsPerPort() {
                return 65_536;
            }

            @Override
            public long hostIdleMs() {
                return 120_000;
            }
        };
    }
}
