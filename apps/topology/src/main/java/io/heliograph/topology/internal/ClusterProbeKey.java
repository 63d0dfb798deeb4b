package io.heliograph.topology.internal;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SharedStore.Versioned;
import io.heliograph.core.json.Json;

/**
 * The LLDP key of the cluster, kept in the shared store at {@value #KEY}: made by the first instance
 * that needs it, read by the others. A probe is sent by the master of the switch it leaves and
 * checked by the master of the switch it reaches, which in a cluster are often two instances; with
 * one key they verify each other's probes, while another controller's (or another cluster's) are
 * still refused. The probes' instance id is taken from the key, so it is the same everywhere too.
 * Value: {@code {"hmacKey":"<base64 of 32 bytes>"}}.
 */
final class ClusterProbeKey {

    static final String KEY = "topology/lldp-key";
    private static final int KEY_BYTES = 32;

    private ClusterProbeKey() {
    }

    /**
     * The cluster's key, made now if no instance made it before.
     *
     * @throws SharedStore.StoreUnavailableException without a ZooKeeper session
     * @throws IllegalStateException                 when the stored value is not a key (naming the store key)
     */
    static byte[] getOrCreate(SharedStore store, SecureRandom random) {
        Optional<Versioned> existing = store.get(KEY);
        if (existing.isEmpty()) {
            byte[] fresh = new byte[KEY_BYTES];
            random.nextBytes(fresh);
            byte[] value = Json.compact(Map.of("hmacKey", Base64.getEncoder().encodeToString(fresh)));
            if (store.replace(KEY, Versioned.ABSENT, value).isPresent()) {
                return fresh;
            }
            existing = store.get(KEY); // another instance made it meanwhile
        }
        return parse(existing.orElseThrow(() -> new IllegalStateException(KEY + " vanished while being read")).value());
    }

    static byte[] parse(byte[] value) {
        byte[] key;
        try {
            key = Json.flatObject(value).get("hmacKey") instanceof String base64 ? Base64.getDecoder().decode(base64)
                    : new byte[0];
        } catch (IllegalArgumentException e) { // bad JSON or bad Base64
            key = new byte[0];
        }
        if (key.length < 16) {
            throw new IllegalStateException("the shared store's " + KEY + " holds no LLDP key of at least 16 bytes "
                    + "(expected {\"hmacKey\":\"<base64>\"}); delete it and an instance makes a new one");
        }
        return key;
    }

    /** The instance id the cluster's probes carry: from the key, so every instance derives the same. */
    static int instanceOf(byte[] key) {
        return ByteBuffer.wrap(key).getInt();
    }
}
