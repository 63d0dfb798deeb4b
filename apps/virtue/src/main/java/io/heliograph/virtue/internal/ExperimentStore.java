package io.heliograph.virtue.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SplitValues;
import io.heliograph.core.json.Json;
import io.heliograph.virtue.engine.Edf;
import io.heliograph.virtue.engine.EdfFormat;

/**
 * The experiments in the cluster's shared store, so that every instance serves them and the instance
 * that measures (or optimises) finds them: {@code virtue/experiments/<id>} holds the small
 * {@link Experiment} record, {@code virtue/edfs/<id>} its EDF, split across values when it is large
 * ({@link SplitValues}). Every method may fail with {@link SharedStore.StoreUnavailableException}.
 */
final class ExperimentStore {

    static final String EXPERIMENTS = "virtue/experiments";
    static final String EDFS = "virtue/edfs";

    private final SharedStore store;

    ExperimentStore(SharedStore store) {
        this.store = store;
    }

    /** Stores a new experiment with its EDF; false when its id is taken. The EDF goes first, so a listed experiment has one. */
    boolean create(Experiment experiment, Edf edf) {
        if (store.get(key(experiment.id())).isPresent()) {
            return false;
        }
        SplitValues.write(store, EDFS + "/" + experiment.id(), EdfFormat.write(edf).getBytes(StandardCharsets.UTF_8));
        return store.replace(key(experiment.id()), SharedStore.Versioned.ABSENT, Json.compact(experiment.toJson()))
                .isPresent();
    }

    Optional<Experiment> get(String id) {
        return store.get(key(id)).map(v -> parse(v.value()));
    }

    /** Every experiment, oldest first. */
    List<Experiment> list() {
        List<Experiment> experiments = new ArrayList<>();
        for (SharedStore.Versioned value : store.list(EXPERIMENTS).values()) {
            experiments.add(parse(value.value()));
        }
        experiments.sort(Comparator.comparing(Experiment::created).thenComparing(Experiment::id));
        return experiments;
    }

    /**
     * Changes an experiment atomically (a change that sees another instance's write in between is run
     * again on the newer record); returns the record written, empty when there is no such experiment.
     */
    Optional<Experiment> update(String id, UnaryOperator<Experiment> change) {
        if (store.get(key(id)).isEmpty()) {
            return Optional.empty();
        }
        Experiment[] written = new Experiment[1];
        store.update(key(id), bytes -> {
            if (bytes == null) {
                written[0] = null;
                return null;
            }
            written[0] = change.apply(parse(bytes));
            return Json.compact(written[0].toJson());
        });
        return Optional.ofNullable(written[0]);
    }

    Optional<Edf> edf(String id) {
        return SplitValues.read(store, EDFS + "/" + id).map(b -> EdfFormat.read(new String(b, StandardCharsets.UTF_8)));
    }

    void putEdf(String id, Edf edf) {
        SplitValues.write(store, EDFS + "/" + id, EdfFormat.write(edf).getBytes(StandardCharsets.UTF_8));
    }

    /** Deletes the experiment and its EDF; false when there was none. */
    boolean delete(String id) {
        boolean existed = store.delete(key(id));
        store.delete(EDFS + "/" + id);
        return existed;
    }

    private static String key(String id) {
        return EXPERIMENTS + "/" + id;
    }

    @SuppressWarnings("unchecked")
    private static Experiment parse(byte[] bytes) {
        return Experiment.fromJson((Map<String, Object>) Json.parse(bytes));
    }
}
