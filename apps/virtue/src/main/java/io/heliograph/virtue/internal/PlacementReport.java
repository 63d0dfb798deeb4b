package io.heliograph.virtue.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.heliograph.core.json.Json;
import io.heliograph.virtue.engine.Edf;
import io.heliograph.virtue.engine.EdfFormat;
import io.heliograph.virtue.engine.Energy;
import io.heliograph.virtue.engine.Placement;
import io.heliograph.virtue.engine.PlacementProblem;
import io.heliograph.virtue.engine.PlacementResult;
import io.heliograph.virtue.engine.Utilisations;

/**
 * What an optimisation gives an orchestration tool: the migration plan (which VM moves from which PM to
 * which), the utilisations predicted before and after under the thesis's full estimate (CPU and every
 * link, spec §3.5, whatever the algorithm itself minimised, so that every algorithm's plan is compared
 * alike), the solver's bound when it has one, and the new EDF (null when no placement was feasible).
 *
 * <p>In the shared store its fractions are kept as decimal strings ({@link #toStored}), as the EDF keeps
 * its figures: the store's JSON takes whole numbers only, and a string gives the double back exactly.
 */
public record PlacementReport(boolean feasible, String infeasibility, long runtimeMs, double minimaxBefore,
        String hottestBefore, Map<String, Double> before, Map<String, Double> cpuBefore, Double minimaxAfter,
        String hottestAfter, Map<String, Double> after, Map<String, Double> cpuAfter, List<Move> moves, Bound bound,
        Edf edf) {

    /** One VM's migration. */
    public record Move(String vm, String from, String to) {
    }

    /** The solver's view of the Model's result. */
    public record Bound(String status, double minimax, double gap) {
    }

    public PlacementReport {
        before = Map.copyOf(before);
        cpuBefore = Map.copyOf(cpuBefore);
        after = after == null ? Map.of() : Map.copyOf(after);
        cpuAfter = cpuAfter == null ? Map.of() : Map.copyOf(cpuAfter);
        moves = List.copyOf(moves);
    }

    static PlacementReport of(PlacementProblem problem, PlacementResult result, long runtimeMs) {
        Placement start = problem.start();
        Utilisations before = Utilisations.estimate(start, problem, Energy.ALL);
        Bound bound = result.bound().map(b -> new Bound(b.status(), b.minimax(), b.gap())).orElse(null);
        if (result.placement().isEmpty()) {
            return new PlacementReport(false, result.infeasibility().orElse(null), runtimeMs, before.minimax(),
                    before.hottest(), before.links(), before.cpu(), null, null, null, null, List.of(), bound, null);
        }
        Placement after = result.placement().get();
        Utilisations predicted = Utilisations.estimate(after, problem, Energy.ALL);
        List<Move> moves = new ArrayList<>();
        Map<String, String> from = start.asMap();
        after.asMap().forEach((vm, pm) -> {
            if (!pm.equals(from.get(vm))) {
                moves.add(new Move(vm, from.get(vm), pm));
            }
        });
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("OPTIMIZER", result.algorithm());
        parameters.put("OPTIMIZER_RUNTIME", Long.toString(runtimeMs));
        parameters.put("OPTIMIZER_DATE", Long.toString(System.currentTimeMillis()));
        return new PlacementReport(true, null, runtimeMs, before.minimax(), before.hottest(), before.links(),
                before.cpu(), predicted.minimax(), predicted.hottest(), predicted.links(), predicted.cpu(), moves, bound,
                problem.edfOf(after, parameters));
    }

    /** The REST view: figures as numbers, without the EDF (served on its own). */
    public Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("feasible", feasible);
        json.put("infeasibility", infeasibility);
        json.put("runtimeMs", runtimeMs);
        json.put("minimaxBefore", minimaxBefore);
        json.put("hottestBefore", hottestBefore);
        json.put("minimaxAfter", minimaxAfter);
        json.put("hottestAfter", hottestAfter);
        List<Object> plan = new ArrayList<>();
        for (Move move : moves) {
            plan.add(Map.of("vm", move.vm(), "from", move.from(), "to", move.to()));
        }
        json.put("moves", plan);
        json.put("before", before);
        json.put("after", after);
        json.put("cpuBefore", cpuBefore);
        json.put("cpuAfter", cpuAfter);
        json.put("bound", bound == null ? null : Map.of("status", bound.status(), "minimax", bound.minimax(),
                "gap", bound.gap()));
        return json;
    }

    /** As the shared store keeps it: fractions as decimal strings, the EDF as the EDF's own JSON. */
    Map<String, Object> toStored() {
        Map<String, Object> stored = new LinkedHashMap<>();
        stored.put("feasible", feasible);
        stored.put("infeasibility", infeasibility);
        stored.put("runtimeMs", runtimeMs);
        stored.put("minimaxBefore", Double.toString(minimaxBefore));
        stored.put("hottestBefore", hottestBefore);
        stored.put("before", text(before));
        stored.put("cpuBefore", text(cpuBefore));
        stored.put("minimaxAfter", minimaxAfter == null ? null : Double.toString(minimaxAfter));
        stored.put("hottestAfter", hottestAfter);
        stored.put("after", text(after));
        stored.put("cpuAfter", text(cpuAfter));
        List<Object> plan = new ArrayList<>();
        for (Move move : moves) {
            plan.add(List.of(move.vm(), move.from(), move.to()));
        }
        stored.put("moves", plan);
        stored.put("bound", bound == null ? null : List.of(bound.status(), Double.toString(bound.minimax()),
                Double.toString(bound.gap())));
        stored.put("edf", edf == null ? null : Json.parse(EdfFormat.write(edf)));
        return stored;
    }

    @SuppressWarnings("unchecked")
    static PlacementReport fromStored(Map<String, Object> stored) {
        List<Move> moves = new ArrayList<>();
        for (Object move : (List<Object>) stored.get("moves")) {
            List<String> m = (List<String>) move;
            moves.add(new Move(m.get(0), m.get(1), m.get(2)));
        }
        List<String> bound = (List<String>) stored.get("bound");
        Object edf = stored.get("edf");
        return new PlacementReport((Boolean) stored.get("feasible"), (String) stored.get("infeasibility"),
                ((Number) stored.get("runtimeMs")).longValue(), Double.parseDouble((String) stored.get("minimaxBefore")),
                (String) stored.get("hottestBefore"), number((Map<String, String>) stored.get("before")),
                number((Map<String, String>) stored.get("cpuBefore")),
                stored.get("minimaxAfter") == null ? null : Double.valueOf((String) stored.get("minimaxAfter")),
                (String) stored.get("hottestAfter"), number((Map<String, String>) stored.get("after")),
                number((Map<String, String>) stored.get("cpuAfter")), moves,
                bound == null ? null : new Bound(bound.get(0), Double.parseDouble(bound.get(1)),
                        Double.parseDouble(bound.get(2))),
                edf == null ? null : EdfFormat.read(new String(Json.compact(edf), java.nio.charset.StandardCharsets.UTF_8)));
    }

    private static Map<String, String> text(Map<String, Double> figures) {
        Map<String, String> text = new LinkedHashMap<>();
        figures.forEach((k, v) -> text.put(k, Double.toString(v)));
        return text;
    }

    private static Map<String, Double> number(Map<String, String> text) {
        Map<String, Double> figures = new LinkedHashMap<>();
        text.forEach((k, v) -> figures.put(k, Double.parseDouble(v)));
        return figures;
    }
}
