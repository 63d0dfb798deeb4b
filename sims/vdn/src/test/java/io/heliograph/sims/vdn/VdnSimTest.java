package io.heliograph.sims.vdn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class VdnSimTest {

    private static String run(Optional<io.heliograph.vdn.engine.TreeOptimiser> vdn, List<String> progress,
            String... experiments) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        VdnSim sim = new VdnSim(new PrintStream(bytes, true, StandardCharsets.UTF_8),
                new Experiments(Experiments.Scale.quick(1), vdn, progress::add));
        for (String name : experiments) {
            sim.print(name);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void parsesItsCommandLine() {
        VdnSim.Options options = VdnSim.parse("heavy-tail", "--short", "--seed", "7", "--time-limit", "5", "--no-vdn");
        assertEquals("heavy-tail", options.experiment());
        assertTrue(options.quick());
        assertEquals(7, options.seed());
        assertEquals(5, options.timeLimitSeconds());
        assertEquals(false, options.vdn());
        assertEquals(0, VdnSim.parse("all", "--all-windows").windows());
        assertTrue(VdnSim.parse("--help").help());
        assertEquals("no experiment 'x': one of average-day, large-event, heavy-tail, scale-videos, scale-edges, topology,"
                + " knobs, all", assertThrows(IllegalArgumentException.class, () -> VdnSim.parse("x")).getMessage());
        assertEquals("--windows must be a whole number from 1, not '0'",
                assertThrows(IllegalArgumentException.class, () -> VdnSim.parse("all", "--windows", "0")).getMessage());
    }

    @Test
    void theShortModeRunsATraceEndToEndWithTheThesisFiguresBeside() {
        List<String> progress = new ArrayList<>();
        String out = run(Optional.of(new CheapestPaths()), progress, "heavy-tail");
        assertTrue(out.contains("== Heavy-Tail:"), out);
        for (String row : List.of("| EE ", "| OM ", "| CDN ", "| CDN-1 ", "| VDN ")) {
            assertTrue(out.contains(row), row + " in\n" + out);
        }
        assertTrue(out.contains("|          7.7 |") && out.contains("|          4.1 |"), out);
        assertTrue(out.contains("1.7x CDN's mean bitrate"), out);
        assertTrue(progress.stream().anyMatch(line -> line.contains("window 2 of 2")), progress.toString());
    }

    @Test
    void withoutTheOptimiserEveryExperimentRunsItsBaselinesAndMarksVdnPending() {
        String out = run(Optional.empty(), new ArrayList<>(), VdnSim.EXPERIMENTS.toArray(String[]::new));
        for (String title : List.of("== Average Day:", "== Large Event:", "== Heavy-Tail:", "== scale-videos:",
                "== scale-edges:", "== topology:", "== knobs:")) {
            assertTrue(out.contains(title), title + " in\n" + out);
        }
        assertTrue(out.contains("| VDN    | " + VdnSim.PENDING), out);
        assertTrue(out.contains("| cost weight 0.50 | VDN | " + VdnSim.PENDING), out);
        assertTrue(out.contains("| CDN-1 |"), out);
    }
}
