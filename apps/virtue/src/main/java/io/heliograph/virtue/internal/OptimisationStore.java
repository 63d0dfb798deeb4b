package io.heliograph.virtue.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SplitValues;
import io.heliograph.core.json.Json;

/**
 * The optimisations in the shared store: {@code virtue/optimisations/<id>} the small record, which its
 * runner rewrites as it progresses; {@code virtue/inputs/<id>} the averaged measurements it runs on and
 * {@code virtue/results/<id>} its result with the optimised EDF, both split across values
 * ({@link SplitValues}: an experiment of 120 VMs has 14,000 VM pairs).
 */
final class OptimisationStore {

    static final String OPTIMISATIONS = "virtue/optimisations";
    static final String INPUTS = "virtue/inputs";
    static final String RESULTS = "virtue/results";

    private final SharedStore store;

    OptimisationStore(SharedStore store) {
        this.store = store;
    }

    /** Stores a queued optimisation with its input; the input goes first, so a listed one has it. */
    void create(Optimisation optimisation, Map<String, Object> input) {
        SplitValues.write(store, INPUTS + "/" + optimisation.id(), Json.compact(input));
        store.put(key(optimisation.id()), Json.compact(optimisation.toJson()));
    }

    Optional<Optimisation> get(String id) {
        return store.get(key(id)).map(v -> parse(v.value()));
    }

    /** Every optimisation, the oldest request first. */
    List<Optimisation> list() {
        List<Optimisation> all = new ArrayList<>();
        for (SharedStore.Versioned value : store.list(OPTIMISATIONS).values()) {
            all.add(parse(value.value()));
        }
        all.sort(Comparator.comparing(Optimisation::requested).thenComparing(Optimisation::id));
        return all;
    }

    List<Optimisation> of(String experiment) {
        return list().stream().filter(o -> o.experiment().equals(experiment)).toList();
    }

    /**
     * Changes a record atomically if {@code change} accepts the record as it is now (returns null to
     * leave it): the runner of an old attempt can no longer write. Returns the record written, if any.
     */
    Optional<Optimisation> update(String id, UnaryOperator<Optimisation> change) {
        Optimisation[] written = new Optimisation[1];
        store.update(key(id), bytes -> {
            written[0] = null;
            if (bytes == null) {
                return null;
            }
            Optimisation next = change.apply(parse(bytes));
            if (next == null) {
                return bytes;
            }
            written[0] = next;
            return Json.compact(next.toJson());
        });
        return Optional.ofNullable(written[0]);
    }

    @SuppressWarnings("unchecked")
    Optional<Map<String, Object>> input(String id) {
        return SplitValues.read(store, INPUTS + "/" + id).map(b -> (Map<String, Object>) Json.parse(b));
    }

    void putResult(String id, PlacementReport result) {
        SplitValues.write(store, RESULTS + "/" + id, Json.compact(result.toStored()));
    }

    @SuppressWarnings("unchecked")
    Optional<PlacementReport> result(String id) {
        return SplitValues.read(store, RESULTS + "/" + id)
                .map(b -> PlacementReport.fromStored((Map<String, Object>) Json.parse(b)));
    }

    void delete(String id) {
        store.delete(key(id));
        store.delete(INPUTS + "/" + id);
        store.delete(RESULTS + "/" + id);
    }

    private static String key(String id) {
        return OPTIMISATIONS + "/" + id;
    }

    @SuppressWarnings("unchecked")
    private static Optimisation parse(byte[] bytes) {
        return Optimisation.fromJson((Map<String, Object>) Json.parse(bytes));
    }
}
