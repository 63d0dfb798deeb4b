package io.heliograph.virtue.store;

import java.time.Instant;
import java.util.Map;

/**
 * What a host agent reported for one VM at one instant: its CPU use as a fraction (of one PM CPU, as the
 * app defines it; null when the report has none) and application metrics by name. Stored as metric rows,
 * the CPU as the metric {@value #CPU}; storing the same report again (same experiment, instant and VM)
 * replaces it.
 */
public record HostReport(String experiment, Instant at, String vm, Double cpu, Map<String, Double> metrics)
        implements Recordable {

    /** The metric name the CPU figure is stored and queried under. */
    public static final String CPU = "cpu";

    public HostReport {
        Checks.id("the experiment id", experiment, Checks.EXPERIMENT_ID);
        at = Checks.millis("the report's instant", at);
        Checks.id("the VM id", vm, Checks.VM_ID);
        if (cpu != null && (!Double.isFinite(cpu) || cpu < 0)) {
            throw new IllegalArgumentException("the CPU figure must be a finite fraction of 0 or more, not " + cpu);
        }
        metrics = Checks.copy("metrics", metrics);
        metrics.forEach((name, value) -> {
            Checks.id("a metric name", name, Checks.METRIC);
            if (name.equals(CPU)) {
                throw new IllegalArgumentException("the metric name '" + CPU + "' is the CPU figure's; give it as cpu");
            }
            Checks.finite("metric " + name, value);
        });
    }

    /** The metrics with the CPU figure as {@value #CPU}, as they are stored. */
    public Map<String, Double> storedMetrics() {
        if (cpu == null) {
            return metrics;
        }
        java.util.Map<String, Double> all = new java.util.HashMap<>(metrics);
        all.put(CPU, cpu);
        return all;
    }

    @Override
    public int rows() {
        return metrics.size() + (cpu == null ? 0 : 1);
    }
}
