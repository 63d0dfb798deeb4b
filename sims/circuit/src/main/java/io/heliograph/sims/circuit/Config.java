package io.heliograph.sims.circuit;

import io.heliograph.circuit.engine.CircuitParameters;

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
 */
public record Config(CircuitParameters network, int hostsPerRack, double hostGbps, long packetDelayNs,
                     long circuitDelayNs, int mtu, int ackBytes, int voqSmall, int voqBig, long tauNs,
                     int packetSwitchQueue, long minRtoNs, int initialWindow, int receiveWindow, String scheduler,
                     boolean scaleDemand, long seed) {

    /** The strobe schedule's week: 7 days of 180 us up and a 20 us night (spec §2.4). */
    static final long STROBE_WEEK_MICROS = 1_400;

    public Config {
        if (voqSmall < 1 || voqBig < voqSmall) {
            throw new IllegalArgumentException("VOQ sizes: 1 <= s <= b, not s " + voqSmall + ", b " + voqBig);
        }
        if (!scheduler.equals("strobe") && !scheduler.equals("solstice") && !scheduler.equals("none")) {
            throw new IllegalArgumentException("scheduler: strobe, solstice or none, not " + scheduler);
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
                "strobe", true, 1);
    }

    public Config withStaticBuffers(int packets) {
        return new Config(network, hostsPerRack, hostGbps, packetDelayNs, circuitDelayNs, mtu, ackBytes, packets,
                packets, -1, packetSwitchQueue, minRtoNs, initialWindow, receiveWindow, scheduler, scaleDemand, seed);
    }

    /** resize(s, b, tau): VOQs of s packets, grown to b tau before their pair's circuit starts. */
    public Config withResize(int small, int big, long tauMicros) {
        return new Config(network, hostsPerRack, hostGbps, packetDelayNs, circuitDelayNs, mtu, ackBytes, small, big,
                tauMicros * 1_000, packetSwitchQueue, minRtoNs, initialWindow, receiveWindow, scheduler, scaleDemand, seed);
    }

    public Config withScheduler(String name) {
        return new Config(network, hostsPerRack, hostGbps, packetDelayNs, circuitDelayNs, mtu, ackBytes, voqSmall,
                voqBig, tauNs, packetSwitchQueue, minRtoNs, initialWindow, receiveWindow, name, scaleDemand, seed);
    }

    public Config withNetwork(CircuitParameters parameters) {
        return new Config(parameters, hostsPerRack, hostGbps, packetDelayNs, circuitDelayNs, mtu, ackBytes, voqSmall,
                voqBig, tauNs, packetSwitchQueue, minRtoNs, initialWindow, receiveWindow, scheduler, scaleDemand, seed);
    }

    public Config withSeed(long value) {
        return new Config(network, hostsPerRack, hostGbps, packetDelayNs, circuitDelayNs, mtu, ackBytes, voqSmall,
                voqBig, tauNs, packetSwitchQueue, minRtoNs, initialWindow, receiveWindow, scheduler, scaleDemand, value);
    }

    public Config withMinRto(long nanos) {
        return new Config(network, hostsPerRack, hostGbps, packetDelayNs, circuitDelayNs, mtu, ackBytes, voqSmall,
                voqBig, tauNs, packetSwitchQueue, nanos, initialWindow, receiveWindow, scheduler, scaleDemand, seed);
    }

    public Config withScaledDemand(boolean scale) {
        return new Config(network, hostsPerRack, hostGbps, packetDelayNs, circuitDelayNs, mtu, ackBytes, voqSmall,
                voqBig, tauNs, packetSwitchQueue, minRtoNs, initialWindow, receiveWindow, scheduler, scale, seed);
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
