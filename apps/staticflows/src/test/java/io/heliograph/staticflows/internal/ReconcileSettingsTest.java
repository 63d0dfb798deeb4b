package io.heliograph.staticflows.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class ReconcileSettingsTest {

    @Test
    void theDefaultBackoffDoublesFromOneSecondToFiveMinutes() {
        ReconcileSettings s = ReconcileSettings.DEFAULTS;
        assertEquals(List.of(1_000L, 2_000L, 4_000L, 8_000L, 16_000L, 32_000L, 64_000L, 128_000L, 256_000L, 300_000L,
                300_000L), IntStream.rangeClosed(1, 11).mapToObj(s::retryDelayMs).toList());
        assertEquals(300_000L, s.retryDelayMs(Integer.MAX_VALUE), "no overflow after many failures");
        assertEquals(3, s.notPossibleAfter());
    }

    @Test
    void badValuesAreRefusedNamingTheSetting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ReconcileSettings(true, 50, 300_000, 3));
        assertTrue(e.getMessage().startsWith("reconcileRetryFirstMs must be within 100.."), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new ReconcileSettings(true, 10_000, 5_000, 3));
        assertTrue(e.getMessage().contains("reconcileRetryMaxMs (5000) must not be below reconcileRetryFirstMs (10000)"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new ReconcileSettings(true, 1_000, 300_000, 0));
        assertTrue(e.getMessage().startsWith("reconcileNotPossibleAfter must be within 1.."), e.getMessage());
    }
}
