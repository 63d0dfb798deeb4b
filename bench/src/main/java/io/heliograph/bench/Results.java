package io.heliograph.bench;

import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The rates of a run's tests and the two kinds of line cbench prints about them: one per test, and
 * the final RESULT over the tests left after the warmup and cooldown.
 */
final class Results {

    private final int switches;
    private final int warmup;
    private final int cooldown;
    /** Responses per millisecond, one per test, in order. */
    private final List<Double> perMs = new ArrayList<>();

    Results(int switches, int warmup, int cooldown) {
        this.switches = switches;
        this.warmup = warmup;
        this.cooldown = cooldown;
    }

    /**
     * Records a test and returns its line, as cbench prints it: the time, the number of switches,
     * each switch's response count, and the total rate per millisecond.
     */
    String add(LocalTime at, int[] counts, double elapsedMs) {
        long sum = 0;
        StringBuilder line = new StringBuilder(64 + counts.length * 8);
        line.append(String.format(Locale.ROOT, "%02d:%02d:%02d.%03d %-3d switches: flows/sec:  ", at.getHour(),
                at.getMinute(), at.getSecond(), at.getNano() / 1_000_000, switches));
        for (int count : counts) {
            line.append(count).append("  ");
            sum += count;
        }
        double rate = sum / elapsedMs;
        perMs.add(rate);
        line.append(String.format(Locale.ROOT, " total = %f per ms ", rate));
        return line.toString();
    }

    /** {@code RESULT: n switches k tests min/max/avg/stdev = a/b/c/d responses/s}, over the counted tests. */
    String result() {
        int from = Math.min(warmup, perMs.size());
        List<Double> counted = perMs.subList(from, Math.max(from, perMs.size() - cooldown));
        double min = Double.MAX_VALUE;
        double max = 0;
        double sum = 0;
        for (double v : counted) {
            double perSecond = v * 1000;
            min = Math.min(min, perSecond);
            max = Math.max(max, perSecond);
            sum += perSecond;
        }
        int n = counted.size();
        double avg = n == 0 ? 0 : sum / n;
        double squares = 0;
        for (double v : counted) {
            squares += (v * 1000 - avg) * (v * 1000 - avg);
        }
        double stdev = n == 0 ? 0 : Math.sqrt(squares / n);
        return String.format(Locale.ROOT, "RESULT: %d switches %d tests min/max/avg/stdev = %.2f/%.2f/%.2f/%.2f responses/s",
                switches, n, n == 0 ? 0 : min, max, avg, stdev);
    }
}
