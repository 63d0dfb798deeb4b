package io.heliograph.core;

import java.util.function.Supplier;

import org.slf4j.Logger;

/**
 * An app's settings read from its component's configuration, where a bad value must not stop the app:
 * the settings refuse it with an {@link IllegalArgumentException} that names it, the refusal is logged
 * with the configuration's pid, and the settings in force stay.
 */
public final class ConfiguredSettings {

    private ConfiguredSettings() {
    }

    /** What {@code read} makes of the configuration, or {@code previous} when it refuses a value. */
    public static <S> S orPrevious(Logger log, String pid, S previous, Supplier<S> read) {
        try {
            return read.get();
        } catch (IllegalArgumentException e) {
            log.error("Configuration {} refused, keeping {}: {}", pid, previous, e.getMessage());
            return previous;
        }
    }
}
