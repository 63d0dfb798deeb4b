package io.heliograph.virtue.store;

import java.time.Instant;

/** How many rounds an experiment has stored, and the first and last one's instants (null when none). */
public record SampleSummary(long rounds, Instant first, Instant last) {

    public static final SampleSummary NONE = new SampleSummary(0, null, null);
}
