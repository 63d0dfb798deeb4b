package io.heliograph.virtue.store;

import java.time.Instant;

/** What the {@link Recorder} writes: a sampling {@link Round} or a {@link HostReport}. */
public sealed interface Recordable permits Round, HostReport {

    String experiment();

    Instant at();

    /** The rows it takes in the database: what the recorder's queue bound counts. */
    int rows();
}
