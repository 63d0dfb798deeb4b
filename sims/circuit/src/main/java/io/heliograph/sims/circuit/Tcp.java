package io.heliograph.sims.circuit;

import java.util.Arrays;

/**
 * TCP Reno in every host, flows in primitive arrays: slow start, congestion avoidance (one segment per
 * window per RTT), fast retransmit on the third duplicate ACK with fast recovery (NewReno's partial ACKs:
 * the next hole is resent and recovery goes on, as Linux does without SACK), and a retransmission timeout
 * from the smoothed RTT (RFC 6298: srtt + 4 rttvar, at least the minimum RTO, doubled on each expiry, go-back-N
 * after it). Simplified: windows count segments, not bytes; every segment is full (MTU - 40 bytes of
 * payload); the receiver ACKs every segment at once (no delayed ACK) and buffers out-of-order segments;
 * no SACK, no ECN, no Nagle, no pacing; the receive window is fixed.
 * <p>
 * reTCP (spec §2.6, Etalon's {@code retcp.c}), when the config asks for it: each ACK's ECE mark says
 * whether the flow's circuit is up; after Reno's own growth on an ACK outside recovery, a flow whose
 * circuit is up and that has not jumped multiplies its cwnd by alpha (2), and one whose circuit is down
 * and that has jumped multiplies it by beta (0.5). ssthresh and loss recovery are Reno's.
 * <p>
 * A flow may be fed by another ({@link #pipe}): it sends only what its upstream flow has delivered in
 * order to its own source host, as an HDFS DataNode forwards a block down the write pipeline.
 */
final class Tcp {

    private final Simulator sim;
    final int payload;
    private final int window;   // receive window, segments
    private final int ring;     // receiver's out-of-order ring, a power of two above the window

    int count;
    int[] src = new int[16];
    int[] dst = new int[16];
    int[] size = new int[16];        // segments, -1 endless
    int[] sndUna = new int[16];
    int[] sndNxt = new int[16];
    double[] cwnd = new double[16];
    double[] ssthresh = new double[16];
    int[] dupAcks = new int[16];
    boolean[] recovering = new boolean[16];
    int[] recover = new int[16];
    long[] srtt = new long[16];
    long[] rttvar = new long[16];
    long[] rto = new long[16];
    long[] deadline = new long[16];  // 0: no timer
    boolean[] timerQueued = new boolean[16];
    int[] timedSeq = new int[16];    // -1: nothing timed (Karn: only segments sent once)
    long[] timedAt = new long[16];
    int[] rcvNxt = new int[16];
    boolean[][] outOfOrder = new boolean[16][];
    long[] started = new long[16];
    long[] finished = new long[16];  // -1 until the last segment is acknowledged
    long[] delivered = new long[16]; // payload bytes delivered in order, from the measurement on
    int[] fastRetransmits = new int[16];
    int[] timeouts = new int[16];
    int[] dropOnce = new int[16];    // a segment the network loses on its first sending (tests); -1 none
    boolean[] jumped = new boolean[16]; // reTCP: cwnd multiplied by alpha and not yet by beta
    int[] jumps = new int[16];       // reTCP: how many times cwnd was multiplied by alpha
    int[] upstream = new int[16];    // the flow that feeds this one, or -1
    int[] downstream = new int[16];  // the flow this one feeds, or -1
    boolean[] running = new boolean[16];
    private final boolean retcp;

    Tcp(Simulator sim) {
        this.sim = sim;
        this.payload = sim.config.mtu() - 40;
        this.window = sim.config.receiveWindow();
        this.ring = Integer.highestOneBit(window) * 4;
        this.retcp = sim.config.retcp();
    }

    int add(int from, int to, int segments) {
        if (count == src.length) {
            grow();
        }
        int f = count++;
        src[f] = from;
        dst[f] = to;
        size[f] = segments;
        cwnd[f] = sim.config.initialWindow();
        ssthresh[f] = Double.MAX_VALUE;
        rto[f] = Math.max(sim.config.minRtoNs(), 1_000_000);
        timedSeq[f] = -1;
        finished[f] = -1;
        dropOnce[f] = -1;
        upstream[f] = -1;
        downstream[f] = -1;
        return f;
    }

    private void grow() {
        int n = src.length * 2;
        src = Arrays.copyOf(src, n);
        dst = Arrays.copyOf(dst, n);
        size = Arrays.copyOf(size, n);
        sndUna = Arrays.copyOf(sndUna, n);
        sndNxt = Arrays.copyOf(sndNxt, n);
        cwnd = Arrays.copyOf(cwnd, n);
        ssthresh = Arrays.copyOf(ssthresh, n);
        dupAcks = Arrays.copyOf(dupAcks, n);
        recovering = Arrays.copyOf(recovering, n);
        recover = Arrays.copyOf(recover, n);
        srtt = Arrays.copyOf(srtt, n);
        rttvar = Arrays.copyOf(rttvar, n);
        rto = Arrays.copyOf(rto, n);
        deadline = Arrays.copyOf(deadline, n);
        timerQueued = Arrays.copyOf(timerQueued, n);
        timedSeq = Arrays.copyOf(timedSeq, n);
        timedAt = Arrays.copyOf(timedAt, n);
        rcvNxt = Arrays.copyOf(rcvNxt, n);
        outOfOrder = Arrays.copyOf(outOfOrder, n);
        started = Arrays.copyOf(started, n);
        finished = Arrays.copyOf(finished, n);
        delivered = Arrays.copyOf(delivered, n);
        fastRetransmits = Arrays.copyOf(fastRetransmits, n);
        timeouts = Arrays.copyOf(timeouts, n);
        dropOnce = Arrays.copyOf(dropOnce, n);
        jumped = Arrays.copyOf(jumped, n);
        jumps = Arrays.copyOf(jumps, n);
        upstream = Arrays.copyOf(upstream, n);
        downstream = Arrays.copyOf(downstream, n);
        running = Arrays.copyOf(running, n);
    }

    /** {@code to} sends only the segments {@code from} has delivered (from's destination is to's source). */
    void pipe(int from, int to) {
        if (dst[from] != src[to]) {
            throw new IllegalArgumentException("a pipeline forwards from the host that receives: flow " + from + " ends at "
                    + dst[from] + ", flow " + to + " starts at " + src[to]);
        }
        downstream[from] = to;
        upstream[to] = from;
    }

    void start(int f) {
        started[f] = sim.now;
        running[f] = true;
        sim.flowStarted(f);
        pump(f);
    }

    void startMeasuring() {
        Arrays.fill(delivered, 0);
    }

    /** Sends new segments while the window allows. */
    private void pump(int f) {
        int limit = sndUna[f] + Math.min((int) cwnd[f], window);
        if (upstream[f] >= 0) {
            limit = Math.min(limit, rcvNxt[upstream[f]]);
        }
        while (sndNxt[f] < limit && (size[f] < 0 || sndNxt[f] < size[f])) {
            int seq = sndNxt[f]++;
            if (timedSeq[f] < 0) {
                timedSeq[f] = seq;
                timedAt[f] = sim.now;
            }
            transmit(f, seq);
        }
        if (sndUna[f] < sndNxt[f] && deadline[f] == 0) {
            arm(f);
        }
    }

    private void transmit(int f, int seq) {
        if (seq == dropOnce[f]) {
            dropOnce[f] = -1;
            return;
        }
        int p = sim.allocate();
        sim.pFlow[p] = f;
        sim.pSeq[p] = seq;
        sim.pBytes[p] = sim.config.mtu();
        sim.pAck[p] = false;
        sim.pSrc[p] = src[f];
        sim.pDst[p] = dst[f];
        sim.send(src[f], p);
    }

    private void retransmit(int f, int seq) {
        if (timedSeq[f] >= 0 && seq <= timedSeq[f]) {
            timedSeq[f] = -1; // Karn: no sample from a segment sent twice
        }
        transmit(f, seq);
    }

    private void arm(int f) {
        deadline[f] = sim.now + rto[f];
        if (!timerQueued[f]) {
            timerQueued[f] = true;
            sim.events.add(deadline[f], Simulator.RTO, f);
        }
    }

    /** The timer event: a stale one re-arms at the current deadline; an expired one times out. */
    void timer(int f) {
        timerQueued[f] = false;
        if (deadline[f] == 0 || sndUna[f] >= sndNxt[f]) {
            deadline[f] = 0;
            return;
        }
        if (sim.now < deadline[f]) {
            timerQueued[f] = true;
            sim.events.add(deadline[f], Simulator.RTO, f);
            return;
        }
        timeouts[f]++;
        int flight = sndNxt[f] - sndUna[f];
        recover[f] = sndNxt[f]; // no fast retransmit for what was sent before the timeout (RFC 6582)
        ssthresh[f] = Math.max(flight / 2.0, 2);
        cwnd[f] = 1;
        recovering[f] = false;
        dupAcks[f] = 0;
        sndNxt[f] = sndUna[f];
        timedSeq[f] = -1;
        rto[f] = Math.min(rto[f] * 2, 1_000_000_000L);
        deadline[f] = 0;
        sndNxt[f] = sndUna[f] + 1;
        transmit(f, sndUna[f]);
        arm(f);
    }

    /** A packet reached its host: data at the receiver, or an ACK at the sender. */
    void receive(int p) {
        int f = sim.pFlow[p];
        int seq = sim.pSeq[p];
        boolean ack = sim.pAck[p];
        if (ack) {
            boolean ece = sim.pEce[p];
            sim.release(p);
            acked(f, seq, ece);
            return;
        }
        // the data segment: reuse its packet for the ACK
        int next = rcvNxt[f];
        if (seq == next) {
            next++;
            delivered[f] += payload;
            boolean[] held = outOfOrder[f];
            if (held != null) {
                while (held[next & (ring - 1)]) {
                    held[next & (ring - 1)] = false;
                    next++;
                    delivered[f] += payload;
                }
            }
            rcvNxt[f] = next;
            int fed = downstream[f];
            if (fed >= 0 && running[fed]) {
                pump(fed);
            }
        } else if (seq > next && seq < next + ring) {
            if (outOfOrder[f] == null) {
                outOfOrder[f] = new boolean[ring];
            }
            outOfOrder[f][seq & (ring - 1)] = true;
        }
        sim.pAck[p] = true;
        sim.pEce[p] = false;
        sim.pSeq[p] = rcvNxt[f];
        sim.pBytes[p] = sim.config.ackBytes();
        sim.pSrc[p] = dst[f];
        sim.pDst[p] = src[f];
        sim.send(dst[f], p);
    }

    private void acked(int f, int ack, boolean haveCircuit) {
        boolean done = false;
        if (ack > sndUna[f]) {
            if (timedSeq[f] >= 0 && ack > timedSeq[f]) {
                sample(f, sim.now - timedAt[f]);
                timedSeq[f] = -1;
            }
            int newly = ack - sndUna[f];
            sndUna[f] = ack;
            if (sndNxt[f] < ack) {
                sndNxt[f] = ack;
            }
            if (recovering[f]) {
                if (ack >= recover[f]) {
                    cwnd[f] = ssthresh[f];
                    recovering[f] = false;
                    dupAcks[f] = 0;
                } else {
                    retransmit(f, ack);
                    cwnd[f] = Math.max(1, cwnd[f] - newly + 1);
                }
            } else {
                dupAcks[f] = 0;
                if (cwnd[f] < ssthresh[f]) {
                    cwnd[f] += newly;
                } else {
                    cwnd[f] += newly / cwnd[f];
                }
                if (retcp) {
                    if (haveCircuit && !jumped[f]) {
                        cwnd[f] *= Config.RETCP_ALPHA;
                        jumped[f] = true;
                        jumps[f]++;
                    } else if (!haveCircuit && jumped[f]) {
                        cwnd[f] = Math.max(1, cwnd[f] * Config.RETCP_BETA);
                        jumped[f] = false;
                    }
                }
            }
            done = size[f] >= 0 && sndUna[f] >= size[f] && finished[f] < 0;
            if (done) {
                finished[f] = sim.now;
            }
            deadline[f] = 0;
            if (sndUna[f] < sndNxt[f]) {
                arm(f);
            }
        } else if (ack == sndUna[f] && sndUna[f] < sndNxt[f]) {
            dupAcks[f]++;
            if (!recovering[f] && dupAcks[f] == 3 && ack >= recover[f]) {
                fastRetransmits[f]++;
                int flight = sndNxt[f] - sndUna[f];
                ssthresh[f] = Math.max(flight / 2.0, 2);
                recover[f] = sndNxt[f];
                recovering[f] = true;
                retransmit(f, ack);
                cwnd[f] = ssthresh[f] + 3;
                arm(f);
            } else if (recovering[f]) {
                cwnd[f] += 1;
            }
        }
        pump(f);
        if (done) {
            finish(f);
        }
    }

    private void finish(int f) {
        running[f] = false;
        sim.flowFinished(f);
    }

    private void sample(int f, long rtt) {
        if (srtt[f] == 0) {
            srtt[f] = rtt;
            rttvar[f] = rtt / 2;
        } else {
            rttvar[f] = (3 * rttvar[f] + Math.abs(srtt[f] - rtt)) / 4;
            srtt[f] = (7 * srtt[f] + rtt) / 8;
        }
        rto[f] = Math.min(1_000_000_000L, Math.max(sim.config.minRtoNs(), srtt[f] + 4 * rttvar[f]));
    }
}
