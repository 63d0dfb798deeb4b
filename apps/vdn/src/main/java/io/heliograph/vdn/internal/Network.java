package io.heliograph.vdn.internal;

import io.heliograph.core.json.JsonPath;
import io.heliograph.vdn.engine.Knobs;
import io.heliograph.vdn.engine.Topology;
import io.heliograph.vdn.engine.TopologyJson;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the operator set: the CDN's topology (none until one is put), the optimiser's knobs and the
 * agents' keys, kept together in the store so that the three always agree (the knobs' link costs name
 * links of the topology; the keys are its clusters').
 */
record Network(Topology topology, Knobs knobs, AgentKeys keys) {

    static final Network EMPTY = new Network(null, Knobs.DEFAULT, AgentKeys.NONE);
    private static final Set<String> MEMBERS = Set.of("topology", "knobs", "agents");

    Network {
        Objects.requireNonNull(knobs, "knobs");
        Objects.requireNonNull(keys, "keys");
        if (topology != null) {
            knobs.costsOn(topology);
        }
    }

    Network withTopology(Topology next) {
        return new Network(next, knobs, keys.forTopology(next));
    }

    Network withKnobs(Knobs next) {
        return new Network(topology, next, keys);
    }

    Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        if (topology != null) {
            json.put("topology", TopologyJson.write(topology));
        }
        json.put("knobs", knobs.write());
        json.put("agents", keys.asMap());
        return json;
    }

    static Network fromJson(Object json) {
        Map<String, Object> root = JsonPath.object(json, "$", MEMBERS);
        Topology topology = root.containsKey("topology") ? TopologyJson.read(root.get("topology")) : null;
        Map<String, String> keys = new TreeMap<>();
        JsonPath.object(root.get("agents"), "$.agents").forEach((cluster, key) -> keys.put(cluster,
                JsonPath.text(key, "$.agents." + cluster)));
        return new Network(topology, Knobs.read(root.get("knobs")), new AgentKeys(keys));
    }
}
