package io.heliograph.circuit.engine;

import java.util.List;

/**
 * A week of circuit configurations without the demand: its days in order (each a perfect matching, its
 * length including the night that follows it) and the night. This is what the documented JSON type
 * ({@link ScheduleJson}) holds, what an operator fixes ({@link FixedScheduler}) and what an executor
 * runs in a loop. The days sum to the week.
 */
public record WeekPlan(long nightMicros, List<Day> days) {

    public WeekPlan {
        days = List.copyOf(days);
        if (nightMicros < 1) {
            throw new IllegalArgumentException("nightMicros must be at least 1, not " + nightMicros);
        }
        if (days.isEmpty()) {
            throw new IllegalArgumentException("a week has at least one day");
        }
        int n = days.get(0).sourceOf().length;
        for (int k = 0; k < days.size(); k++) {
            Day day = days.get(k);
            if (day.sourceOf().length != n) {
                throw new IllegalArgumentException("day " + k + " matches " + day.sourceOf().length + " ports, day 0 " + n);
            }
            if (day.micros() <= nightMicros) {
                throw new IllegalArgumentException("day " + k + " (" + day.micros() + " us with its night) is no longer"
                        + " than its night of " + nightMicros + " us");
            }
        }
    }

    /** A schedule's days and night. */
    public static WeekPlan of(Schedule schedule) {
        return new WeekPlan(schedule.nightMicros(), schedule.days());
    }

    public int racks() {
        return days.get(0).sourceOf().length;
    }

    /** The week's length: its days, nights included. */
    public long weekMicros() {
        return days.stream().mapToLong(Day::micros).sum();
    }

    /**
     * Checks the week against a network: as many ports as racks, the network's night, no day shorter than
     * its minimum day, and days plus nights within its week. The first problem, by day.
     */
    public void check(CircuitParameters network) {
        if (racks() != network.racks()) {
            throw new IllegalArgumentException("the days match " + racks() + " ports; the network has " + network.racks()
                    + " racks");
        }
        if (nightMicros != network.nightMicros()) {
            throw new IllegalArgumentException("nightMicros " + nightMicros + " is not the network's night of "
                    + network.nightMicros() + " us");
        }
        for (int k = 0; k < days.size(); k++) {
            if (days.get(k).micros() < network.minDayMicros()) {
                throw new IllegalArgumentException("day " + k + " lasts " + days.get(k).micros() + " us with its night,"
                        + " shorter than the minimum day of " + network.minDayMicros() + " us");
            }
        }
        if (weekMicros() > network.weekMicros()) {
            throw new IllegalArgumentException("the days and nights last " + weekMicros() + " us, longer than the"
                    + " network's week of " + network.weekMicros() + " us");
        }
    }
}
