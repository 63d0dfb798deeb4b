package io.heliograph.sims.circuit;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * The chapter's experiments on the simulator. §2.4's setup for both buffer experiments: the strobe
 * schedule (7 days of 180 us + 20 us night, a 1,400 us week), endless TCP flows from rack 1 to rack 2
 * (here racks 0 and 1): one from each of rack 1's 16 hosts to the host of the same index in rack 2 [the
 * thesis says "TCP flows ... from rack 1 to rack 2" and not how many], started within the first 100 us.
 */
final class Experiments {

    /** Static VOQ sizes of §2.4.1 (Fig 2.7a, 2.8a): 4 to 128 packets. */
    static final int[] STATIC_SIZES = {4, 8, 16, 32, 64, 128};
    /** tau of §2.4.3 (Fig 2.7b, 2.8b): 0 to 1,400 us in steps of one day + night. */
    static final long[] TAUS_MICROS = {0, 200, 400, 600, 800, 1_000, 1_200, 1_400};
    static final int SMALL = 16;
    static final int BIG = 128;
    /** The thesis's flows ran 2 s (flowgrind). */
    static final long FULL_NS = 2_000_000_000L;
    static final long SHORT_NS = 500_000_000L;
    /** Counting starts after TCP's first slow start. */
    static final long WARMUP_NS = 20_000_000L;

    /** One run's figures, over the measured span. */
    record Result(String label, double circuitUtilisation, double goodputGbps, double medianMicros,
                  double medianPacketMicros, double medianCircuitMicros, double p99Micros, long dataDrops,
                  int fastRetransmits, int timeouts, long events, double wallSeconds, long simulatedNs) {
    }

    private final ExecutorService pool;
    private final Config base;
    private final long durationNs;

    Experiments(ExecutorService pool, Config base, long durationNs) {
        this.pool = pool;
        this.base = base;
        this.durationNs = durationNs;
    }

    /** Rack 0's hosts each send an endless flow to the same host index in rack 1, under {@code config}. */
    static Result rackToRack(String label, Config config, long durationNs) {
        long started = System.nanoTime();
        Simulator sim = new Simulator(config);
        SplittableRandom random = new SplittableRandom(config.seed());
        int hosts = config.hostsPerRack();
        int[] flows = new int[hosts];
        for (int h = 0; h < hosts; h++) {
            flows[h] = sim.addFlow(h, hosts + h, -1, random.nextLong(100_000));
        }
        long warmup = Math.min(WARMUP_NS, durationNs / 5);
        sim.run(warmup, durationNs);
        double wall = (System.nanoTime() - started) / 1e9;
        long delivered = 0;
        int fast = 0;
        int timeouts = 0;
        for (int f : flows) {
            delivered += sim.tcp.delivered[f];
            fast += sim.tcp.fastRetransmits[f];
            timeouts += sim.tcp.timeouts[f];
        }
        double span = durationNs - warmup;
        return new Result(label, sim.circuitUtilisation(0, 1), delivered * 8 / span, sim.latencyAll.quantileMicros(0.5),
                sim.latencyPacket.quantileMicros(0.5), sim.latencyCircuit.quantileMicros(0.5),
                sim.latencyAll.quantileMicros(0.99), sim.dataDrops, fast, timeouts, sim.eventCount, wall, durationNs);
    }

    /** The core's speed under full load (not a thesis experiment). */
    record Speed(int flows, long simulatedNs, long events, double wallSeconds, int weeks, double solsticeMillisPerWeek,
                 double goodputGbps) {
    }

    /**
     * Every one of the 128 hosts sends an endless flow to a random host of another rack, Solstice on
     * VOQ occupancy every 2 ms week, static 16-packet VOQs: the simulator at its full size and load.
     */
    static Speed speed(Config base, long durationNs) {
        Config config = base.withNetwork(io.heliograph.circuit.engine.CircuitParameters.etalon())
                .withScheduler("solstice").withStaticBuffers(16);
        long started = System.nanoTime();
        Simulator sim = new Simulator(config);
        SplittableRandom random = new SplittableRandom(config.seed());
        int hosts = config.hosts();
        int perRack = config.hostsPerRack();
        for (int h = 0; h < hosts; h++) {
            int rack = h / perRack;
            int other = (rack + 1 + random.nextInt(config.racks() - 1)) % config.racks();
            sim.addFlow(h, other * perRack + random.nextInt(perRack), -1, random.nextLong(100_000));
        }
        long warmup = durationNs / 5;
        sim.run(warmup, durationNs);
        double wall = (System.nanoTime() - started) / 1e9;
        long delivered = 0;
        for (int f = 0; f < sim.tcp.count; f++) {
            delivered += sim.tcp.delivered[f];
        }
        return new Speed(hosts, durationNs, sim.eventCount, wall, sim.weeksScheduled,
                sim.weeksScheduled == 0 ? 0 : sim.solsticeNanos / 1e6 / sim.weeksScheduled,
                delivered * 8.0 / (durationNs - warmup));
    }

    /** Static buffers of each size (§2.4.1). */
    List<Result> buffers() {
        List<String> labels = new ArrayList<>();
        List<Config> configs = new ArrayList<>();
        for (int size : STATIC_SIZES) {
            labels.add("static " + size);
            configs.add(base.withStaticBuffers(size));
        }
        return runAll(labels, configs);
    }

    /** resize(16, 128, tau) for each tau (§2.4.3), then static 16, 64 and 128, the references. */
    List<Result> resize() {
        List<String> labels = new ArrayList<>();
        List<Config> configs = new ArrayList<>();
        for (long tau : TAUS_MICROS) {
            labels.add("tau " + tau);
            configs.add(base.withResize(SMALL, BIG, tau));
        }
        labels.add("static 16");
        configs.add(base.withStaticBuffers(16));
        labels.add("static 64");
        configs.add(base.withStaticBuffers(64));
        labels.add("static 128");
        configs.add(base.withStaticBuffers(128));
        return runAll(labels, configs);
    }

    private List<Result> runAll(List<String> labels, List<Config> configs) {
        List<Future<Result>> futures = new ArrayList<>();
        for (int i = 0; i < configs.size(); i++) {
            String label = labels.get(i);
            Config config = configs.get(i);
            futures.add(pool.submit(() -> rackToRack(label, config, durationNs)));
        }
        List<Result> results = new ArrayList<>();
        for (Future<Result> future : futures) {
            try {
                results.add(future.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
        return results;
    }

    static Result find(List<Result> results, String label) {
        return results.stream().filter(r -> r.label().equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no run " + label));
    }
}
