package io.heliograph.circuit.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

import io.heliograph.core.json.Json;

class ScheduleJsonTest {

    private static final CircuitParameters FOUR = new CircuitParameters(4, 10_000, 1_250, 2_000, 20, 200);

    private static final String TWO_DAYS = """
            {
              "weekMicros": 600,
              "nightMicros": 20,
              "days": [
                {"upMicros": 280, "sourceOf": [3, 0, 1, 2]},
                {"upMicros": 280, "sourceOf": [1, 2, 3, 0], "dummy": [false, true, false, false]}
              ]
            }
            """;

    @Test
    void readsTheDocumentedExample() {
        WeekPlan week = ScheduleJson.read(TWO_DAYS, FOUR);
        assertEquals(20, week.nightMicros());
        assertEquals(600, week.weekMicros());
        assertEquals(2, week.days().size());
        assertEquals(300, week.days().get(0).micros(), "a day's length includes its night");
        assertEquals(3, week.days().get(0).source(0));
        assertTrue(week.days().get(1).dummy(1));
        assertEquals(Json.parse(TWO_DAYS), Json.parse(ScheduleJson.write(week)), "written back as read");
    }

    @Test
    void roundTripsEverySchedulersWeek() {
        SplittableRandom random = new SplittableRandom(7);
        for (int trial = 0; trial < 100; trial++) {
            int n = 2 + random.nextInt(15);
            CircuitParameters network = new CircuitParameters(n, 10_000, 1_250, 2_000, 20, 200);
            double[][] demand = new double[n][n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    demand[i][j] = i != j && random.nextDouble() < 3.0 / n ? random.nextDouble() * 3e7 : 0;
                }
            }
            Scheduler scheduler = trial % 2 == 0 ? new Solstice() : new RoundRobin();
            if (scheduler instanceof RoundRobin && network.weekMicros() / (n - 1) < network.minDayMicros()) {
                continue;
            }
            WeekPlan week = WeekPlan.of(scheduler.schedule(demand, network, trial));
            String text = ScheduleJson.write(week);
            assertEquals(week, ScheduleJson.read(text, network), text);
            assertEquals(week, ScheduleJson.fromJson(Json.parse(Json.compact(ScheduleJson.toJson(week)))));
        }
    }

    private static void refused(String text, String expected) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> ScheduleJson.read(text, FOUR));
        assertTrue(error.getMessage().startsWith(expected), error.getMessage());
    }

    @Test
    void refusesEachProblemByItsPath() {
        refused(TWO_DAYS.replace("[1, 2, 3, 0]", "[1, 2, 1, 0]"),
                "$.days[1].sourceOf[2]: not a perfect matching: rack 1 already feeds output port 0, so it cannot feed"
                        + " output port 2 too");
        refused(TWO_DAYS.replace("[3, 0, 1, 2]", "[3, 0, 1, 4]"), "$.days[0].sourceOf[3]: must be from 0 to 3, not 4");
        refused(TWO_DAYS.replace("[3, 0, 1, 2]", "[3, 0, 1]"), "$.days[0].sourceOf: matches 3 ports; the network has 4");
        refused(TWO_DAYS.replace("\"upMicros\": 280, \"sourceOf\": [3", "\"upMicros\": 170, \"sourceOf\": [3")
                        .replace("600", "490"),
                "$.days[0].upMicros: 170 us and its night of 20 us are shorter than the minimum day of 200 us");
        refused(TWO_DAYS.replace("600", "20"), "$.weekMicros: a week of 20 us is shorter than one day and its night");
        refused(TWO_DAYS.replace("600", "610"), "$.weekMicros: 610 us is not the days and their nights, 600 us");
        refused(TWO_DAYS.replace("\"nightMicros\": 20", "\"nightMicros\": 20, \"nights\": 2"),
                "$.nights: unknown member");
        refused(TWO_DAYS.replace("{\"upMicros\": 280, \"sourceOf\": [3", "{\"up\": 1, \"upMicros\": 280, \"sourceOf\": [3"),
                "$.days[0].up: unknown member");
        refused(TWO_DAYS.replace("\"nightMicros\": 20", "\"nightMicros\": 30").replace("600", "620"),
                "$.nightMicros: 30 is not the network's night of 20 us");
        refused(TWO_DAYS.replace("\"upMicros\": 280, \"sourceOf\": [1", "\"upMicros\": \"280\", \"sourceOf\": [1"),
                "$.days[1].upMicros: must be a whole number, not \"280\"");
        refused(TWO_DAYS.replace("[false, true, false, false]", "[false, true]"), "$.days[1].dummy: must mark 4 ports");
        refused("{\"weekMicros\": 600, \"nightMicros\": 20, \"days\": []}", "$.days: must hold from 1");
        refused("{\"weekMicros\": 600, \"days\": []}", "$.nightMicros: missing");
        refused("[]", "$: must be an object");
        String longWeek = TWO_DAYS.replace("280", "1180").replace("600", "2400");
        refused(longWeek, "$.weekMicros: the days and nights last 2400 us, longer than the network's week of 2000 us");
        assertEquals(2400, ScheduleJson.read(longWeek).weekMicros(), "without a network, only the week's own rules");
        assertThrows(IllegalArgumentException.class, () -> ScheduleJson.read("{\"weekMicros\": 1.5}"), "whole numbers only");
    }

    @Test
    void aWeekPlanHoldsItsOwnRules() {
        Day day = new Day(200, new int[] {1, 0}, new boolean[2]);
        assertThrows(IllegalArgumentException.class, () -> new WeekPlan(200, List.of(day)), "a day no longer than its night");
        assertThrows(IllegalArgumentException.class, () -> new WeekPlan(20, List.of()));
        assertThrows(IllegalArgumentException.class,
                () -> new WeekPlan(20, List.of(day, new Day(200, new int[] {1, 2, 0}, new boolean[3]))));
    }
}
