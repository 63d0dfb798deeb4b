package io.heliograph.circuit.engine;

/**
 * A reconfigurable network as a scheduler sees it (spec §2.1, §2.2): {@code racks} ToRs, each with one
 * port on the circuit switch and one on the packet switch, their rates in bytes per microsecond, and
 * the week, the night (reconfiguration, no circuit usable) and the minimum day, in microseconds. The
 * minimum day includes the night that follows it, as in Solstice.
 */
public record CircuitParameters(int racks, double circuitBytesPerMicro, double packetBytesPerMicro, long weekMicros,
                                long nightMicros, long minDayMicros) {

    public CircuitParameters {
        if (racks < 2) {
            throw new IllegalArgumentException("racks: a circuit switch joins 2 racks or more, not " + racks);
        }
        if (!(circuitBytesPerMicro > 0) || Double.isInfinite(circuitBytesPerMicro)) {
            throw new IllegalArgumentException("circuitBytesPerMicro must be a positive rate, not " + circuitBytesPerMicro);
        }
        if (!(packetBytesPerMicro >= 0) || packetBytesPerMicro > circuitBytesPerMicro) {
            throw new IllegalArgumentException("packetBytesPerMicro must be from 0 to the circuit's "
                    + circuitBytesPerMicro + ", not " + packetBytesPerMicro);
        }
        if (nightMicros < 1) {
            throw new IllegalArgumentException("nightMicros must be at least 1, not " + nightMicros);
        }
        if (minDayMicros <= nightMicros) {
            throw new IllegalArgumentException("minDayMicros (" + minDayMicros + ") includes its night and must be longer"
                    + " than it (" + nightMicros + ")");
        }
        if (weekMicros < Math.max(minDayMicros, 2 * nightMicros)) {
            throw new IllegalArgumentException("weekMicros (" + weekMicros + ") must hold one day of at least "
                    + Math.max(minDayMicros, 2 * nightMicros) + " us (the minimum day, and at least twice the night)");
        }
    }

    /**
     * Etalon's settings for the thesis's experiments (spec §2.3, its Click wrapper): 8 racks, a 20 us night,
     * a 2,000 us week, a 200 us minimum day (180 us of circuit, 9 nights), 80 Gb/s circuit and 10 Gb/s packet.
     */
    public static CircuitParameters etalon() {
        return new CircuitParameters(8, 80e9 / 8 / 1e6, 10e9 / 8 / 1e6, 2_000, 20, 200);
    }

    /** The shortest day a schedule may hold: the minimum day, and at least twice the night (duty cycle 50%). */
    public long shortestDay() {
        return Math.max(minDayMicros, 2 * nightMicros);
    }
}
