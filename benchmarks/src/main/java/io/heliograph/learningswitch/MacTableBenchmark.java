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
 * its source), and new hosts at the table's bound: refused while every host is in use (a MAC flood
 * against a busy table; each refusal reads the clock), or taking an idle host's place.
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

    private static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(120);

    private MacTable table;
    /** The same hosts, on the real clock and all in use: new hosts are refused. */
    private MacTable busy;
    /** On the real clock, learning cbench's sources: see {@link #putCycling}. */
    private MacTable cycling;
    private int cycle;
    /** The clock of {@link #table}: moved on an idle time per new host, so every host is idle by then. */
    private long now;
    private final long[] known = new long[LOOKUPS];
    private final long[] unknown = new long[LOOKUPS];
    private int next;
    private long newcomer;

    @Setup
    public void setUp() {
        table = new MacTable(hosts, hosts, IDLE_NANOS, () -> now);
        busy = new MacTable(hosts, hosts, IDLE_NANOS, System::nanoTime);
        cycling = new MacTable(hosts, hosts, IDLE_NANOS, System::nanoTime);
        for (int h = 0; h < hosts; h++) {
            table.put(host(h), portOf(h));
            busy.put(host(h), portOf(h));
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

    /** A new host in a full table of idle hosts: CLOCK evicts one to make room. */
    @Benchmark
    public boolean putNewEvicting() {
        now += IDLE_NANOS;
        return table.put(newcomer++, 7);
    }

    /** A new host in a full table of hosts in use (a MAC flood): refused, after one clock read. */
    @Benchmark
    public boolean putNewRefused() {
        return busy.put(newcomer++, 7);
    }

    /**
     * cbench's packet-ins: the source cycles through half as many hosts again as the table holds (its
     * 100,000 sources through the default 65,536), all from one port. The hosts that fit are seen
     * again long before they are idle; the others are refused at each sighting.
     */
    @Benchmark
    public boolean putCycling() {
        cycle = cycle + 1 == hosts + hosts / 2 ? 0 : cycle + 1;
        return cycling.put(host(cycle), 1);
    }
}
