package io.heliograph.circuit.internal;

import java.util.ArrayList;
import java.util.List;

import io.heliograph.circuit.engine.CircuitGroups;
import io.heliograph.circuit.engine.CircuitParameters;
import io.heliograph.circuit.engine.ReplicaPlacement;
import io.heliograph.circuit.internal.exec.Fabric;

/**
 * The circuit app's settings, checked as a whole: a bad value is refused with an
 * {@link IllegalArgumentException} naming it (so {@code ConfiguredSettings} keeps the settings in force).
 *
 * @param fabric the executor's fabric, null for none
 */
record CircuitSettings(CircuitGroups groups, CircuitParameters network, long timeScale, SchedulerChoice choice,
        int replicaOffset, long replicaRotationMillis, int maxAduFlows, String fabricText, Fabric fabric,
        QueueResizing resizing) {

    static final long MAX_TIME_SCALE = 1_000_000_000L;
    /** The shortest scaled week the live loop runs (real microseconds): each week is two store writes. */
    static final long MIN_WEEK_MICROS = 100_000;

    static final CircuitSettings DEFAULTS = read("", 80, 10, 2_000, 20, 200, 1000, "solstice", "voq", "", 1, 0,
            65_536, "");

    /** The settings from the configuration's values without resizing; the first bad one named. */
    static CircuitSettings read(String groups, double circuitGbps, double packetGbps, long weekMicros, long nightMicros,
            long minDayMicros, long timeScale, String scheduler, String estimator, String fixedWeek, int replicaOffset,
            long replicaRotationMillis, int maxAduFlows, String fabric) {
        return read(groups, circuitGbps, packetGbps, weekMicros, nightMicros, minDayMicros, timeScale, scheduler,
                estimator, fixedWeek, replicaOffset, replicaRotationMillis, maxAduFlows, fabric, 0, 16, 128, "", "");
    }

    CircuitSettings {
        if (timeScale < 1 || timeScale > MAX_TIME_SCALE) {
            throw new IllegalArgumentException("timeScale must be from 1 to " + MAX_TIME_SCALE + ", not " + timeScale);
        }
        if (network.weekMicros() > Long.MAX_VALUE / 1000 / timeScale / 4) {
            throw new IllegalArgumentException("weekMicros x timeScale is too long a week: " + network.weekMicros()
                    + " x " + timeScale);
        }
        if (network.weekMicros() * timeScale < MIN_WEEK_MICROS) {
            throw new IllegalArgumentException("timeScale: a week of " + network.weekMicros() + " us x " + timeScale
                    + " lasts less than " + MIN_WEEK_MICROS / 1000 + " ms, shorter than a remote controller can drive; "
                    + "raise timeScale");
        }
        if (fabric != null && fabric.racks().size() != groups.racks()) {
            throw new IllegalArgumentException("fabric has " + fabric.racks().size() + " racks but groups has "
                    + groups.racks());
        }
        if (maxAduFlows < 1 || maxAduFlows > io.heliograph.circuit.engine.AduEstimator.MAX_FLOWS) {
            throw new IllegalArgumentException("maxAduFlows must be from 1 to "
                    + io.heliograph.circuit.engine.AduEstimator.MAX_FLOWS + ", not " + maxAduFlows);
        }
        placement(groups.racks(), replicaOffset, replicaRotationMillis);
    }

    /** The settings from the configuration's values; the first bad one named. */
    static CircuitSettings read(String groups, double circuitGbps, double packetGbps, long weekMicros, long nightMicros,
            long minDayMicros, long timeScale, String scheduler, String estimator, String fixedWeek, int replicaOffset,
            long replicaRotationMillis, int maxAduFlows, String fabric, long resizeTauMicros, int resizeSmallPackets,
            int resizeBigPackets, String resizeDevices, String resizeCommand) {
        CircuitGroups g = groups(groups);
        double circuitRate = rate("circuitGbps", circuitGbps);
        double packetRate = rate("packetGbps", packetGbps);
        if (packetGbps > circuitGbps) {
            throw new IllegalArgumentException("packetGbps must be at most the circuit's " + circuitGbps + " Gb/s, not "
                    + packetGbps);
        }
        CircuitParameters network;
        try {
            network = new CircuitParameters(g.racks(), circuitRate, packetRate,
                    weekMicros, nightMicros, minDayMicros);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage().replace("circuitBytesPerMicro", "circuitGbps")
                    .replace("packetBytesPerMicro", "packetGbps"), e);
        }
        SchedulerChoice choice = SchedulerChoice.of(scheduler, estimator, fixedWeek, network);
        String fabricText = fabric == null ? "" : fabric.strip();
        Fabric f = null;
        if (!fabricText.isEmpty()) {
            try {
                f = Fabric.parse(fabricText);
            } catch (IllegalArgumentException e) {
                String m = e.getMessage();
                throw new IllegalArgumentException(m != null && m.startsWith("fabric") ? m : "fabric: " + m, e);
            }
        }
        QueueResizing resizing = QueueResizing.read(resizeTauMicros, resizeSmallPackets, resizeBigPackets,
                resizeDevices, resizeCommand, g.racks());
        return new CircuitSettings(g, network, timeScale, choice, replicaOffset, replicaRotationMillis, maxAduFlows,
                fabricText, f, resizing);
    }

    /** The racks' hosts from {@code "h,h;h,h"}; empty: the uniform 4 x 2. */
    static CircuitGroups groups(String text) {
        String t = text == null ? "" : text.strip();
        if (t.isEmpty()) {
            return CircuitGroups.uniform(4, 2);
        }
        List<List<String>> racks = new ArrayList<>();
        for (String rack : t.split(";", -1)) {
            List<String> hosts = new ArrayList<>();
            for (String host : rack.split(",", -1)) {
                if (!host.isBlank()) {
                    hosts.add(host.strip());
                }
            }
            racks.add(hosts);
        }
        try {
            return CircuitGroups.of(racks);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("groups: " + e.getMessage(), e);
        }
    }

    /** Gb/s to bytes per microsecond. */
    private static double rate(String name, double gbps) {
        if (!(gbps >= 0) || Double.isInfinite(gbps) || gbps > 1e6) {
            throw new IllegalArgumentException(name + " must be a rate in Gb/s from 0 to 1000000, not " + gbps);
        }
        return gbps * 1e9 / 8 / 1e6;
    }

    static ReplicaPlacement placement(int racks, int offset, long rotationMillis) {
        if (offset < 1 || offset > racks - 1) {
            throw new IllegalArgumentException("replicaOffset must be from 1 to " + (racks - 1) + " (racks - 1), not "
                    + offset);
        }
        if (rotationMillis < 0) {
            throw new IllegalArgumentException("replicaRotationMillis must be 0 (never) or more, not " + rotationMillis);
        }
        return new ReplicaPlacement(racks, offset, rotationMillis);
    }

    ReplicaPlacement placement() {
        return placement(groups.racks(), replicaOffset, replicaRotationMillis);
    }

    /** A scaled week in real nanoseconds. */
    long weekNanos() {
        return network.weekMicros() * 1000 * timeScale;
    }

    /** How often each instance stores its ADU estimate: every week, at most once a second. */
    long aduPublishNanos() {
        return Math.max(weekNanos(), 1_000_000_000L);
    }

    /** Whether {@code other} needs the loop, the estimators and the executor made anew. */
    boolean sameSchedulingAs(CircuitSettings other) {
        return groups.equals(other.groups) && network.equals(other.network) && timeScale == other.timeScale
                && maxAduFlows == other.maxAduFlows && fabricText.equals(other.fabricText)
                && resizing.equals(other.resizing);
    }
}
