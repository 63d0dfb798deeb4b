package io.heliograph.webui;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Writes the Prometheus text format (0.0.4): a family's {@code # HELP} and {@code # TYPE} lines, then
 * its samples. Help texts and label values are escaped as the format says, labels are written in name
 * order, and numbers as Prometheus parses them ({@code +Inf}, {@code -Inf}, {@code NaN}).
 */
final class PrometheusText {

    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

    private final StringBuilder out = new StringBuilder(8192);

    void family(String name, String type, String help) {
        out.append("# HELP ").append(name).append(' ')
                .append(help.replace("\\", "\\\\").replace("\n", "\\n")).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    void sample(String name, double value) {
        out.append(name).append(' ').append(number(value)).append('\n');
    }

    /** One label, as most samples here have. */
    void sample(String name, String label, String labelValue, double value) {
        sample(name, Map.of(label, labelValue), value);
    }

    void sample(String name, Map<String, String> labels, double value) {
        out.append(name).append(labels(labels)).append(' ').append(number(value)).append('\n');
    }

    /** {@code {a="1",b="2"}} in label name order, values escaped; empty for no labels. */
    static String labels(Map<String, String> labels) {
        if (labels.isEmpty()) {
            return "";
        }
        StringBuilder text = new StringBuilder(32).append('{');
        new TreeMap<>(labels).forEach((name, value) -> {
            if (text.length() > 1) {
                text.append(',');
            }
            text.append(name).append("=\"").append(escape(value)).append('"');
        });
        return text.append('}').toString();
    }

    /** Whether every label name is one Prometheus takes (names starting with __ are its own). */
    static boolean validLabels(Map<String, String> labels) {
        for (String name : labels.keySet()) {
            if (!LABEL_NAME.matcher(name).matches() || name.startsWith("__")) {
                return false;
            }
        }
        return true;
    }

    static String number(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "+Inf" : "-Inf";
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return String.format(Locale.ROOT, "%s", value);
    }

    static String escape(String labelValue) {
        return labelValue.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
