package io.heliograph.virtue.internal;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An experiment as the cluster shares it: its id and name, its state and times, the keys its host
 * agents report with, and the revision of its EDF (which is kept apart, {@link ExperimentStore#edf}:
 * it may be large). Immutable; a change is a new record written over the old.
 *
 * @param edfRevision grows each time an optimised EDF replaces the experiment's ({@code placement-executed})
 */
public record Experiment(String id, String name, ExperimentState state, Instant created, Instant started,
        Instant stopped, Map<String, String> agentKeys, int edfRevision) {

    /** An id: what paths, entry names ({@code virtue-<id>-...}) and database rows use. */
    public static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,39}");

    public Experiment {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(created, "created");
        agentKeys = Map.copyOf(agentKeys);
    }

    public Experiment withState(ExperimentState next, Instant now) {
        return switch (next) {
            case RUNNING -> new Experiment(id, name, next, created, now, null, agentKeys, edfRevision);
            case STOPPED -> new Experiment(id, name, next, created, started, now, agentKeys, edfRevision);
            case CREATED -> throw new IllegalArgumentException("an experiment never goes back to CREATED");
        };
    }

    public Experiment withNextEdf() {
        return new Experiment(id, name, state, created, started, stopped, agentKeys, edfRevision + 1);
    }

    /** The name prefix of every static entry this experiment installs. */
    public String entryPrefix() {
        return "virtue-" + id + "-";
    }

    Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", id);
        json.put("name", name);
        json.put("state", state.name());
        json.put("created", created.toString());
        json.put("started", started == null ? null : started.toString());
        json.put("stopped", stopped == null ? null : stopped.toString());
        json.put("agentKeys", agentKeys);
        json.put("edfRevision", edfRevision);
        return json;
    }

    @SuppressWarnings("unchecked")
    static Experiment fromJson(Map<String, Object> json) {
        return new Experiment((String) json.get("id"), (String) json.get("name"),
                ExperimentState.valueOf((String) json.get("state")), instant(json.get("created")),
                instant(json.get("started")), instant(json.get("stopped")),
                (Map<String, String>) json.getOrDefault("agentKeys", Map.of()),
                ((Number) json.getOrDefault("edfRevision", 0)).intValue());
    }

    private static Instant instant(Object text) {
        return text == null ? null : Instant.parse((String) text);
    }
}
