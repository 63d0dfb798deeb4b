package io.heliograph.circuit.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.heliograph.circuit.engine.CircuitParameters;
import io.heliograph.circuit.engine.FixedScheduler;
import io.heliograph.circuit.engine.RoundRobin;
import io.heliograph.circuit.engine.ScheduleJson;
import io.heliograph.circuit.engine.Scheduler;
import io.heliograph.circuit.engine.Solstice;
import io.heliograph.circuit.engine.WeekPlan;

/**
 * The scheduler and the demand estimator in use, as the operator chose them (configuration, or
 * {@code PUT /api/v1/circuit/scheduler}, which the cluster shares): {@code solstice}, {@code round-robin}
 * or {@code fixed} (the operator's week, the strobe when none was given), and {@code voq} or {@code adu}.
 *
 * @param fixedWeek the fixed scheduler's week, null for the strobe (or another scheduler)
 */
record SchedulerChoice(String scheduler, String estimator, WeekPlan fixedWeek) {

    static final List<String> SCHEDULERS = List.of("solstice", "round-robin", "fixed");
    static final List<String> ESTIMATORS = List.of("voq", "adu");
    private static final Set<String> MEMBERS = Set.of("scheduler", "estimator", "fixedWeek");

    SchedulerChoice {
        if (!SCHEDULERS.contains(scheduler)) {
            throw CircuitRefusal.badRequest("scheduler", "scheduler must be one of " + SCHEDULERS + ", not '" + clip(scheduler) + "'");
        }
        if (!ESTIMATORS.contains(estimator)) {
            throw CircuitRefusal.badRequest("estimator", "estimator must be one of " + ESTIMATORS + ", not '" + clip(estimator) + "'");
        }
        if (fixedWeek != null && !scheduler.equals("fixed")) {
            throw CircuitRefusal.badRequest("fixedWeek", "fixedWeek is the fixed scheduler's week, and the scheduler is " + scheduler);
        }
    }

    /** From the configuration's text. */
    static SchedulerChoice of(String scheduler, String estimator, String fixedWeek, CircuitParameters network) {
        String week = fixedWeek == null ? "" : fixedWeek.strip();
        WeekPlan plan = null;
        if (!week.isEmpty()) {
            try {
                plan = ScheduleJson.read(week, network);
            } catch (IllegalArgumentException e) {
                throw CircuitRefusal.badRequest("fixedWeek", "fixedWeek: " + e.getMessage());
            }
        }
        String s = scheduler == null ? "" : scheduler.strip();
        return new SchedulerChoice(s, estimator == null ? "" : estimator.strip(), s.equals("fixed") ? plan : null);
    }

    /**
     * From a JSON body ({@code Json.parse}'s plain values), checked against the network: every member
     * known, the names known, the fixed week a valid week of the network. The first problem names its member.
     */
    static SchedulerChoice fromJson(Object json, CircuitParameters network) {
        if (!(json instanceof Map<?, ?> body)) {
            throw CircuitRefusal.badRequest("$", "the body is a JSON object {\"scheduler\", \"estimator\", \"fixedWeek\"}");
        }
        for (Object key : body.keySet()) {
            if (!MEMBERS.contains(key)) {
                throw CircuitRefusal.badRequest(String.valueOf(key), "unknown member '" + clip(String.valueOf(key)) + "' (known: "
                        + "estimator, fixedWeek, scheduler)");
            }
        }
        Object scheduler = body.get("scheduler");
        Object estimator = body.get("estimator");
        if (!(scheduler instanceof String)) {
            throw CircuitRefusal.badRequest("scheduler", "scheduler is required, one of " + SCHEDULERS);
        }
        if (!(estimator instanceof String)) {
            throw CircuitRefusal.badRequest("estimator", "estimator is required, one of " + ESTIMATORS);
        }
        WeekPlan week = null;
        Object fixed = body.get("fixedWeek");
        if (fixed != null) {
            try {
                week = ScheduleJson.fromJson(fixed, network);
            } catch (IllegalArgumentException e) {
                String message = e.getMessage() == null ? "not a week" : e.getMessage();
                // the engine's paths start at the week: "$.days[1].sourceOf[2]: ..."
                String field = message.startsWith("$") && message.contains(":")
                        ? "fixedWeek" + message.substring(1, message.indexOf(':')) : "fixedWeek";
                throw CircuitRefusal.badRequest(field, "fixedWeek: " + message);
            }
        }
        return new SchedulerChoice((String) scheduler, (String) estimator, week);
    }

    Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("scheduler", scheduler);
        json.put("estimator", estimator);
        if (fixedWeek != null) {
            json.put("fixedWeek", ScheduleJson.toJson(fixedWeek));
        }
        return json;
    }

    /** A new scheduler of this choice for {@code network}. */
    Scheduler newScheduler(CircuitParameters network) {
        return switch (scheduler) {
            case "solstice" -> new Solstice();
            case "round-robin" -> new RoundRobin();
            default -> fixedWeek == null ? FixedScheduler.strobe(network) : new FixedScheduler(fixedWeek);
        };
    }

    private static String clip(String text) {
        return text == null ? "null" : text.length() > 40 ? text.substring(0, 40) + "..." : text;
    }
}
