package io.heliograph.sims.circuit;

import io.heliograph.circuit.engine.CircuitParameters;
import java.util.List;

/**
 * One run's network and settings (spec §2.4, §2.10). Rates in Gb/s, times in nanoseconds unless named
 * otherwise. The circuit, night, week and minimum day come from the engine's {@link CircuitParameters}.
 *
 * @param network the circuit network: racks, circuit and packet rates, week, night, minimum day
 * @param hostsPerRack hosts under each ToR (16)
 * @param hostGbps each host's link to its ToR, both ways (10)
 * @param packetDelayNs the packet up-link and down-link delay, each (5 us)
 * @param circuitDelayNs the circuit link delay (30 us)
 * @param mtu bytes of a data packet on the wire (9000, jumbo frames); the payload is {@code mtu - 40}
 * @param ackBytes bytes of a pure ACK on the wire
 * @param voqSmall VOQ capacity in packets: always, for static buffers; {@code s} of resize(s, b, tau)
 * @param voqBig {@code b} of resize(s, b, tau); equal to voqSmall for static buffers
 * @param tauNs how long before a pair's circuit starts its VOQ grows to voqBig; negative: static buffers
 * @param packetSwitchQueue packets an output of the packet switch holds; beyond it a ToR holds packets
 *     in its VOQ (hold-not-drop, spec §2.4) [unspecified by the thesis]
 * @param minRtoNs TCP's minimum retransmission timeout
 * @param initialWindow TCP's initial congestion window, in segments
 * @param receiveWindow the most segments a flow has unacknowledged
 * @param scheduler "strobe" (the engine's round-robin all-to-all week, fixed), "solstice" (the engine's
 *     Solstice each week on the VOQ occupancy seen at the start of the week before), or "none" (no circuit)
 * @param scaleDemand Solstice's VOQ demand scaled so its largest row or column sum is half a week of circuit
 *     (one version of Etalon's Click wrapper, spec §2.3: "allows solstice to schedule small flows"); without
 *     it a VOQ of at most 128 jumbo packets (1.15 MB) never reaches one minimum day of circuit (2 MB) and
 *     Solstice trims every entry to the packet switch
 * @param seed the run's randomness: flow start jitter, Solstice's seed
 * @param estimator Solstice's demand: "voq" (the VOQs' occupancy in bytes at the start of the week, as
 *     Etalon's estimator reads {@code q.bytes}) or "adu" (the engine's {@link
 *     io.heliograph.circuit.engine.AduEstimator}: each flow's size reported when it starts, the bytes that
 *     left its VOQ as served, its close when it ends; spec §2.7)
 * @param retcp reTCP (spec §2.6): the ToR of D sets ECE on D's ACKs to S while circuit S -> D is up, and
 *     the sender multiplies its cwnd by {@link #RETCP_ALPHA} on a 0 -> 1 transition and by
 *     {@link #RETCP_BETA} on a 1 -> 0 one
 * @param rings for the "fixed" scheduler: the week is this many days of equal length, day k the ring
 *     rack i -> i + {@link #RING_OFFSETS}[k] (the ring workloads' perfect-knowledge schedule, spec §2.7)
 * @param directAcks pure ACKs between racks skip the VOQs and the packet switch: they arrive after the two
 *     packet links' delay and serialisation, as on an uncongested network of their own (a sensitivity
 *     run: the thesis does not say how its ACKs travelled; by default they share the VOQs and the packet
 *     switch with data, spec §2.10's recommendation); reTCP still marks them
 */
public record Config(CircuitParameters network, int hostsPerRack, double hostGbps, long packetDelayNs,
                     long circuitDelayNs, int mtu, int ackBytes, int voqSmall, int voqBig, long tauNs,
                     int packetSwitchQueue, long minRtoNs, int initialWindow, int receiveWindow, String scheduler,
                     boolean scaleDemand, long seed, String estimator, boolean retcp, int rings, boolean directAcks) {

    /** The strobe schedule's week: 7 days of 180 us up and a 20 us night (spec §2.4). */
    static final long STROBE_WEEK_MICROS = 1_400;
    /** reTCP's cwnd factors, "We set alpha = 2 and beta = 0.5 empirically" (thesis L787). */
    static final double RETCP_ALPHA = 2;
    static final double RETCP_BETA = 0.5;
    /**
     * The ring workloads' rings: rack i -> i + 1, and for the second ring i -> i + 3 [the thesis does not say
     * which; an offset prime to the 8 racks makes one ring through all of them, as offset 1 does].
     */
    static final int[] RING_OFFSETS = {1, 3};

    public Config {
        if (voqSmall < 1 || voqBig < voqSmall) {
            throw new IllegalArgumentException("VOQ sizes: 1 <= s <= b, not s " + voqSmall + ", b " + voqBig);
        }
        if (!List.of("strobe", "solstice", "fixed", "none").contains(scheduler)) {
            throw new IllegalArgumentException("scheduler: strobe, solstice, fixed or none, not " + scheduler);
        }
        if (!estimator.equals("voq") && !estimator.equals("adu")) {
            throw new IllegalArgumentException("estimator: voq or adu, not " + estimator);
        }
        if (scheduler.equals("fixed") && (rings < 1 || rings > RING_OFFSETS.length)) {
            throw new IllegalArgumentException("the fixed schedule holds 1 to " + RING_OFFSETS.length + " rings, not " + rings);
        }
    }

    /**
     * Etalon's emulated network (spec §2.4's table): 8 racks of 16 hosts, 10 Gb/s hosts and packet
     * switch, 80 Gb/s circuits, 5 us packet links, 30 us circuit links, 20 us nights, 9000 B packets, the
     * strobe schedule (a 1,400 us week of 7 days), static 16-packet VOQs. The minimum RTO is 10 ms:
     * Linux's 200 ms is a kernel timer, which Etalon's time dilation (TDF 20, user space only) does not
     * dilate, so the emulated hosts saw 200 / 20 ms [the thesis does not state it].
     */
    public static Config etalon() {
        CircuitParameters etalon = CircuitParameters.etalon();
        CircuitParameters strobe = new CircuitParameters(etalon.racks(), etalon.circuitBytesPerMicro(),
                etalon.packetBytesPerMicro(), STROBE_WEEK_MICROS, etalon.nightMicros(), etalon.minDayMicros());
        return new Config(strobe, 16, 10, 5_000, 30_000, 9_000, 64, 16, 16, -1, 16, 10_000_000, 10, 2_048,
                "strobe", true, 1, "voq", false, 0, false);
    }

    public Config withStaticBuffers(int packets) {
        return new Config(network, hostsPerRack, hostGbps, packetDelayNs, circuitDelayNs, mtu, ackBytes, packets,
                packets, -1, packetSwitchQueue, minRtoNs, initialWindow, receiveWindow, scheduler, scaleDemand, seed,
                estimator, retcp, rings, directAcks);
    }

    /** resize(s, b, tau): VOQs of s packets, grown to b tau before their pair's circuit starts. */
    public Config withResize(int small, int big, long tauMicros) {
        return new Config(network, hostsPerRack, hostGbps, packetDelayNs, circuitDelayNs, mtu, ackBytes, small, big,
                tauMicros * 1_000, packetSwitchQueue, minRtoNs, initialWindow, receiveWindow, scheduler, scaleDemand, seed,
                estimator, retcp, rings, directAcks);
    }

    public Config withScheduler(String name) {
        return new Config(network, hostsPerRack, hostGbps, packetDelayNs, circuitDelayNs, mtu, ackBytes, voqSmall,
                voqBig, tauNs, packetSwitchQueue, minRtoNs, initialWindow, receiveWindow, name, scaleDemand, seed,
                estimator, retcp, rings, directAcks);
    }

    public Config withNetwork(CircuitParameters parameters) {
        return new Config(parameters, hostsPerRack, hostGbps, packetDelayNs, circuitDelayNs, mtu, ackBytes, voqSmall,
                voqBig, tauNs, packetSwitchQueue, minRtoNs, initialWindow, receiveWindow, scheduler, scaleDemand, seed,
                estimator, retcp, rings, directAcks);
    }

    public Config withSeed(long value) {
        return new Config(network, hostsPerRack, hostGbps, packetDelayNs, circuitDelayNs, mtu, ackBytes, voqSmall,
                voqBig, tauNs, packetSwitchQueue, minRtoNs, initialWindow, receiveWindow, scheduler, scaleDemand, value, estimator, retcp, rings, directAcks);
    }

    public Config withMinRto(long nanos) {
        return new Config(network, hostsPerRack, hostGbps, packetDelayNs, circuitDelayNs, mtu, ackBytes, voqSmall,
                voqBig, tauNs, packetSwitchQueue, nanos, initialWindow, receiveWindow, scheduler, scaleDemand, seed,
                estimator, retcp, rings, directAcks);
    }

    public Config withScaledDemand(boolean scale) {
        return new Config(network, hostsPerRack, hostGbps, packetDelayNs, circuitDelayNs, mtu, ackBytes, voqSmall,
                voqBig, tauNs, packetSwitchQueue, minRtoNs, initialWindow, receiveWindow, scheduler, scale, seed,
                estimator, retcp, rings, directAcks);
    }

    /** Solstice's demand from the VOQs ("voq") or from ADUs ("adu"). */
    public Config withEstimator(String name) {
        return new Config(network, hostsPerRack, hostGbps, packetDelayNs, circuitDelayNs, mtu, ackBytes, voqSmall,
                voqBig, tauNs, packetSwitchQueue, minRtoNs, initialWindow, receiveWindow, scheduler, scaleDemand, seed,
                name, retcp, rings, directAcks);
    }

    public Config withRetcp(boolean on) {
        return new Config(network, hostsPerRack, hostGbps, packetDelayNs, circuitDelayNs, mtu, ackBytes, voqSmall,
                voqBig, tauNs, packetSwitchQueue, minRtoNs, initialWindow, receiveWindow, scheduler, scaleDemand, seed,
                estimator, on, rings, directAcks);
    }

    /** The "fixed" scheduler's week: {@code count} rings (see {@link #RING_OFFSETS}). */
    public Config withFixedRings(int count) {
        return new Config(network, hostsPerRack, hostGbps, packetDelayNs, circuitDelayNs, mtu, ackBytes, voqSmall,
                voqBig, tauNs, packetSwitchQueue, minRtoNs, initialWindow, receiveWindow, "fixed", scaleDemand, seed,
                estimator, retcp, count, directAcks);
    }

    /** ACKs between racks on an uncongested path of their own (true) or through the VOQs and the packet switch. */
    public Config withDirectAcks(boolean direct) {
        return new Config(network, hostsPerRack, hostGbps, packetDelayNs, circuitDelayNs, mtu, ackBytes, voqSmall,
                voqBig, tauNs, packetSwitchQueue, minRtoNs, initialWindow, receiveWindow, scheduler, scaleDemand, seed,
                estimator, retcp, rings, direct);
    }

    public boolean resizing() {
        return tauNs >= 0;
    }

    public int racks() {
        return network.racks();
    }

    public int hosts() {
        return network.racks() * hostsPerRack;
    }

    /** Nanoseconds per byte on a link of {@code gbps}. */
    static double nsPerByte(double gbps) {
        return 8 / gbps;
    }
}
