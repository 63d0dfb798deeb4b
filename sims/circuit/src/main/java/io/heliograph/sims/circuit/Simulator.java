package io.heliograph.sims.circuit;

import io.heliograph.circuit.engine.AduEstimator;
import io.heliograph.circuit.engine.AduReport;
import io.heliograph.circuit.engine.CircuitGroups;
import io.heliograph.circuit.engine.CircuitParameters;
import io.heliograph.circuit.engine.Day;
import io.heliograph.circuit.engine.FiveTuple;
import io.heliograph.circuit.engine.FixedScheduler;
import io.heliograph.circuit.engine.RoundRobin;
import io.heliograph.circuit.engine.Schedule;
import io.heliograph.circuit.engine.Scheduler;
import io.heliograph.circuit.engine.Solstice;
import io.heliograph.circuit.engine.WeekPlan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The packet-level hybrid network of spec §2.10, one run. Hosts send over their 10 Gb/s links to their
 * ToR; a ToR puts every packet for another rack in the VOQ of (its rack, the destination rack), tail
 * dropping beyond the VOQ's capacity. Two things drain the VOQs:
 * <ul>
 * <li>the ToR's packet up-link (10 Gb/s, 5 us), round-robin over its VOQs, into the packet switch's
 * output for the destination rack (10 Gb/s, 5 us down); where that output is full the ToR holds the
 * packet in its VOQ rather than send it to be dropped (hold-not-drop); a pair's VOQ is skipped while
 * the pair has a circuit, so a flow is never reordered across the two paths;</li>
 * <li>the circuit switch: while a day is up, output j pulls from VOQ(source(j), j) at the schedule's rate
 * for the pair (80 Gb/s, or Solstice's throttle), 30 us of delay; nothing during a night.</li>
 * </ul>
 * The destination ToR sends each packet down its host's 10 Gb/s link. Hosts run TCP Reno ({@link Tcp}).
 * Schedules come from the engine: the strobe is its {@link RoundRobin}, fixed; Solstice is recomputed
 * each week from the VOQ occupancy seen at the start of the week before (computed during one week, run in
 * the next). With resize(s, b, tau) a pair's VOQ is b from tau before each of its circuit days to the
 * day's end, otherwise s; a VOQ shrunk below its occupancy keeps its packets and drops arrivals.
 * <p>
 * Solstice's demand is the VOQ occupancy, or with ADU estimation the engine's {@link AduEstimator}: each
 * flow's size is reported when it starts, the application bytes that left its VOQ (each segment once,
 * retransmissions not counted again) are reported as served at the start of each week, and the flow's
 * close when its last segment is acknowledged. The "fixed" scheduler runs the same ring days every week.
 * With reTCP the ToR of D marks the ACKs it takes from D to S (ECE) while circuit S -> D is up. With
 * {@link Config#directAcks()} ACKs between racks skip the VOQs and the packet switch (a sensitivity run).
 * <p>
 * Packets are indices into primitive arrays (a free list, no allocation per packet); queues are linked
 * lists through those arrays; events are primitive heap entries ({@link EventQueue}).
 */
final class Simulator {

    // event kinds
    static final int HOST_TX = 0;       // arg host: its NIC finished a packet
    static final int UPLINK_TX = 1;     // arg rack: its packet up-link finished a packet
    static final int SWITCH_ARRIVE = 2; // arg packet: reaches the packet switch's output
    static final int SWITCH_TX = 3;     // arg rack: the packet switch's output to it finished a packet
    static final int CIRCUIT_TX = 4;    // arg rack: circuit output to it finished a packet
    static final int TOR_ARRIVE = 5;    // arg packet: reaches its destination ToR
    static final int DOWN_TX = 6;       // arg host: its ToR's down-link to it finished a packet
    static final int DAY_START = 7;     // arg slot * 256 + day
    static final int DAY_END = 8;       // arg slot * 256 + day
    static final int GROW = 9;          // arg src * racks + dst
    static final int SHRINK = 10;       // arg src * racks + dst
    static final int WEEK = 11;         // arg week index: schedule the week after it
    static final int RTO = 12;          // arg flow
    static final int FLOW_START = 13;   // arg flow
    static final int MEASURE = 14;      // start counting

    final Config config;
    final int racks;
    final int hosts;
    final EventQueue events = new EventQueue(1 << 12);
    long now;
    long eventCount;

    // packets: a pool of indices
    int[] pNext;
    int[] pFlow;
    int[] pSeq;     // data: segment number; ACK: the cumulative ACK
    int[] pBytes;
    boolean[] pAck;
    boolean[] pCircuit;
    boolean[] pEce;  // an ACK marked by its ToR: the circuit from its destination's rack to its source's is up
    long[] pStamp;  // when it entered its VOQ
    int[] pSrc;     // source host
    int[] pDst;     // destination host
    int free = -1;
    int allocated;

    // queues: linked lists of packets; ids: host NICs, VOQs, switch outputs, ToR down-links
    final int[] qHead;
    final int[] qTail;
    final int[] qLen;
    final int nicBase;
    final int voqBase;
    final int switchBase;
    final int downBase;

    // links' state: the packet being sent, or -1
    final int[] nicBusy;
    final int[] downBusy;
    final int[] uplinkBusy;
    final int[] switchBusy;
    final int[] switchReserved; // packets on their way to, or queued in, each switch output
    final int[] roundRobin;
    final int[] circuitBusy;
    final int[] circuitSource;  // per circuit output: the source rack while up, or -1
    final long[] circuitUpStart;
    final long[] circuitUpEnd;
    final double[] circuitNsPerByte;
    final int[] pathOff;        // per pair: > 0 while its packet path is off (its circuit is up)
    final int[] bigRefs;        // per pair: resize grow events not yet matched by a shrink
    final int[] voqCapacity;
    final double hostNsPerByte;
    final double packetNsPerByte;
    final double circuitFullNsPerByte;

    // the schedule: per slot (week mod 3), its days' matchings and rates
    final int[][][] slotSource = new int[3][][];
    final long[][] slotDayStart = new long[3][];
    final long[][] slotDayMicros = new long[3][];
    final double[][][] slotRate = new double[3][][];
    final Scheduler scheduler;
    final CircuitParameters parameters;
    Schedule fixed;
    final double[][] demandSnapshot;
    final SplittableRandom random;

    final Tcp tcp;

    // measurement, from measureFrom on
    long measureFrom;
    boolean measuring;
    final long[] circuitBytes;   // per pair
    final long[] circuitUpNs;    // per pair
    final long[] packetBytes;    // per pair, over the packet switch
    long drops;
    long dataDrops;
    final LatencyHistogram latencyAll = new LatencyHistogram();
    final LatencyHistogram latencyPacket = new LatencyHistogram();
    final LatencyHistogram latencyCircuit = new LatencyHistogram();
    long solsticeNanos;
    int weeksScheduled;
    boolean stopped;

    // ADU estimation: the engine's estimator, each flow's libADU name, its application bytes that left
    // its VOQ (its highest segment + 1 that left it) and those already reported as served
    final AduEstimator adu;
    FiveTuple[] aduFlow = new FiveTuple[16];
    int[] voqSentSegments = new int[16];
    int[] servedReported = new int[16];
    /** Told when a flow's last segment is acknowledged (workloads that chain flows), or null. */
    FlowListener listener;

    /** A flow's last segment is acknowledged. */
    interface FlowListener {
        void finished(int flow);
    }

    Simulator(Config config) {
        this.config = config;
        this.racks = config.racks();
        this.hosts = config.hosts();
        this.parameters = config.network();
        int pool = 1 << 14;
        pNext = new int[pool];
        pFlow = new int[pool];
        pSeq = new int[pool];
        pBytes = new int[pool];
        pAck = new boolean[pool];
        pCircuit = new boolean[pool];
        pEce = new boolean[pool];
        pStamp = new long[pool];
        pSrc = new int[pool];
        pDst = new int[pool];
        nicBase = 0;
        voqBase = hosts;
        switchBase = voqBase + racks * racks;
        downBase = switchBase + racks;
        int queues = downBase + hosts;
        qHead = new int[queues];
        qTail = new int[queues];
        qLen = new int[queues];
        Arrays.fill(qHead, -1);
        Arrays.fill(qTail, -1);
        nicBusy = filled(hosts);
        downBusy = filled(hosts);
        uplinkBusy = filled(racks);
        switchBusy = filled(racks);
        switchReserved = new int[racks];
        roundRobin = new int[racks];
        circuitBusy = filled(racks);
        circuitSource = filled(racks);
        circuitUpStart = new long[racks];
        circuitUpEnd = new long[racks];
        circuitNsPerByte = new double[racks];
        pathOff = new int[racks * racks];
        bigRefs = new int[racks * racks];
        voqCapacity = new int[racks * racks];
        Arrays.fill(voqCapacity, config.voqSmall());
        hostNsPerByte = Config.nsPerByte(config.hostGbps());
        packetNsPerByte = 1_000.0 / parameters.packetBytesPerMicro();
        circuitFullNsPerByte = 1_000.0 / parameters.circuitBytesPerMicro();
        circuitBytes = new long[racks * racks];
        circuitUpNs = new long[racks * racks];
        packetBytes = new long[racks * racks];
        demandSnapshot = new double[racks][racks];
        random = new SplittableRandom(config.seed());
        scheduler = switch (config.scheduler()) {
            // Etalon's optional half-week scaling is the engine's own option: the live app's code
            case "solstice" -> new Solstice(true, config.scaleDemand());
            case "strobe" -> new RoundRobin();
            case "fixed" -> rings(config);
            default -> null;
        };
        adu = config.estimator().equals("adu") ? new AduEstimator(CircuitGroups.uniform(racks, config.hostsPerRack()))
                : null;
        tcp = new Tcp(this);
    }

    /** The fixed schedule of {@code config.rings()} rings: equal days, day k rack i -> i + RING_OFFSETS[k]. */
    static FixedScheduler rings(Config config) {
        int n = config.racks();
        int count = config.rings();
        long weekMicros = config.network().weekMicros();
        List<Day> days = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            int[] sourceOf = new int[n];
            for (int i = 0; i < n; i++) {
                sourceOf[(i + Config.RING_OFFSETS[k]) % n] = i;
            }
            days.add(new Day(weekMicros / count, sourceOf, new boolean[n]));
        }
        return new FixedScheduler(new WeekPlan(config.network().nightMicros(), days));
    }

    private static int[] filled(int n) {
        int[] a = new int[n];
        Arrays.fill(a, -1);
        return a;
    }

    // ---- running

    /** Adds a flow of {@code segments} (-1: endless) from host {@code src} to {@code dst}, starting at {@code startNs}. */
    int addFlow(int src, int dst, int segments, long startNs) {
        int flow = tcp.add(src, dst, segments);
        if (adu != null) {
            if (flow == aduFlow.length) {
                aduFlow = Arrays.copyOf(aduFlow, flow * 2);
                voqSentSegments = Arrays.copyOf(voqSentSegments, flow * 2);
                servedReported = Arrays.copyOf(servedReported, flow * 2);
            }
            // host names as the engine's uniform circuit groups write them; the ports make the flow unique
            aduFlow[flow] = new FiveTuple(hostName(src), flow & 0xffff, hostName(dst), flow >>> 16, 6);
        }
        events.add(startNs, FLOW_START, flow);
        return flow;
    }

    private String hostName(int host) {
        return "10.0." + rackOf(host) + "." + (host % config.hostsPerRack() + 1);
    }

    /** libADU's report of a flow's start: one ADU of its whole size (the application writes it at once). */
    void flowStarted(int flow) {
        if (adu != null && tcp.size[flow] > 0) {
            adu.report(List.of(AduReport.written(aduFlow[flow], (long) tcp.size[flow] * tcp.payload)));
        }
    }

    /** libADU's report of a flow's close, and the workload's listener. */
    void flowFinished(int flow) {
        if (adu != null) {
            adu.report(List.of(AduReport.closed(aduFlow[flow])));
        }
        if (listener != null) {
            listener.finished(flow);
        }
    }

    /** A data packet leaves its VOQ: the ToR's per-flow application byte count, each segment once. */
    private void leftVoq(int p) {
        if (adu != null && !pAck[p]) {
            int f = pFlow[p];
            if (pSeq[p] >= voqSentSegments[f]) {
                voqSentSegments[f] = pSeq[p] + 1;
            }
        }
    }

    /** Runs until {@code endNs}, or until {@link #stop} is called, counting from {@code measureFromNs}. */
    void run(long measureFromNs, long endNs) {
        measureFrom = measureFromNs;
        events.add(measureFromNs, MEASURE, 0);
        if (scheduler != null) {
            installWeek(0, 0, scheduleFor(0));
            events.add(0, WEEK, 0);
        }
        while (!stopped && !events.isEmpty() && events.peekTime() <= endNs) {
            events.poll();
            now = events.time();
            eventCount++;
            dispatch(events.kind(), events.arg());
        }
        if (!stopped) {
            now = endNs;
        }
        // circuits up at the end count their uptime so far
        for (int j = 0; j < racks; j++) {
            if (circuitSource[j] >= 0 && measuring) {
                circuitUpNs[circuitSource[j] * racks + j] += Math.min(now, circuitUpEnd[j])
                        - Math.max(circuitUpStart[j], measureFrom);
            }
        }
    }

    private void dispatch(int kind, int arg) {
        switch (kind) {
            case HOST_TX -> hostSent(arg);
            case UPLINK_TX -> uplinkSent(arg);
            case SWITCH_ARRIVE -> switchArrive(arg);
            case SWITCH_TX -> switchSent(arg);
            case CIRCUIT_TX -> circuitSent(arg);
            case TOR_ARRIVE -> torArrive(arg);
            case DOWN_TX -> downSent(arg);
            case DAY_START -> dayStart(arg >>> 8, arg & 0xff);
            case DAY_END -> dayEnd(arg >>> 8, arg & 0xff);
            case GROW -> resize(arg, +1);
            case SHRINK -> resize(arg, -1);
            case WEEK -> week(arg);
            case RTO -> tcp.timer(arg);
            case FLOW_START -> tcp.start(arg);
            case MEASURE -> startMeasuring();
            default -> throw new IllegalStateException("event kind " + kind);
        }
    }

    private void startMeasuring() {
        measuring = true;
        for (int j = 0; j < racks; j++) {
            if (circuitSource[j] >= 0) {
                circuitUpStart[j] = Math.max(circuitUpStart[j], now);
            }
        }
        tcp.startMeasuring();
    }

    // ---- packets and queues

    int allocate() {
        if (free < 0) {
            if (allocated == pNext.length) {
                growPool();
            }
            return allocated++;
        }
        int p = free;
        free = pNext[p];
        return p;
    }

    void release(int p) {
        pNext[p] = free;
        free = p;
    }

    private void growPool() {
        int n = pNext.length * 2;
        pNext = Arrays.copyOf(pNext, n);
        pFlow = Arrays.copyOf(pFlow, n);
        pSeq = Arrays.copyOf(pSeq, n);
        pBytes = Arrays.copyOf(pBytes, n);
        pAck = Arrays.copyOf(pAck, n);
        pCircuit = Arrays.copyOf(pCircuit, n);
        pEce = Arrays.copyOf(pEce, n);
        pStamp = Arrays.copyOf(pStamp, n);
        pSrc = Arrays.copyOf(pSrc, n);
        pDst = Arrays.copyOf(pDst, n);
    }

    private void push(int q, int p) {
        pNext[p] = -1;
        if (qTail[q] < 0) {
            qHead[q] = p;
        } else {
            pNext[qTail[q]] = p;
        }
        qTail[q] = p;
        qLen[q]++;
    }

    private int pop(int q) {
        int p = qHead[q];
        qHead[q] = pNext[p];
        if (qHead[q] < 0) {
            qTail[q] = -1;
        }
        qLen[q]--;
        return p;
    }

    int rackOf(int host) {
        return host / config.hostsPerRack();
    }

    /** A host hands a packet to its NIC. */
    void send(int host, int p) {
        push(nicBase + host, p);
        if (nicBusy[host] < 0) {
            nicNext(host);
        }
    }

    private void nicNext(int host) {
        int q = nicBase + host;
        if (qLen[q] == 0) {
            nicBusy[host] = -1;
            return;
        }
        int p = pop(q);
        nicBusy[host] = p;
        events.add(now + (long) Math.ceil(pBytes[p] * hostNsPerByte), HOST_TX, host);
    }

    private void hostSent(int host) {
        int p = nicBusy[host];
        nicNext(host);
        int src = rackOf(host);
        int dst = rackOf(pDst[p]);
        if (src == dst) {
            deliverDown(p);
            return;
        }
        // reTCP: D's ToR marks D's ACKs to S while circuit S -> D is up (to rack src from rack dst)
        pEce[p] = config.retcp() && pAck[p] && circuitSource[src] == dst;
        if (config.directAcks() && pAck[p]) {
            // a path of its own: the up-link's and the down-link's delay and serialisation, no queue
            events.add(now + 2 * (config.packetDelayNs() + (long) Math.ceil(pBytes[p] * packetNsPerByte)), TOR_ARRIVE, p);
            return;
        }
        int pair = src * racks + dst;
        int q = voqBase + pair;
        if (qLen[q] >= voqCapacity[pair]) {
            if (measuring) {
                drops++;
                if (!pAck[p]) {
                    dataDrops++;
                }
            }
            release(p);
            return;
        }
        pStamp[p] = now;
        push(q, p);
        if (uplinkBusy[src] < 0) {
            uplinkNext(src);
        }
        if (circuitSource[dst] == src && circuitBusy[dst] < 0) {
            circuitNext(dst);
        }
    }

    /** The up-link of {@code rack} takes the next VOQ in round-robin whose packet path is on and not held. */
    private void uplinkNext(int rack) {
        int base = rack * racks;
        for (int k = 1; k <= racks; k++) {
            int d = (roundRobin[rack] + k) % racks;
            int pair = base + d;
            if (d == rack || qLen[voqBase + pair] == 0 || pathOff[pair] > 0
                    || switchReserved[d] >= config.packetSwitchQueue()) {
                continue;
            }
            roundRobin[rack] = d;
            int p = pop(voqBase + pair);
            leftVoq(p);
            switchReserved[d]++;
            uplinkBusy[rack] = p;
            events.add(now + (long) Math.ceil(pBytes[p] * packetNsPerByte), UPLINK_TX, rack);
            return;
        }
        uplinkBusy[rack] = -1;
    }

    private void uplinkSent(int rack) {
        int p = uplinkBusy[rack];
        events.add(now + config.packetDelayNs(), SWITCH_ARRIVE, p);
        uplinkNext(rack);
    }

    private void switchArrive(int p) {
        int d = rackOf(pDst[p]);
        push(switchBase + d, p);
        if (switchBusy[d] < 0) {
            switchNext(d);
        }
    }

    private void switchNext(int d) {
        int q = switchBase + d;
        if (qLen[q] == 0) {
            switchBusy[d] = -1;
            return;
        }
        int p = pop(q);
        switchBusy[d] = p;
        events.add(now + (long) Math.ceil(pBytes[p] * packetNsPerByte), SWITCH_TX, d);
    }

    private void switchSent(int d) {
        int p = switchBusy[d];
        pCircuit[p] = false;
        if (measuring) {
            packetBytes[rackOf(pSrc[p]) * racks + d] += pBytes[p];
        }
        events.add(now + config.packetDelayNs(), TOR_ARRIVE, p);
        switchReserved[d]--;
        switchNext(d);
        // an output has room again: up-links holding packets for it may go on
        for (int r = 0; r < racks; r++) {
            if (uplinkBusy[r] < 0 && r != d) {
                uplinkNext(r);
            }
        }
    }

    private void circuitNext(int j) {
        int src = circuitSource[j];
        if (src < 0) {
            circuitBusy[j] = -1;
            return;
        }
        int q = voqBase + src * racks + j;
        if (qLen[q] == 0) {
            circuitBusy[j] = -1;
            return;
        }
        long done = now + (long) Math.ceil(pBytes[qHead[q]] * circuitNsPerByte[j]);
        if (done > circuitUpEnd[j]) {
            circuitBusy[j] = -1;
            return;
        }
        int p = pop(q);
        leftVoq(p);
        circuitBusy[j] = p;
        events.add(done, CIRCUIT_TX, j);
    }

    private void circuitSent(int j) {
        int p = circuitBusy[j];
        pCircuit[p] = true;
        if (measuring) {
            circuitBytes[rackOf(pSrc[p]) * racks + j] += pBytes[p];
        }
        events.add(now + config.circuitDelayNs(), TOR_ARRIVE, p);
        circuitNext(j);
    }

    private void torArrive(int p) {
        if (measuring && !pAck[p]) {
            long latency = now - pStamp[p];
            latencyAll.add(latency);
            (pCircuit[p] ? latencyCircuit : latencyPacket).add(latency);
        }
        deliverDown(p);
    }

    private void deliverDown(int p) {
        int host = pDst[p];
        push(downBase + host, p);
        if (downBusy[host] < 0) {
            downNext(host);
        }
    }

    private void downNext(int host) {
        int q = downBase + host;
        if (qLen[q] == 0) {
            downBusy[host] = -1;
            return;
        }
        int p = pop(q);
        downBusy[host] = p;
        events.add(now + (long) Math.ceil(pBytes[p] * hostNsPerByte), DOWN_TX, host);
    }

    private void downSent(int host) {
        int p = downBusy[host];
        downNext(host);
        tcp.receive(p);
    }

    // ---- schedule

    private Schedule scheduleFor(int week) {
        if (scheduler instanceof RoundRobin || scheduler instanceof FixedScheduler) {
            if (fixed == null) {
                fixed = scheduler.schedule(new double[racks][racks], parameters, config.seed());
            }
            return fixed;
        }
        long started = System.nanoTime();
        Schedule schedule = scheduler.schedule(demandSnapshot, parameters, config.seed() * 1_000_003L + week);
        solsticeNanos += System.nanoTime() - started;
        weeksScheduled++;
        return schedule;
    }

    /** At the start of week {@code w}: take the demand snapshot, schedule week w + 1 and install it. */
    private void week(int w) {
        long weekNs = parameters.weekMicros() * 1_000;
        if (scheduler instanceof Solstice && adu != null) {
            // the ToRs' dequeue counters reach the estimator; its outstanding bytes are the demand
            for (int f = 0; f < tcp.count; f++) {
                if (voqSentSegments[f] > servedReported[f]) {
                    adu.served(aduFlow[f], (long) (voqSentSegments[f] - servedReported[f]) * tcp.payload);
                    servedReported[f] = voqSentSegments[f];
                }
            }
            double[][] estimate = adu.estimate();
            for (int i = 0; i < racks; i++) {
                System.arraycopy(estimate[i], 0, demandSnapshot[i], 0, racks);
            }
        } else if (scheduler instanceof Solstice) {
            // the VOQ occupancy now; the next week runs on it (computed during this one)
            for (int i = 0; i < racks; i++) {
                for (int j = 0; j < racks; j++) {
                    demandSnapshot[i][j] = i == j ? 0 : bytesQueued(voqBase + i * racks + j);
                }
            }
        }
        installWeek(w + 1, now + weekNs, scheduleFor(w + 1));
        events.add(now + weekNs, WEEK, w + 1);
    }

    private long bytesQueued(int q) {
        long bytes = 0;
        for (int p = qHead[q]; p >= 0; p = pNext[p]) {
            bytes += pBytes[p];
        }
        return bytes;
    }

    private void installWeek(int w, long start, Schedule schedule) {
        int slot = w % 3;
        List<Day> days = schedule.days();
        int[][] source = new int[days.size()][];
        long[] dayStart = new long[days.size()];
        long[] micros = new long[days.size()];
        double[][] rate = schedule.circuitRate();
        long nightNs = schedule.nightMicros() * 1_000;
        long t = start;
        for (int k = 0; k < days.size(); k++) {
            Day day = days.get(k);
            source[k] = day.sourceOf();
            dayStart[k] = t;
            micros[k] = day.micros();
            long upEnd = t + day.micros() * 1_000 - nightNs;
            events.add(t, DAY_START, slot << 8 | k);
            events.add(upEnd, DAY_END, slot << 8 | k);
            if (config.resizing()) {
                for (int j = 0; j < racks; j++) {
                    if (!day.dummy(j) && source[k][j] != j) {
                        int pair = source[k][j] * racks + j;
                        events.add(Math.max(now, t - config.tauNs()), GROW, pair);
                        events.add(upEnd, SHRINK, pair);
                    }
                }
            }
            t += day.micros() * 1_000;
        }
        slotSource[slot] = source;
        slotDayStart[slot] = dayStart;
        slotDayMicros[slot] = micros;
        slotRate[slot] = rate;
    }

    private void dayStart(int slot, int k) {
        int[] source = slotSource[slot][k];
        long upEnd = now + slotDayMicros[slot][k] * 1_000 - parameters.nightMicros() * 1_000;
        for (int j = 0; j < racks; j++) {
            int src = source[j];
            if (src == j) {
                continue;
            }
            int pair = src * racks + j;
            circuitSource[j] = src;
            circuitUpStart[j] = now;
            circuitUpEnd[j] = upEnd;
            double rate = slotRate[slot][src][j];
            circuitNsPerByte[j] = rate > 0 ? 1_000.0 / rate : circuitFullNsPerByte;
            pathOff[pair]++;
            if (circuitBusy[j] < 0) {
                circuitNext(j);
            }
        }
    }

    private void dayEnd(int slot, int k) {
        int[] source = slotSource[slot][k];
        for (int j = 0; j < racks; j++) {
            int src = source[j];
            if (src == j) {
                continue;
            }
            int pair = src * racks + j;
            if (measuring) {
                circuitUpNs[pair] += now - Math.max(circuitUpStart[j], measureFrom);
            }
            circuitSource[j] = -1;
            pathOff[pair]--;
            if (uplinkBusy[src] < 0) {
                uplinkNext(src);
            }
        }
    }

    private void resize(int pair, int step) {
        bigRefs[pair] += step;
        voqCapacity[pair] = bigRefs[pair] > 0 ? config.voqBig() : config.voqSmall();
    }

    /** Ends the run after the current event (a workload that is done). */
    void stop() {
        stopped = true;
    }

    // ---- results

    /** Circuit utilisation over all pairs: bytes carried over (uptime x circuit rate); 0 without circuits. */
    double circuitUtilisation() {
        long bytes = 0;
        long up = 0;
        for (int pair = 0; pair < racks * racks; pair++) {
            bytes += circuitBytes[pair];
            up += circuitUpNs[pair];
        }
        return up == 0 ? 0 : bytes * circuitFullNsPerByte / up;
    }

    /** The share of inter-rack bytes that crossed a circuit, from the measurement on. */
    double circuitShare() {
        long circuit = 0;
        long packet = 0;
        for (int pair = 0; pair < racks * racks; pair++) {
            circuit += circuitBytes[pair];
            packet += packetBytes[pair];
        }
        return circuit + packet == 0 ? 0 : (double) circuit / (circuit + packet);
    }

    /** Circuit utilisation of a pair: bytes it carried over (uptime x circuit rate), from the measurement on. */
    double circuitUtilisation(int src, int dst) {
        long up = circuitUpNs[src * racks + dst];
        return up == 0 ? 0 : circuitBytes[src * racks + dst] * circuitFullNsPerByte / up;
    }
}
