package io.heliograph.circuit.engine;

import static io.heliograph.core.json.JsonPath.problem;

import io.heliograph.core.json.JsonPath;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The circuit groups (spec §2.8, §2.11): which host is in which rack, rack r being circuit port r. A host
 * is named by its address as the ADU reports and flows give it ({@code "10.0.1.2"}), compared as written.
 * Every rack has at least one host, a host is in one rack only, and there are at least 2 racks. JSON
 * ({@link #toJson}, what {@code GET /api/v1/circuit/groups} serves):
 * {@code {"racks": [{"rack": 0, "hosts": ["10.0.0.1", "10.0.0.2"]}, {"rack": 1, "hosts": [...]}]}}.
 */
public final class CircuitGroups {

    private final List<List<String>> hosts;
    private final Map<String, Integer> rackOf;

    private CircuitGroups(List<List<String>> hosts, Map<String, Integer> rackOf) {
        this.hosts = hosts;
        this.rackOf = rackOf;
    }

    /** Groups of {@code hostsByRack.get(r)} in rack r; refused, naming the rack or host, when not valid. */
    public static CircuitGroups of(List<List<String>> hostsByRack) {
        if (hostsByRack.size() < 2 || hostsByRack.size() > ScheduleJson.MAX_RACKS) {
            throw new IllegalArgumentException("racks: from 2 to " + ScheduleJson.MAX_RACKS + " racks, not "
                    + hostsByRack.size());
        }
        List<List<String>> hosts = new ArrayList<>();
        Map<String, Integer> rackOf = new HashMap<>();
        for (int r = 0; r < hostsByRack.size(); r++) {
            List<String> rack = hostsByRack.get(r);
            if (rack == null || rack.isEmpty()) {
                throw new IllegalArgumentException("rack " + r + " has no host");
            }
            for (String host : rack) {
                if (host == null || host.isBlank()) {
                    throw new IllegalArgumentException("rack " + r + " has a blank host");
                }
                Integer before = rackOf.putIfAbsent(host, r);
                if (before != null) {
                    throw new IllegalArgumentException("host " + host + " is in rack " + before + " and in rack " + r
                            + "; a host is in one rack");
                }
            }
            hosts.add(List.copyOf(rack));
        }
        return new CircuitGroups(List.copyOf(hosts), Map.copyOf(rackOf));
    }

    /** {@code racks} racks of {@code perRack} hosts, 10.0.r.h with h from 1: the testbeds' addressing. */
    public static CircuitGroups uniform(int racks, int perRack) {
        if (racks > 256 || perRack > 254 || perRack < 1) {
            throw new IllegalArgumentException("10.0.r.h addresses hold 256 racks of 1 to 254 hosts, not " + racks + " of "
                    + perRack);
        }
        List<List<String>> hosts = new ArrayList<>();
        for (int r = 0; r < racks; r++) {
            List<String> rack = new ArrayList<>();
            for (int h = 1; h <= perRack; h++) {
                rack.add("10.0." + r + "." + h);
            }
            hosts.add(rack);
        }
        return of(hosts);
    }

    public int racks() {
        return hosts.size();
    }

    /** The hosts of rack r, in order. */
    public List<String> hosts(int rack) {
        return hosts.get(rack);
    }

    /** How many hosts each rack has. */
    public int[] hostsPerRack() {
        return hosts.stream().mapToInt(List::size).toArray();
    }

    /** The rack of a host, or empty when the host is in no group. */
    public OptionalInt rackOf(String host) {
        Integer rack = rackOf.get(host);
        return rack == null ? OptionalInt.empty() : OptionalInt.of(rack);
    }

    public Map<String, Object> toJson() {
        List<Object> racks = new ArrayList<>();
        for (int r = 0; r < hosts.size(); r++) {
            Map<String, Object> rack = new LinkedHashMap<>();
            rack.put("rack", (long) r);
            rack.put("hosts", hosts.get(r));
            racks.add(rack);
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("racks", racks);
        return json;
    }

    /** Groups from {@link #toJson}'s form; racks in order from 0; the first problem by JSON path. */
    public static CircuitGroups fromJson(Object json) {
        Map<String, Object> object = JsonPath.object(json, "$", Set.of("racks"));
        List<?> racks = JsonPath.list(JsonPath.required(object, "racks", "$"), "$.racks");
        List<List<String>> hosts = new ArrayList<>();
        Map<String, String> seen = new HashMap<>();
        for (int r = 0; r < racks.size(); r++) {
            String path = "$.racks[" + r + "]";
            Map<String, Object> rack = JsonPath.object(racks.get(r), path, Set.of("rack", "hosts"));
            long number = JsonPath.whole(JsonPath.required(rack, "rack", path), path + ".rack", 0, Long.MAX_VALUE);
            if (number != r) {
                throw problem(path + ".rack", "racks are listed in order from 0: expected " + r + ", not " + number);
            }
            List<?> members = JsonPath.list(JsonPath.required(rack, "hosts", path), path + ".hosts");
            if (members.isEmpty()) {
                throw problem(path + ".hosts", "a rack has at least one host");
            }
            List<String> names = new ArrayList<>();
            for (int h = 0; h < members.size(); h++) {
                String hostPath = path + ".hosts[" + h + "]";
                String host = JsonPath.text(members.get(h), hostPath);
                String before = seen.putIfAbsent(host, hostPath);
                if (before != null) {
                    throw problem(hostPath, "host " + host + " is already at " + before + "; a host is in one rack");
                }
                names.add(host);
            }
            hosts.add(names);
        }
        if (hosts.size() < 2 || hosts.size() > ScheduleJson.MAX_RACKS) {
            throw problem("$.racks", "from 2 to " + ScheduleJson.MAX_RACKS + " racks, not " + hosts.size());
        }
        return of(hosts);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CircuitGroups that && that.hosts.equals(hosts);
    }

    @Override
    public int hashCode() {
        return hosts.hashCode();
    }

    @Override
    public String toString() {
        return hosts.toString();
    }
}
