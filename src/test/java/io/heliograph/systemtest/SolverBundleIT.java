package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.BundleList;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.SourceBundle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 19, the solver bundle: an app bundle built by the test against the distribution's jars uses
 * the platform's SolverService (OR-Tools in bundles/, natives loaded once) to solve a knapsack MIP and
 * an all-different CP-SAT model, and logs both answers. Its jar in hot/ is replaced three times by a
 * rebuilt one with other coefficients, then removed and put back, all in one controller JVM: each
 * version solves with its own coefficients, answers checked against a brute force here, and the
 * natives are loaded once in the whole run. (An app that embedded OR-Tools could not do this: the
 * native library binds to the first class loader that loads it, and an update brings a new one.)
 */
@Timeout(300)
class SolverBundleIT {

    private static final Duration CONSOLE = Duration.ofSeconds(15);
    private static final Duration SOLVED = Duration.ofSeconds(60);
    private static final String PROBE_NAME = "Heliograph test app: solver probe";
    private static final long[] VALUES = {1, 6, 18, 22, 28};
    private static final long[] WEIGHTS = {1, 2, 5, 6, 7};
    private static final Pattern NATIVES_LOADED = Pattern.compile("OR-Tools \\S+ native libraries loaded");

    /** Per version: the knapsack's capacity and x's coefficient in the CP-SAT objective. */
    private record Coefficients(long capacity, long xCost) {
    }

    private static final List<Coefficients> VERSIONS = List.of(
            new Coefficients(11, 1), new Coefficients(14, 4), new Coefficients(8, 6), new Coefficients(17, 2),
            new Coefficients(5, 1));

    private static final String PROBE_SOURCE = """
            package test.solverprobe;

            import io.heliograph.solver.CpModel;
            import io.heliograph.solver.IntExpression;
            import io.heliograph.solver.IntVar;
            import io.heliograph.solver.LinearExpression;
            import io.heliograph.solver.LinearModel;
            import io.heliograph.solver.Solution;
            import io.heliograph.solver.SolveOptions;
            import io.heliograph.solver.SolverService;
            import io.heliograph.solver.Variable;
            import java.time.Duration;
            import java.util.List;
            import org.osgi.framework.BundleActivator;
            import org.osgi.framework.BundleContext;
            import org.osgi.framework.ServiceReference;
            import org.osgi.util.tracker.ServiceTracker;
            import org.slf4j.Logger;
            import org.slf4j.LoggerFactory;

            public class Activator implements BundleActivator {
                private static final Logger LOG = LoggerFactory.getLogger("solver-probe");
                private ServiceTracker<SolverService, SolverService> tracker;

                public void start(BundleContext context) {
                    tracker = new ServiceTracker<>(context, SolverService.class, null) {
                        @Override
                        public SolverService addingService(ServiceReference<SolverService> reference) {
                            SolverService solver = context.getService(reference);
                            solve(context.getBundle().getVersion().toString(), solver);
                            return solver;
                        }
                    };
                    tracker.open();
                }

                public void stop(BundleContext context) {
                    tracker.close();
                }

                private static void solve(String version, SolverService solver) {
                    long[] values = {%s};
                    long[] weights = {%s};
                    LinearModel mip = new LinearModel("knapsack");
                    LinearExpression weight = new LinearExpression();
                    LinearExpression value = new LinearExpression();
                    for (int i = 0; i < values.length; i++) {
                        Variable take = mip.binary("take" + i);
                        weight.plus(weights[i], take);
                        value.plus(values[i], take);
                    }
                    mip.atMost("capacity", weight, %d);
                    mip.maximize(value);
                    Solution knapsack = solver.solve(mip, new SolveOptions(Duration.ofSeconds(10), 1));

                    CpModel cp = new CpModel("assignment");
                    IntVar x = cp.intVar("x", 1, 3);
                    IntVar y = cp.intVar("y", 1, 3);
                    IntVar z = cp.intVar("z", 1, 3);
                    cp.allDifferent("distinct", List.of(x, y, z));
                    cp.minimize(new IntExpression().plus(%d, x).plus(2, y).plus(3, z));
                    Solution assignment = solver.solve(cp, new SolveOptions(Duration.ofSeconds(10), 2));

                    LOG.info("solver-probe {} with OR-Tools {}: mip {} {} cp {} {}", version, solver.version(),
                            knapsack.status(), Math.round(knapsack.objective()), assignment.status(),
                            Math.round(assignment.objective()));
                }
            }
            """;

    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static Path artifacts;

    @BeforeAll
    static void start() {
        artifacts = ArtifactDirectory.forTest("SolverBundleIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("SolverBundleIT");
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    void anAppUsingTheSolverIsUpdatedAndReinstalledFromHotAndStillSolves() throws IOException {
        long pid = controller.pid();
        Path hotJar = distribution.hot().resolve("solver-probe.jar");

        // version 0: installed from hot/
        int mark = controller.logMark();
        deploy(0, hotJar);
        String orTools = awaitAnswers(0, mark);
        BundleList.Row installed = Poll.until("the probe Active", CONSOLE, SolverBundleIT::probe,
                row -> row.isPresent() && row.get().state().equals("Active")).orElseThrow();

        // versions 1..3: the jar replaced, the same bundle updated
        for (int version = 1; version <= 3; version++) {
            assertNotEquals(answers(version - 1), answers(version), "versions that would not tell an update");
            mark = controller.logMark();
            deploy(version, hotJar);
            assertEquals(orTools, awaitAnswers(version, mark));
            String expectedVersion = "1.0." + version;
            BundleList.Row updated = Poll.until("lb to list the probe at " + expectedVersion, CONSOLE,
                    SolverBundleIT::probe,
                    row -> row.isPresent() && row.get().version().equals(expectedVersion)
                            && row.get().state().equals("Active")).orElseThrow();
            assertEquals(installed.id(), updated.id(), "the jar replacement installed a second bundle");
        }

        // version 4: removed from hot/ (uninstalled), then put back (a new bundle)
        Files.delete(hotJar);
        Poll.until("the probe uninstalled", CONSOLE, SolverBundleIT::probe, Optional::isEmpty);
        mark = controller.logMark();
        deploy(4, hotJar);
        assertEquals(orTools, awaitAnswers(4, mark));
        BundleList.Row reinstalled = Poll.until("the reinstalled probe Active", CONSOLE, SolverBundleIT::probe,
                row -> row.isPresent() && row.get().state().equals("Active")).orElseThrow();
        assertNotEquals(installed.id(), reinstalled.id(), "the removed probe was never uninstalled");

        assertEquals(pid, controller.pid());
        assertTrue(controller.isAlive(), "the controller JVM did not survive the updates");
        String log = controller.log();
        assertEquals(1, NATIVES_LOADED.matcher(log).results().count(),
                "OR-Tools' natives must be loaded exactly once in the JVM's life");
        assertFalse(log.contains("Solver service unavailable"), "the solver was unavailable at some point");
    }

    /** Builds the probe of {@code version} and moves it into hot/ in one rename (FileInstall never sees half a jar). */
    private static void deploy(int version, Path hotJar) throws IOException {
        Coefficients c = VERSIONS.get(version);
        Path built = artifacts.resolve("solver-probe-" + version + ".jar").toAbsolutePath();
        SourceBundle.build(distribution, built, Map.of(
                "Bundle-SymbolicName", "io.heliograph.test.solverprobe",
                "Bundle-Name", PROBE_NAME,
                "Bundle-Version", "1.0." + version,
                "Bundle-Activator", "test.solverprobe.Activator",
                "Import-Package", "org.osgi.framework, org.osgi.util.tracker, org.slf4j, io.heliograph.solver"),
                Map.of("test.solverprobe.Activator", PROBE_SOURCE.formatted(join(VALUES), join(WEIGHTS),
                        c.capacity(), c.xCost())));
        Path staged = distribution.home().resolve("solver-probe.staged");
        Files.copy(built, staged, StandardCopyOption.REPLACE_EXISTING);
        Files.move(staged, hotJar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Waits for the probe of {@code version} to log its answers, checks them, and returns the OR-Tools version. */
    private static String awaitAnswers(int version, int mark) {
        Matcher line = controller.awaitLog(Pattern.compile("solver-probe 1\\.0\\." + version
                + " with OR-Tools (\\S+): mip (\\w+) (-?\\d+) cp (\\w+) (-?\\d+)"), mark, SOLVED);
        assertEquals("OPTIMAL", line.group(2), line.group());
        assertEquals("OPTIMAL", line.group(4), line.group());
        assertEquals(answers(version), List.of(Long.parseLong(line.group(3)), Long.parseLong(line.group(5))),
                "knapsack and assignment optima of version " + version + ": " + line.group());
        return line.group(1);
    }

    /** The optima of version {@code version}'s two models, by brute force. */
    private static List<Long> answers(int version) {
        Coefficients c = VERSIONS.get(version);
        long knapsack = 0;
        for (int subset = 0; subset < 1 << VALUES.length; subset++) {
            long weight = 0;
            long value = 0;
            for (int i = 0; i < VALUES.length; i++) {
                if ((subset & 1 << i) != 0) {
                    weight += WEIGHTS[i];
                    value += VALUES[i];
                }
            }
            if (weight <= c.capacity()) {
                knapsack = Math.max(knapsack, value);
            }
        }
        long assignment = Long.MAX_VALUE;
        int[][] permutations = {{1, 2, 3}, {1, 3, 2}, {2, 1, 3}, {2, 3, 1}, {3, 1, 2}, {3, 2, 1}};
        for (int[] p : permutations) {
            assignment = Math.min(assignment, c.xCost() * p[0] + 2L * p[1] + 3L * p[2]);
        }
        return List.of(knapsack, assignment);
    }

    private static Optional<BundleList.Row> probe() {
        return controller.bundles(CONSOLE).find(PROBE_NAME);
    }

    private static String join(long[] numbers) {
        StringBuilder text = new StringBuilder();
        for (long n : numbers) {
            text.append(text.length() == 0 ? "" : ", ").append(n);
        }
        return text.toString();
    }
}
