package io.heliograph.core;

import java.util.List;
import java.util.Map;

/**
 * Metrics a component adds to the controller's {@code /metrics} (Prometheus text format). A
 * component registers this as an OSGi service (whiteboard); its samples appear while it runs. Bounds
 * of tables are reported through {@link StateBounds}, not here.
 *
 * <p>Called from HTTP threads: implementations read their counters without blocking the I/O threads.
 */
public interface MetricSource {

    /** The current samples. Samples with the same name form one family and must agree on type and help. */
    List<Sample> samples();

    /** A metric's kind, as Prometheus names it. */
    enum Type {
        COUNTER, GAUGE;

        public String prometheusName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One sample.
     *
     * @param name   {@code heliograph_<app>_<what>}, with {@code _total} for counters
     * @param labels label names and values; empty for none
     */
    record Sample(String name, Type type, String help, Map<String, String> labels, double value) {

        public Sample {
            if (name == null || !name.matches("[a-zA-Z_:][a-zA-Z0-9_:]*")) {
                throw new IllegalArgumentException("not a Prometheus metric name: " + name);
            }
            labels = labels == null ? Map.of() : Map.copyOf(labels);
            help = help == null ? "" : help;
        }
    }
}
