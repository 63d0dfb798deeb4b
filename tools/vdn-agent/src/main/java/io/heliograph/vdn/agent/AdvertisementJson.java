package io.heliograph.vdn.agent;

import io.heliograph.core.json.Json;
import io.heliograph.core.json.JsonPath;
import io.heliograph.vdn.engine.Advertisement;
import io.heliograph.vdn.engine.Advertisement.Distance;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * An {@link Advertisement} as the JSON one agent POSTs to a child's {@code /vdn/dv} every DV period:
 *
 * <pre>
 * {"sender": "R1", "distances": {"v0/800": {"hops": 0}, "v1/200": {"hops": 1, "capacityKbps": 74000}}}
 * </pre>
 *
 * A distance without {@code capacityKbps} has no bottleneck (the subscribed cluster itself); capacities are
 * whole kbit/s. Reading refuses a malformed one with an IllegalArgumentException naming the JSON path.
 */
final class AdvertisementJson {

    private AdvertisementJson() {
    }

    static byte[] write(Advertisement ad) {
        Map<String, Object> distances = new TreeMap<>();
        ad.distances().forEach((key, d) -> {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("hops", (long) d.hops());
            if (Double.isFinite(d.capacityKbps())) {
                entry.put("capacityKbps", (long) Math.floor(d.capacityKbps()));
            }
            distances.put(key, entry);
        });
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("sender", ad.sender());
        json.put("distances", distances);
        return Json.compact(json);
    }

    static Advertisement read(byte[] utf8) {
        Object document;
        try {
            document = Json.parse(utf8, 4);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("$: not JSON: " + e.getMessage(), e);
        }
        Map<String, Object> root = JsonPath.object(document, "$", Set.of("sender", "distances"));
        String sender = JsonPath.text(JsonPath.required(root, "sender", "$"), "$.sender");
        Map<String, Distance> distances = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : JsonPath.object(JsonPath.required(root, "distances", "$"), "$.distances").entrySet()) {
            String path = "$.distances[\"" + e.getKey() + "\"]";
            Map<String, Object> entry = JsonPath.object(e.getValue(), path, Set.of("hops", "capacityKbps"));
            int hops = (int) JsonPath.whole(JsonPath.required(entry, "hops", path), path + ".hops", 0, Advertisement.MAX_HOPS);
            double capacity = entry.containsKey("capacityKbps")
                    ? JsonPath.whole(entry.get("capacityKbps"), path + ".capacityKbps", 0, Long.MAX_VALUE)
                    : Double.POSITIVE_INFINITY;
            try {
                Advertisement.bitrateKbps(e.getKey());
            } catch (IllegalArgumentException problem) {
                throw JsonPath.problem(path, problem.getMessage());
            }
            distances.put(e.getKey(), new Distance(hops, capacity));
        }
        return new Advertisement(sender, distances);
    }
}
