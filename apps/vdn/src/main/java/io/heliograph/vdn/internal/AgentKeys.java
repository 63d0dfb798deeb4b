package io.heliograph.vdn.internal;

import io.heliograph.core.Refusal;
import io.heliograph.vdn.engine.Node;
import io.heliograph.vdn.engine.Tier;
import io.heliograph.vdn.engine.Topology;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * The key each cluster's local agent speaks with (header {@value Vdn#AGENT_KEY_HEADER}): an agent may report, and
 * publish its FIB, for its own cluster only. Keys are made when a topology names a cluster and kept
 * while it does; an operator reads them over REST and gives each agent its own.
 */
final class AgentKeys {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Map<String, String> keys;

    AgentKeys(Map<String, String> keys) {
        this.keys = Map.copyOf(keys);
    }

    static final AgentKeys NONE = new AgentKeys(Map.of());

    /** Keys for every cluster of the topology: those kept from here, new ones for new clusters. */
    AgentKeys forTopology(Topology topology) {
        Map<String, String> next = new TreeMap<>();
        for (Node node : topology.nodes()) {
            if (node.tier() != Tier.CLIENT_GROUP) {
                next.put(node.id(), keys.containsKey(node.id()) ? keys.get(node.id()) : newKey());
            }
        }
        return new AgentKeys(next);
    }

    Map<String, String> asMap() {
        return new TreeMap<>(keys);
    }

    /** Refuses a caller whose key is not {@code cluster}'s (403), or an unknown cluster (404). */
    void check(String cluster, String key) {
        String expected = keys.get(cluster);
        if (expected == null) {
            throw Refusal.notFound("cluster", "no cluster " + cluster + " in the topology");
        }
        if (key == null || key.isBlank()) {
            throw Refusal.forbidden(Vdn.AGENT_KEY_HEADER, "an agent speaks for its cluster with its key in the header "
                    + Vdn.AGENT_KEY_HEADER);
        }
        if (!MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), key.getBytes(StandardCharsets.UTF_8))) {
            throw Refusal.forbidden(Vdn.AGENT_KEY_HEADER, "the key is not cluster " + cluster
                    + "'s: an agent speaks for its own cluster only");
        }
    }

    private static String newKey() {
        byte[] key = new byte[16];
        RANDOM.nextBytes(key);
        return HexFormat.of().formatHex(key);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AgentKeys that && keys.equals(that.keys);
    }

    @Override
    public int hashCode() {
        return keys.hashCode();
    }
}
