package io.heliograph.sims.circuit;

import io.heliograph.circuit.engine.CircuitParameters;
import io.heliograph.circuit.engine.ReplicaPlacement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
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
        List<Callable<Result>> tasks = new ArrayList<>();
        for (int i = 0; i < configs.size(); i++) {
            String label = labels.get(i);
            Config config = configs.get(i);
            tasks.add(() -> rackToRack(label, config, durationNs));
        }
        return all(tasks);
    }

    // ---- reTCP (spec 2.6, Fig 2.9)

    /** Reno and reTCP, each with static 16, static 64, and resize(16, 128, tau) for tau 600 and 1000. */
    List<Result> retcp() {
        List<String> labels = new ArrayList<>();
        List<Config> configs = new ArrayList<>();
        for (boolean retcp : new boolean[] {false, true}) {
            String tcp = retcp ? "retcp" : "reno";
            labels.add(tcp + " 16");
            configs.add(base.withStaticBuffers(16).withRetcp(retcp));
            labels.add(tcp + " 64");
            configs.add(base.withStaticBuffers(64).withRetcp(retcp));
            for (long tau : new long[] {600, 1_000}) {
                labels.add(tcp + " t" + tau);
                configs.add(base.withResize(SMALL, BIG, tau).withRetcp(retcp));
            }
        }
        return runAll(labels, configs);
    }

    // ---- one-ring and two-ring big/small workloads (spec 2.7, Figs 2.13-2.16, Table 2.2)

    /** Big flows: 1,000 to 10,000 packets; small: 10 to 100, uniform (thesis L834). */
    static final int BIG_MIN = 1_000;
    static final int BIG_MAX = 10_000;
    static final int SMALL_MIN = 10;
    static final int SMALL_MAX = 100;

    /** A flow workload: flow k from host src[k] to dst[k], segments[k] long, starting at start[k]. */
    record Workload(int[] src, int[] dst, int[] segments, long[] start, boolean[] big) {
        int size() {
            return src.length;
        }
    }

    /**
     * The thesis's big/small workload (L834) for {@code rings} rings: from each source rack, big flows to its
     * ring racks (rack i + {@link Config#RING_OFFSETS}[k], k chosen uniformly) arriving so that they use 1/3
     * of the circuit bandwidth, and small flows to the other racks (uniformly) arriving so that they use 1/3
     * of the packet bandwidth. "We select a start time such that ..." does not say how: arrivals are Poisson
     * at those rates [unspecified]. Hosts are uniform within their racks.
     */
    static Workload ringWorkload(Config config, int rings, long durationNs) {
        SplittableRandom random = new SplittableRandom(config.seed() * 7_919 + rings);
        int racks = config.racks();
        int perRack = config.hostsPerRack();
        CircuitParameters network = CircuitParameters.etalon();
        double bigPerNs = network.circuitBytesPerMicro() / 1_000 / 3
                / ((BIG_MIN + BIG_MAX) / 2.0 * config.mtu());
        double smallPerNs = network.packetBytesPerMicro() / 1_000 / 3
                / ((SMALL_MIN + SMALL_MAX) / 2.0 * config.mtu());
        List<long[]> flows = new ArrayList<>();
        for (int r = 0; r < racks; r++) {
            boolean[] ring = new boolean[racks];
            for (int k = 0; k < rings; k++) {
                ring[(r + Config.RING_OFFSETS[k]) % racks] = true;
            }
            int source = r;
            int[] others = java.util.stream.IntStream.range(0, racks).filter(d -> d != source && !ring[d]).toArray();
            for (double t = -Math.log(1 - random.nextDouble()) / bigPerNs; t < durationNs;
                 t += -Math.log(1 - random.nextDouble()) / bigPerNs) {
                int d = (r + Config.RING_OFFSETS[random.nextInt(rings)]) % racks;
                flows.add(new long[] {(long) t, r * perRack + random.nextInt(perRack), d * perRack + random.nextInt(perRack),
                    BIG_MIN + random.nextInt(BIG_MAX - BIG_MIN + 1), 1});
            }
            for (double t = -Math.log(1 - random.nextDouble()) / smallPerNs; t < durationNs;
                 t += -Math.log(1 - random.nextDouble()) / smallPerNs) {
                int d = others[random.nextInt(others.length)];
                flows.add(new long[] {(long) t, r * perRack + random.nextInt(perRack), d * perRack + random.nextInt(perRack),
                    SMALL_MIN + random.nextInt(SMALL_MAX - SMALL_MIN + 1), 0});
            }
        }
        flows.sort((a, b) -> Long.compare(a[0], b[0]));
        int n = flows.size();
        Workload w = new Workload(new int[n], new int[n], new int[n], new long[n], new boolean[n]);
        for (int k = 0; k < n; k++) {
            long[] f = flows.get(k);
            w.start()[k] = f[0];
            w.src()[k] = (int) f[1];
            w.dst()[k] = (int) f[2];
            w.segments()[k] = (int) f[3];
            w.big()[k] = f[4] == 1;
        }
        return w;
    }

    /**
     * One run's flow completion times. A flow unfinished at the end of the run is killed, as the thesis's
     * were after 2 s, and counts with the time it ran (a lower bound of its FCT).
     */
    record FctResult(String label, double medianSmallMs, double p99SmallMs, double medianBigMs, double p99BigMs,
                     int small, int big, int unfinishedSmall, int unfinishedBig, double circuitUtilisation,
                     double circuitShare, double goodputGbps, long events, double wallSeconds, long simulatedNs) {
    }

    static FctResult runFlows(String label, Config config, Workload workload, long durationNs) {
        long started = System.nanoTime();
        Simulator sim = new Simulator(config);
        int[] flow = new int[workload.size()];
        for (int k = 0; k < workload.size(); k++) {
            flow[k] = sim.addFlow(workload.src()[k], workload.dst()[k], workload.segments()[k], workload.start()[k]);
        }
        sim.run(0, durationNs);
        double wall = (System.nanoTime() - started) / 1e9;
        double[] small = new double[workload.size()];
        double[] big = new double[workload.size()];
        int ns = 0;
        int nb = 0;
        int unfinishedSmall = 0;
        int unfinishedBig = 0;
        long delivered = 0;
        for (int k = 0; k < workload.size(); k++) {
            int f = flow[k];
            long end = sim.tcp.finished[f] >= 0 ? sim.tcp.finished[f] : durationNs;
            double ms = (end - workload.start()[k]) / 1e6;
            delivered += sim.tcp.delivered[f];
            if (workload.big()[k]) {
                big[nb++] = ms;
                unfinishedBig += sim.tcp.finished[f] < 0 ? 1 : 0;
            } else {
                small[ns++] = ms;
                unfinishedSmall += sim.tcp.finished[f] < 0 ? 1 : 0;
            }
        }
        small = Arrays.copyOf(small, ns);
        big = Arrays.copyOf(big, nb);
        Arrays.sort(small);
        Arrays.sort(big);
        return new FctResult(label, quantile(small, 0.5), quantile(small, 0.99), quantile(big, 0.5), quantile(big, 0.99),
                ns, nb, unfinishedSmall, unfinishedBig, sim.circuitUtilisation(), sim.circuitShare(),
                delivered * 8.0 / durationNs, sim.eventCount, wall, durationNs);
    }

    /** The nearest-rank quantile of sorted values; 0 when there are none. */
    static double quantile(double[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /** The etalon network with its 2 ms week, Solstice, static 16-packet VOQs: the ring and DFSIO base. */
    Config solsticeBase() {
        return base.withNetwork(CircuitParameters.etalon()).withScheduler("solstice").withStaticBuffers(SMALL);
    }

    /** A packet-only network of {@code gbps} (no circuit switch). */
    private Config packetOnly(double gbps) {
        CircuitParameters etalon = CircuitParameters.etalon();
        return base.withNetwork(new CircuitParameters(etalon.racks(), etalon.circuitBytesPerMicro(), gbps * 1e9 / 8 / 1e6,
                etalon.weekMicros(), etalon.nightMicros(), etalon.minDayMicros())).withScheduler("none")
                .withStaticBuffers(SMALL);
    }

    /** One-ring (Figs 2.13-2.16): ToR VOQ, ADU and the fixed ring schedule. */
    List<FctResult> oneRing() {
        Config voq = solsticeBase();
        return runFlows(ringWorkload(base, 1, durationNs), List.of("ToR VOQ", "ADU", "Fixed"),
                List.of(voq, voq.withEstimator("adu"), voq.withFixedRings(1)));
    }

    /**
     * Two-ring (Table 2.2): the estimators alone, with resize(16, 128, 1000), with reTCP and the same resizing
     * ("reTCP + resize", L850), the fixed two-ring schedule, and packet-only networks of 10 to 80 Gb/s.
     */
    List<FctResult> twoRing() {
        Config voq = solsticeBase();
        Config adu = voq.withEstimator("adu");
        List<String> labels = List.of("ToR VOQ", "VOQ+Resize", "VOQ+reTCP", "ADU", "ADU+Resize", "ADU+reTCP", "Fixed",
                "Packet 10G", "Packet 20G", "Packet 40G", "Packet 80G");
        List<Config> configs = List.of(voq, voq.withResize(SMALL, BIG, 1_000), voq.withResize(SMALL, BIG, 1_000).withRetcp(true),
                adu, adu.withResize(SMALL, BIG, 1_000), adu.withResize(SMALL, BIG, 1_000).withRetcp(true),
                voq.withFixedRings(2), packetOnly(10), packetOnly(20), packetOnly(40), packetOnly(80));
        return runFlows(ringWorkload(base, 2, durationNs), labels, configs);
    }

    /** The same workload under each config. */
    List<FctResult> runFlows(Workload workload, List<String> labels, List<Config> configs) {
        List<Callable<FctResult>> tasks = new ArrayList<>();
        for (int i = 0; i < configs.size(); i++) {
            String label = labels.get(i);
            Config config = configs.get(i);
            tasks.add(() -> runFlows(label, config, workload, durationNs));
        }
        return all(tasks);
    }

    // ---- DFSIO (spec 2.8, Fig 2.20)

    /** DFSIO's J = 64 mappers each write X = 400 MB (L893), in 128 MB HDFS blocks [the thesis does not say]. */
    static final int WRITERS = 64;
    static final long FILE_BYTES = 400L << 20;
    static final long BLOCK_BYTES = 128L << 20;
    /** A run stops when every file is written, or after this long in simulated time. */
    static final long DFSIO_CAP_NS = 30_000_000_000L;

    /** Per file write times (seconds) of one DFSIO run. */
    record DfsioResult(String label, double medianSeconds, double p99Seconds, double maxSeconds, int unfinished,
                       long fileBytes, double circuitUtilisation, double circuitShare, long events, double wallSeconds,
                       long simulatedNs) {
    }

    /**
     * DFSIO as flows: 64 writers, 8 in each rack on hosts 0 to 7 [8 mappers per physical machine in the thesis,
     * sharing one host link; here one host each], all starting within the first 100 us, each writing one file
     * block after block. A block is written as HDFS pipelines it: replica 1 is the writer itself (no network),
     * replicas 2 and 3 are two distinct hosts of the replica rack; the writer streams the block to the first,
     * which forwards what it has received to the second; the block is done when both flows are acknowledged,
     * and the next block starts. The replica rack is uniform among the other racks for each block (HDFS), or
     * the engine's {@link ReplicaPlacement#ring} (reHDFS: rack i -> i + 1).
     */
    static DfsioResult dfsio(String label, Config config, boolean ring, long fileBytes, long blockBytes) {
        long started = System.nanoTime();
        Simulator sim = new Simulator(config);
        SplittableRandom random = new SplittableRandom(config.seed() * 104_729);
        int racks = config.racks();
        int perRack = config.hostsPerRack();
        int payload = sim.tcp.payload;
        ReplicaPlacement placement = ReplicaPlacement.ring(racks);
        long[] left = new long[WRITERS];
        int[] pending = new int[WRITERS];
        long[] done = new long[WRITERS];
        Arrays.fill(left, fileBytes);
        Arrays.fill(done, -1);
        int[][] writerOf = {new int[1 << 10]}; // per flow: its writer
        int[] remaining = {WRITERS};
        class Blocks {
            void next(int w, long at) {
                int host = (w / 8) * perRack + w % 8;
                int rack = w / 8;
                long bytes = Math.min(blockBytes, left[w]);
                left[w] -= bytes;
                int segments = (int) ((bytes + payload - 1) / payload);
                int replicaRack = ring ? placement.replicaRack(rack, 0) : (rack + 1 + random.nextInt(racks - 1)) % racks;
                int first = replicaRack * perRack + random.nextInt(perRack);
                int second = replicaRack * perRack + (first % perRack + 1 + random.nextInt(perRack - 1)) % perRack;
                int toFirst = sim.addFlow(host, first, segments, at);
                int toSecond = sim.addFlow(first, second, segments, at);
                sim.tcp.pipe(toFirst, toSecond);
                if (toSecond >= writerOf[0].length) {
                    writerOf[0] = Arrays.copyOf(writerOf[0], writerOf[0].length * 2);
                }
                writerOf[0][toFirst] = w;
                writerOf[0][toSecond] = w;
                pending[w] = 2;
            }
        }
        Blocks blocks = new Blocks();
        sim.listener = f -> {
            int w = writerOf[0][f];
            if (--pending[w] > 0) {
                return;
            }
            if (left[w] > 0) {
                blocks.next(w, sim.now);
            } else {
                done[w] = sim.now;
                if (--remaining[0] == 0) {
                    sim.stop();
                }
            }
        };
        for (int w = 0; w < WRITERS; w++) {
            blocks.next(w, random.nextLong(100_000));
        }
        sim.run(0, DFSIO_CAP_NS);
        double wall = (System.nanoTime() - started) / 1e9;
        double[] times = new double[WRITERS];
        int unfinished = 0;
        for (int w = 0; w < WRITERS; w++) {
            times[w] = (done[w] >= 0 ? done[w] : sim.now) / 1e9;
            unfinished += done[w] < 0 ? 1 : 0;
        }
        Arrays.sort(times);
        return new DfsioResult(label, quantile(times, 0.5), quantile(times, 0.99), times[WRITERS - 1], unfinished, fileBytes,
                sim.circuitUtilisation(), sim.circuitShare(), sim.eventCount, wall, sim.now);
    }

    /**
     * HDFS (random replica racks) against reHDFS (ring), each alone and with resize(16, 128, 1000), under
     * Solstice on VOQ occupancy (the thesis leaves ADUs out of DFSIO: few small flows). The file and block
     * sizes are scaled with the run length ({@code --short}: 100 MB files of 32 MB blocks).
     */
    List<DfsioResult> dfsio() {
        double scale = (double) durationNs / FULL_NS;
        long file = Math.max(1L << 20, Math.round(FILE_BYTES * scale));
        long block = Math.max(1L << 20, Math.round(BLOCK_BYTES * scale));
        Config hdfs = solsticeBase();
        Config resized = hdfs.withResize(SMALL, BIG, 1_000);
        List<Callable<DfsioResult>> tasks = List.of(
                () -> dfsio("HDFS", hdfs, false, file, block),
                () -> dfsio("reHDFS", hdfs, true, file, block),
                () -> dfsio("HDFS+Resize", resized, false, file, block),
                () -> dfsio("reHDFS+Resize", resized, true, file, block));
        return all(tasks);
    }

    private <T> List<T> all(List<Callable<T>> tasks) {
        List<Future<T>> futures = new ArrayList<>();
        for (Callable<T> task : tasks) {
            futures.add(pool.submit(task));
        }
        List<T> results = new ArrayList<>();
        for (Future<T> future : futures) {
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

    static FctResult findFct(List<FctResult> results, String label) {
        return results.stream().filter(r -> r.label().equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no run " + label));
    }

    static DfsioResult findDfsio(List<DfsioResult> results, String label) {
        return results.stream().filter(r -> r.label().equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no run " + label));
    }

    static Result find(List<Result> results, String label) {
        return results.stream().filter(r -> r.label().equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no run " + label));
    }
}
