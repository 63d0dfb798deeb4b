package io.heliograph.virtue.store;

import java.time.Instant;

/**
 * What the {@link Recorder} writes: a sampling {@link Round}, a {@link HostReport}, or an
 * {@link ExperimentRow} (its state, times and EDF), in the order they were made, so that an
 * experiment's row is written before the rounds and reports that refer to it.
 */
public sealed interface Recordable permits Round, HostReport, ExperimentRow {

    String experiment();

    Instant at();

    /** The rows it takes in the database: what the recorder's queue bound counts. */
    int rows();
}
