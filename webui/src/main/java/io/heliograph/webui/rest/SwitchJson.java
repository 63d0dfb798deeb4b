package io.heliograph.webui.rest;

import java.util.List;
import java.util.Map;

/**
 * The JSON the switch resources answer with: plain strings and numbers, never a Loxi object.
 * Counters are unsigned 64-bit on the wire and are given as JSON numbers (a client that reads them
 * as doubles loses precision only above 2^53). Built from Loxi by {@link SwitchViews}; the
 * Floodlight aliases reshape these records, so both read the switch the same way.
 */
public final class SwitchJson {

    private SwitchJson() {
    }

    /**
     * A line of the switch list, with what the switch said it is (kept by the controller, not asked
     * again; null until the switch has answered the description request) and what the controller
     * refused or dropped from it ({@link #counters counters}).
     */
    public record Summary(String dpid, String version, String address, String connectedSince, int ports,
            Description description, Map<String, Long> counters) {
    }

    /**
     * One switch: how it is connected, what it can do, what it says it is (null until it has
     * answered) and {@code counters}: what the controller turned away from it since it connected, by
     * kind ({@code packetInsDropped} over the packet-in rate, {@code portsRefused} over maxPorts,
     * {@code requestsRefused} over maxPendingRequests, {@code badInput.<kind>} for messages it could
     * not decode, {@code duplicatesRefused} for connections that claimed its datapath id); empty
     * when there was nothing.
     */
    public record Detail(String dpid, String version, String address, String connectedSince,
            long connectedSinceMillis, Features features, Description description, Map<String, Long> counters) {
    }

    public record Features(long buffers, int tables, int auxiliaryId, List<String> capabilities) {
    }

    public record Description(String manufacturer, String hardware, String software, String serialNumber,
            String datapath) {
    }

    /**
     * A port: {@code number} is its OpenFlow number ({@code 4294967294} is LOCAL), {@code id} the
     * form Floodlight prints ("1", "local"); speeds in kbit/s, null where the switch does not say.
     */
    public record Port(long number, String id, String name, String hwAddress, boolean up, List<String> config,
            List<String> state, List<String> currentFeatures, Long currentSpeedKbps, Long maxSpeedKbps) {
    }

    /** An instruction: its type, and either its actions or its value (table, meter, metadata); the other is null. */
    public record Instruction(String type, List<String> actions, String value) {
    }

    /** A flow entry as the switch reports it; the match maps OXM field names to values ("value/mask" when masked). */
    public record Flow(int tableId, int priority, String cookie, Long packets, Long bytes, Long durationSeconds,
            int idleTimeout, int hardTimeout, List<String> flags, Map<String, String> match,
            List<Instruction> instructions) {
    }

    public record Table(int tableId, long activeCount, long lookupCount, long matchedCount) {
    }

    public record Bucket(int weight, String watchPort, String watchGroup, List<String> actions, Long packets,
            Long bytes) {
    }

    /** A group: its description joined with its counters (null when the stats reply did not mention it). */
    public record Group(long groupId, String type, List<Bucket> buckets, Long referenceCount, Long packets,
            Long bytes, Long durationSeconds) {
    }

    public record Band(String type, long rate, long burstSize, Integer precedenceLevel, Long packets, Long bytes) {
    }

    /** A meter: its configuration joined with its counters. */
    public record Meter(long meterId, List<String> flags, List<Band> bands, Long flowCount, Long packetsIn,
            Long bytesIn, Long durationSeconds) {
    }

    /** A port's counters; the error breakdown (frame, overrun, CRC, collisions) is null on OpenFlow 1.4+. */
    public record PortStatistics(long port, String id, long rxPackets, long txPackets, long rxBytes, long txBytes,
            long rxDropped, long txDropped, long rxErrors, long txErrors, Long rxFrameErrors, Long rxOverrunErrors,
            Long rxCrcErrors, Long collisions, Long durationSeconds) {
    }

    public record Aggregate(long flowCount, long packets, long bytes) {
    }

    /** The port counters and flow totals of one switch, read in one go. */
    public record Statistics(String dpid, List<PortStatistics> ports, Aggregate aggregate) {
    }

    /** This controller's role on the switch, as the switch reports it (a ROLE_REQUEST with NOCHANGE). */
    public record Role(String dpid, String role, String generationId) {
    }
}
