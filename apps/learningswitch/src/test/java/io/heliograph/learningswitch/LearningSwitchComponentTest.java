package io.heliograph.learningswitch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.annotation.Annotation;
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

        assertEquals(new LearningSwitchSettings(30, 0, 5, 100), component.settings());
    }

    @Test
    void settingsRejectOutOfRangeValuesByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new LearningSwitchSettings(5, 0, 1, 0));
        assertEquals("maxHosts must be within 1..16777216, was 0", e.getMessage());
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
        };
    }
}
