package io.heliograph.virtue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.heliograph.virtue.engine.Energy;
import io.heliograph.virtue.engine.GreedyFill;
import io.heliograph.virtue.engine.GreedyNet;
import io.heliograph.virtue.engine.ParallelAnnealing;
import io.heliograph.virtue.engine.PlacementAlgorithm;
import io.heliograph.virtue.engine.PlacementProblem;
import io.heliograph.virtue.engine.PlacementResult;
import io.heliograph.virtue.engine.RandomPlacement;
import io.heliograph.virtue.engine.SimulatedAnnealing;
import io.heliograph.virtue.engine.WebWorkload;

/**
 * One run of a Virtue placement algorithm (issue 21, spec §3.9): each of the thesis's algorithms on one
 * thread, and the parallel versions on a 2-thread pool, on a Web-like experiment ({@link WebWorkload})
 * from a random start on a three-tier tree: 120 VMs on 80 PMs (the thesis's large size), 1,000 on 500,
 * and 10,000 on 2,000 ({@link #large}, timed one run at a time; Greedy Net there, which takes most of a
 * minute, three times without a warm-up, {@link #largeGreedyNet}). SA runs the thesis's T = 5000 at
 * every size. The seed is fixed, so every operation is the same work.
 *
 * <p>Algorithms: {@code random}, {@code saC}, {@code saCN}, {@code saCNTM}, {@code saAll}, {@code greedyNet},
 * {@code greedyFill} on the calling thread; {@code saAll-2chains-1thread} and {@code saAll-2chains-2threads}
 * (two SA All chains, the better kept, run one after the other or at once: their ratio is the chains'
 * speed-up); {@code greedyNet-2threads} and {@code greedyFill-2threads} (each VM's candidate PMs in two
 * halves at once: against {@code greedyNet} and {@code greedyFill}, the candidates' speed-up).
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx3g")
public class VirtueBenchmark {

    private static final long SEED = 1;

    /** What is timed: an algorithm, its problem and, for the parallel versions, their 2-thread pool. */
    public abstract static class Run {

        PlacementProblem problem;
        PlacementAlgorithm placer;
        private ExecutorService pool;

        abstract String size();

        abstract String algorithmName();

        @Setup(Level.Trial)
        public void setUp() {
            problem = switch (size()) {
                case "120x80" -> WebWorkload.web120(SEED);
                case "1000x500" -> WebWorkload.web1000(SEED);
                case "10000x2000" -> WebWorkload.web10000(SEED);
                default -> throw new IllegalArgumentException("no size " + size());
            };
            pool = Executors.newFixedThreadPool(2);
            placer = switch (algorithmName()) {
                case "random" -> new RandomPlacement();
                case "saC" -> new SimulatedAnnealing(Energy.CPU, SimulatedAnnealing.LARGE_TEMPERATURE);
                case "saCN" -> new SimulatedAnnealing(Energy.CPU_NIC, SimulatedAnnealing.LARGE_TEMPERATURE);
                case "saCNTM" -> new SimulatedAnnealing(Energy.CPU_NIC_TRAFFIC, SimulatedAnnealing.LARGE_TEMPERATURE);
                case "saAll" -> saAll();
                case "greedyNet" -> new GreedyNet();
                case "greedyFill" -> new GreedyFill();
                case "saAll-2chains-1thread" -> new ParallelAnnealing(saAll(), 2, Runnable::run);
                case "saAll-2chains-2threads" -> new ParallelAnnealing(saAll(), 2, pool);
                case "greedyNet-2threads" -> new GreedyNet(pool, 2);
                case "greedyFill-2threads" -> new GreedyFill(pool, 2);
                default -> throw new IllegalArgumentException("no algorithm " + algorithmName());
            };
        }

        private static SimulatedAnnealing saAll() {
            return new SimulatedAnnealing(Energy.ALL, SimulatedAnnealing.LARGE_TEMPERATURE);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            pool.shutdownNow();
        }
    }

    /** The two smaller sizes, sampled for a few seconds each. */
    @State(Scope.Benchmark)
    public static class Small extends Run {

        @Param({"120x80", "1000x500"})
        public String size;

        @Param({"random", "saC", "saCN", "saCNTM", "saAll", "greedyNet", "greedyFill", "saAll-2chains-1thread",
                "saAll-2chains-2threads", "greedyNet-2threads", "greedyFill-2threads"})
        public String algorithm;

        @Override
        String size() {
            return size;
        }

        @Override
        String algorithmName() {
            return algorithm;
        }
    }

    /** 10,000 VMs on 2,000 PMs (8 VMs a PM at most: 4 would not hold them), all but Greedy Net. */
    @State(Scope.Benchmark)
    public static class Large extends Run {

        @Param({"10000x2000"})
        public String size;

        @Param({"random", "saC", "saCN", "saCNTM", "saAll", "greedyFill", "saAll-2chains-1thread",
                "saAll-2chains-2threads", "greedyFill-2threads"})
        public String algorithm;

        @Override
        String size() {
            return size;
        }

        @Override
        String algorithmName() {
            return algorithm;
        }
    }

    /** Greedy Net at 10,000 VMs on 2,000 PMs: it takes most of a minute, so it gets its own shots. */
    @State(Scope.Benchmark)
    public static class LargeGreedyNet extends Run {

        @Param({"10000x2000"})
        public String size;

        @Param({"greedyNet", "greedyNet-2threads"})
        public String algorithm;

        @Override
        String size() {
            return size;
        }

        @Override
        String algorithmName() {
            return algorithm;
        }
    }

    @Benchmark
    @Warmup(iterations = 2, time = 1)
    @Measurement(iterations = 3, time = 1)
    public PlacementResult small(Small run) {
        return run.placer.place(run.problem, SEED);
    }

    /** One run at a time: one warm-up, three timed; the median of three is the middle one. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @Warmup(iterations = 1)
    @Measurement(iterations = 3)
    public PlacementResult large(Large run) {
        return run.placer.place(run.problem, SEED);
    }

    /** Three timed runs, no warm-up: a run takes most of a minute, so the JIT has long finished within the first. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @Warmup(iterations = 0)
    @Measurement(iterations = 3)
    public PlacementResult largeGreedyNet(LargeGreedyNet run) {
        return run.placer.place(run.problem, SEED);
    }
}
