package io.heliograph.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class ConfiguredSettingsTest {

    private static final Logger LOG = LoggerFactory.getLogger(ConfiguredSettingsTest.class);

    @Test
    void goodSettingsReplaceThePreviousOnes() {
        assertEquals("next", ConfiguredSettings.orPrevious(LOG, "pid", "previous", () -> "next"));
    }

    @Test
    void aRefusedValueKeepsThePreviousSettings() {
        assertEquals("previous", ConfiguredSettings.orPrevious(LOG, "pid", "previous", () -> {
            throw new IllegalArgumentException("intervalMs must be positive: 0");
        }));
    }
}
