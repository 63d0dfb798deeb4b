package io.heliograph.sims.circuit;

import io.heliograph.circuit.engine.CircuitParameters;
import io.heliograph.circuit.engine.Day;
import io.heliograph.circuit.engine.RoundRobin;
import io.heliograph.circuit.engine.Schedule;
import io.heliograph.circuit.engine.Scheduler;
import io.heliograph.circuit.engine.Solstice;
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
            default -> null;
        };
        tcp = new Tcp(this);
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
        events.add(startNs, FLOW_START, flow);
        return flow;
    }

    /** Runs until {@code endNs}, counting from {@code measureFromNs}. */
    void run(long measureFromNs, long endNs) {
        measureFrom = measureFromNs;
        events.add(measureFromNs, MEASURE, 0);
        if (scheduler != null) {
            installWeek(0, 0, scheduleFor(0));
            events.add(0, WEEK, 0);
        }
        while (!events.isEmpty() && events.peekTime() <= endNs) {
            events.poll();
            now = events.time();
            eventCount++;
            dispatch(events.kind(), events.arg());
        }
        now = endNs;
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
        if (scheduler instanceof RoundRobin) {
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
        if (scheduler instanceof Solstice) {
            // the VOQ occupancy now; the week after next runs on it (computed during the next week)
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

    // ---- results

    /** Circuit utilisation of a pair: bytes it carried over (uptime x circuit rate), from the measurement on. */
    double circuitUtilisation(int src, int dst) {
        long up = circuitUpNs[src * racks + dst];
        return up == 0 ? 0 : circuitBytes[src * racks + dst] * circuitFullNsPerByte / up;
    }
}
