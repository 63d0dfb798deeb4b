package io.heliograph.virtue.internal;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One optimisation of an experiment as the cluster shares it (small: its input measurements and its
 * result are kept apart, {@link OptimisationStore}). It is QUEUED when asked for, RUNNING on the
 * instance named while that instance leads the optimiser singleton, then DONE or FAILED. A RUNNING one
 * whose instance no longer leads is run again from the start by the new leader: {@code attempt} counts
 * the runs, and only the run of the current attempt may write its progress or end.
 */
public record Optimisation(String id, String experiment, String algorithm, long seed, int timeLimitSeconds,
        State state, double progress, String instance, int attempt, Instant requested, Instant started,
        Instant finished, String error, Instant executed) {

    public enum State {
        QUEUED, RUNNING, DONE, FAILED;

        boolean pending() {
            return this == QUEUED || this == RUNNING;
        }
    }

    public Optimisation {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(experiment, "experiment");
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(requested, "requested");
    }

    static Optimisation queued(String id, String experiment, String algorithm, long seed, int timeLimitSeconds,
                               Instant now) {
        return new Optimisation(id, experiment, algorithm, seed, timeLimitSeconds, State.QUEUED, 0, null, 0, now, null,
                null, null, null);
    }

    Optimisation running(String on, Instant now) {
        return new Optimisation(id, experiment, algorithm, seed, timeLimitSeconds, State.RUNNING, 0, on, attempt + 1,
                requested, now, null, null, null);
    }

    Optimisation at(double fraction) {
        return new Optimisation(id, experiment, algorithm, seed, timeLimitSeconds, state, Math.max(progress, fraction),
                instance, attempt, requested, started, finished, error, executed);
    }

    Optimisation done(Instant now) {
        return new Optimisation(id, experiment, algorithm, seed, timeLimitSeconds, State.DONE, 1, instance, attempt,
                requested, started, now, null, null);
    }

    Optimisation failed(String why, Instant now) {
        return new Optimisation(id, experiment, algorithm, seed, timeLimitSeconds, State.FAILED, progress, instance,
                attempt, requested, started, now, why, null);
    }

    /** An orchestration tool applied this optimisation's plan. */
    Optimisation executed(Instant now) {
        return new Optimisation(id, experiment, algorithm, seed, timeLimitSeconds, state, progress, instance,
                attempt, requested, started, finished, error, now);
    }

    Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", id);
        json.put("experiment", experiment);
        json.put("algorithm", algorithm);
        json.put("seed", seed);
        json.put("timeLimitSeconds", timeLimitSeconds);
        json.put("state", state.name());
        json.put("progressPermille", Math.round(progress * 1000)); // the store's JSON takes whole numbers
        json.put("instance", instance);
        json.put("attempt", attempt);
        json.put("requested", requested.toString());
        json.put("started", started == null ? null : started.toString());
        json.put("finished", finished == null ? null : finished.toString());
        json.put("error", error);
        json.put("executed", executed == null ? null : executed.toString());
        return json;
    }

    static Optimisation fromJson(Map<String, Object> json) {
        return new Optimisation((String) json.get("id"), (String) json.get("experiment"), (String) json.get("algorithm"),
                ((Number) json.get("seed")).longValue(), ((Number) json.get("timeLimitSeconds")).intValue(),
                State.valueOf((String) json.get("state")), ((Number) json.get("progressPermille")).longValue() / 1000.0,
                (String) json.get("instance"), ((Number) json.get("attempt")).intValue(),
                Instant.parse((String) json.get("requested")), instant(json.get("started")),
                instant(json.get("finished")), (String) json.get("error"), instant(json.get("executed")));
    }

    private static Instant instant(Object text) {
        return text == null ? null : Instant.parse((String) text);
    }
}
