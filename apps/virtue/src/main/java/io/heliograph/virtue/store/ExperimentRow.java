package io.heliograph.virtue.store;

import java.time.Instant;
import java.util.Objects;

/**
 * An experiment as stored: its id, name, state ({@code CREATED}, {@code RUNNING}, {@code STOPPED}: the
 * app's, kept as text), its EDF as JSON text, and when it was created, last started and last stopped
 * (null when not yet). Times are kept to the millisecond.
 */
public record ExperimentRow(String id, String name, String state, String edf, Instant created, Instant started,
                            Instant stopped) implements Recordable {

    public ExperimentRow {
        Checks.id("the experiment id", id, Checks.EXPERIMENT_ID);
        Checks.id("the experiment name", name, Checks.NAME);
        Checks.id("the experiment state", state, Checks.STATE);
        Objects.requireNonNull(edf, "the EDF");
        created = Checks.millis("the creation time", created);
        started = started == null ? null : Checks.millis("the start time", started);
        stopped = stopped == null ? null : Checks.millis("the stop time", stopped);
    }

    @Override
    public String experiment() {
        return id;
    }

    /** The row's latest change: its stop, else its start, else its creation. */
    @Override
    public Instant at() {
        return stopped != null ? stopped : started != null ? started : created;
    }

    @Override
    public int rows() {
        return 1;
    }

    public ExperimentRow withState(String newState, Instant newStarted, Instant newStopped) {
        return new ExperimentRow(id, name, newState, edf, created, newStarted, newStopped);
    }

    public ExperimentRow withEdf(String newEdf) {
        return new ExperimentRow(id, name, state, newEdf, created, started, stopped);
    }
}
