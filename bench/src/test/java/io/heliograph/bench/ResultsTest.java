package io.heliograph.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalTime;
import java.util.regex.Matcher;

import org.junit.jupiter.api.Test;

class ResultsTest {

    @Test
    void perTestLineIsCbenchs() {
        Results r = new Results(2, 0, 0);
        String line = r.add(LocalTime.of(9, 5, 7, 123_456_789), new int[] {1500, 2500}, 1000.0);
        assertEquals("09:05:07.123 2   switches: flows/sec:  1500  2500   total = 4.000000 per ms ", line);
    }

    @Test
    void resultLeavesOutWarmupAndCooldownAndUsesThePopulationDeviation() {
        Results r = new Results(1, 1, 1);
        LocalTime t = LocalTime.NOON;
        r.add(t, new int[] {100_000}, 1000);   // warmup: 100 per ms, left out
        r.add(t, new int[] {2_000}, 1000);     // 2000/s
        r.add(t, new int[] {4_000}, 1000);     // 4000/s
        r.add(t, new int[] {3_000}, 500);      // 6000/s
        r.add(t, new int[] {1}, 1000);         // cooldown, left out
        String line = r.result();
        // avg 4000, deviations -2000, 0, 2000: sqrt(8e6 / 3) = 1632.99
        assertEquals("RESULT: 1 switches 3 tests min/max/avg/stdev = 2000.00/6000.00/4000.00/1632.99 responses/s", line);
        Matcher m = GeneratorAgainstResponderTest.CBENCH_RESULT.matcher(line);
        assertTrue(m.matches(), "cbench's RESULT expression reads it: " + line);
    }
}
