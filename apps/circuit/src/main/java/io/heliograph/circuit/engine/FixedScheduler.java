package io.heliograph.circuit.engine;

import java.util.List;

/**
 * The schedule an operator fixed (spec §2.4's strobe, §2.7's "Fixed schedule"): the same days every week,
 * whatever the demand; the demand only decides what the circuits carry and what is left for the packet
 * switch. The week is checked against the network on every call ({@link WeekPlan#check}), so a week that
 * does not fit a network is refused with its reason; it may be shorter than the network's week (the
 * strobe's 7 days of 200 us make 1,400 us), and then it is the operator's week that repeats. Circuits
 * run at the full circuit rate.
 */
public final class FixedScheduler implements Scheduler {

    private final WeekPlan week;

    public FixedScheduler(WeekPlan week) {
        this.week = week;
    }

    /**
     * The strobe of spec §2.4 for {@code network}: N - 1 days of the minimum day each, rack r sending to
     * rack r + 2, r + 3, ..., r + N - 1, then r + 1 (mod N), so every pair has one day a week.
     */
    public static FixedScheduler strobe(CircuitParameters network) {
        int n = network.racks();
        List<Day> days = new java.util.ArrayList<>();
        for (int k = 0; k < n - 1; k++) {
            int offset = k + 2 <= n - 1 ? k + 2 : 1;
            int[] sourceOf = new int[n];
            for (int i = 0; i < n; i++) {
                sourceOf[(i + offset) % n] = i;
            }
            days.add(new Day(network.minDayMicros(), sourceOf, new boolean[n]));
        }
        return new FixedScheduler(new WeekPlan(network.nightMicros(), days));
    }

    public WeekPlan week() {
        return week;
    }

    @Override
    public String name() {
        return "fixed";
    }

    @Override
    public Schedule schedule(double[][] demand, CircuitParameters network, long seed) {
        Scheduler.check(demand, network);
        week.check(network);
        int n = network.racks();
        double[][] rate = new double[n][n];
        double[][] time = Schedule.circuitMicros(week.days(), n, network.nightMicros());
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                rate[i][j] = time[i][j] > 0 ? network.circuitBytesPerMicro() : 0;
            }
        }
        return Schedule.of(week.days(), demand, network, rate);
    }
}
