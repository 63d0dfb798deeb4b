package io.heliograph.learningswitch;

import static io.heliograph.benchmarks.WirePackets.host;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The learning switch's MAC table alone, full of {@code hosts} hosts: lookups of known and unknown
 * addresses in random order, re-learning a host where it already is (every packet-in does that for
 * its source), and learning new hosts into a table at its bound, which evicts one each time.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MacTableBenchmark {

    private static final int LOOKUPS = 1 << 16;

    /** 1,000 fits in the L1/L2 caches; 65,536 (the default bound) needs about 1.7 MB of arrays. */
    @Param({"1000", "65536"})
    public int hosts;

    private MacTable table;
    private final long[] known = new long[LOOKUPS];
    private final long[] unknown = new long[LOOKUPS];
    private int next;
    private long newcomer;

    @Setup
    public void setUp() {
        table = new MacTable(hosts);
        for (int h = 0; h < hosts; h++) {
            table.put(host(h), portOf(h));
        }
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < LOOKUPS; i++) {
            known[i] = host(random.nextInt(hosts));
            unknown[i] = host(hosts + random.nextInt(1 << 30));
        }
        newcomer = host(1 << 30);
    }

    private static int portOf(int host) {
        return 1 + host % 48;
    }

    @Benchmark
    public int getKnown() {
        return table.get(known[next++ & (LOOKUPS - 1)]);
    }

    @Benchmark
    public int getUnknown() {
        return table.get(unknown[next++ & (LOOKUPS - 1)]);
    }

    /** A known host seen again on its port: the put every packet-in makes for its source. */
    @Benchmark
    public boolean putKnown() {
        long mac = known[next++ & (LOOKUPS - 1)];
        return table.put(mac, portOf((int) mac));
    }

    /** A new host in a full table: CLOCK evicts one to make room. */
    @Benchmark
    public boolean putNewEvicting() {
        return table.put(newcomer++, 7);
    }
}
