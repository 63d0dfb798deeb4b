package io.heliograph.core.hybrid;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The measurements a decision was based on, by name: a link's capacity in kbit/s under
 * {@code <from>-><to>} ({@code S1->R2}), a channel's viewers under a name the app chooses
 * ({@code viewers:v0/800}). A decision holds while what is observed now is close to its evidence; it
 * is stale once a measurement moved by more than a threshold (relative, {@link #DEFAULT_THRESHOLD} by
 * default) or is gone. Immutable; values are finite.
 */
public final class Evidence {

    /** A 20 % change makes a decision stale, as the VDN paper's operators set it. */
    public static final double DEFAULT_THRESHOLD = 0.20;

    /** No measurements: a decision with no evidence never diverges. */
    public static final Evidence NONE = new Evidence(Map.of());

    private static final String LINK = "->";

    private final Map<String, Double> measurements;

    private Evidence(Map<String, Double> measurements) {
        this.measurements = measurements;
    }

    /** The evidence of these measurements; IllegalArgumentException for an empty name or a value that is not finite. */
    public static Evidence of(Map<String, Double> measurements) {
        TreeMap<String, Double> copy = new TreeMap<>();
        measurements.forEach((name, value) -> {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("a measurement without a name");
            }
            if (value == null || !Double.isFinite(value)) {
                throw new IllegalArgumentException("measurement " + name + " is not a finite number: " + value);
            }
            copy.put(name, value);
        });
        return copy.isEmpty() ? NONE : new Evidence(Collections.unmodifiableMap(copy));
    }

    /** The measurements, by name in order. */
    public Map<String, Double> measurements() {
        return measurements;
    }

    /**
     * The names of the measurements that moved by more than {@code threshold} of their value here
     * ({@code |now - then| > threshold * |then|}, so exactly the threshold still holds), or that
     * {@code now} no longer has; in name order.
     */
    public List<String> divergence(Map<String, Double> now, double threshold) {
        return divergence(now::get, threshold);
    }

    /** As {@link #divergence(Map, double)}, reading the current values through a function (null: gone). */
    List<String> divergence(Function<String, Double> now, double threshold) {
        if (!(threshold >= 0)) {
            throw new IllegalArgumentException("a threshold is 0 or more: " + threshold);
        }
        List<String> moved = new ArrayList<>();
        measurements.forEach((name, then) -> {
            Double current = now.apply(name);
            if (current == null || !(Math.abs(current - then) <= threshold * Math.abs(then))) {
                moved.add(name);
            }
        });
        return moved;
    }

    /**
     * Whether a measurement here concerns the element {@code name}: it is that measurement, or a link
     * ({@code <from>-><to>}) from or to it. A failed node or link makes the decisions that refer to it stale.
     */
    public boolean refersTo(String name) {
        if (measurements.containsKey(name)) {
            return true;
        }
        for (String measurement : measurements.keySet()) {
            int arrow = measurement.indexOf(LINK);
            if (arrow > 0 && (measurement.substring(0, arrow).equals(name)
                    || measurement.substring(arrow + LINK.length()).equals(name))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Evidence e && e.measurements.equals(measurements);
    }

    @Override
    public int hashCode() {
        return measurements.hashCode();
    }

    @Override
    public String toString() {
        return measurements.toString();
    }
}
