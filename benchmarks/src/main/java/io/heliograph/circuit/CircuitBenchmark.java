package io.heliograph.circuit;

import java.util.SplittableRandom;
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
import org.openjdk.jmh.annotations.Warmup;

import io.heliograph.circuit.engine.CircuitParameters;
import io.heliograph.circuit.engine.Schedule;
import io.heliograph.circuit.engine.Solstice;

/**
 * Solstice's runtime (issue 23, "what must be shown" 4): one week's schedule for N = 8 to 128 racks at
 * Etalon's settings (80 Gb/s circuit, 10 Gb/s packet, 2,000 us week, 20 us night, 200 us minimum day) on
 * random skewed demand as in the Solstice paper's evaluation: each source rack sends a week of circuit
 * in all, 70% in 4 big flows and 30% in 12 small ones (fewer where N - 1 is smaller), to random
 * destinations. {@link #DEMANDS} matrices are drawn once; each operation schedules the next one, so the
 * time is a median over different demands, not one matrix's. A week is 2 ms: at N = 64 it must take
 * well under that.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class CircuitBenchmark {

    static final int DEMANDS = 64;

    @State(Scope.Benchmark)
    public static class Run {

        @Param({"8", "16", "32", "64", "128"})
        public int racks;

        CircuitParameters network;
        double[][][] demands;
        final Solstice solstice = new Solstice();
        int next;

        @Setup(Level.Trial)
        public void setUp() {
            CircuitParameters etalon = CircuitParameters.etalon();
            network = new CircuitParameters(racks, etalon.circuitBytesPerMicro(), etalon.packetBytesPerMicro(),
                    etalon.weekMicros(), etalon.nightMicros(), etalon.minDayMicros());
            SplittableRandom random = new SplittableRandom(23);
            demands = new double[DEMANDS][][];
            for (int d = 0; d < DEMANDS; d++) {
                demands[d] = skewed(racks, network.circuitBytesPerMicro() * network.weekMicros(), random);
            }
        }
    }

    /** A row's load in 4 big flows (70%) and 12 small ones (30%) to distinct random destinations. */
    static double[][] skewed(int n, double rowBytes, SplittableRandom random) {
        double[][] demand = new double[n][n];
        int big = Math.min(4, n - 1);
        int small = Math.min(12, n - 1 - big);
        for (int i = 0; i < n; i++) {
            int[] others = new int[n - 1];
            for (int k = 0, j = 0; j < n; j++) {
                if (j != i) {
                    others[k++] = j;
                }
            }
            for (int k = others.length - 1; k > 0; k--) {
                int other = random.nextInt(k + 1);
                int held = others[k];
                others[k] = others[other];
                others[other] = held;
            }
            for (int k = 0; k < big + small; k++) {
                double share = k < big ? 0.7 / big : 0.3 / Math.max(1, small);
                demand[i][others[k]] = rowBytes * share * (0.5 + random.nextDouble());
            }
        }
        return demand;
    }

    @Benchmark
    public Schedule solstice(Run run) {
        double[][] demand = run.demands[run.next];
        run.next = (run.next + 1) % DEMANDS;
        return run.solstice.schedule(demand, run.network, run.next);
    }
}
