package io.heliograph.topology.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SharedStore.Versioned;

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
    private static final Pattern HMAC_KEY = Pattern.compile("\"hmacKey\"\\s*:\\s*\"([A-Za-z0-9+/=]+)\"");

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
            byte[] value = ("{\"hmacKey\":\"" + Base64.getEncoder().encodeToString(fresh) + "\"}")
                    .getBytes(StandardCharsets.UTF_8);
            if (store.replace(KEY, Versioned.ABSENT, value).isPresent()) {
                return fresh;
            }
            existing = store.get(KEY); // another instance made it meanwhile
        }
        return parse(existing.orElseThrow(() -> new IllegalStateException(KEY + " vanished while being read")).value());
    }

    static byte[] parse(byte[] value) {
        Matcher m = HMAC_KEY.matcher(new String(value, StandardCharsets.UTF_8));
        byte[] key;
        try {
            key = m.find() ? Base64.getDecoder().decode(m.group(1)) : new byte[0];
        } catch (IllegalArgumentException e) {
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
