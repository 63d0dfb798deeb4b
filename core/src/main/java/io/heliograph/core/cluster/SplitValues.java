package io.heliograph.core.cluster;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Values larger than one store value ({@link SharedStore#MAX_VALUE_BYTES}) kept in the shared store:
 * an optimiser's result, a big experiment description. The value is cut into parts written under
 * {@code <key>/<generation>-<n>}, then {@code <key>} itself is set to a small manifest naming the
 * generation, the part count, the length and a SHA-256 of the whole; older generations' parts are
 * deleted last. So a reader sees either the whole previous value or the whole new one, never a mix:
 * it reads the manifest, then the parts it names, and if a newer write removed them in between it
 * starts again from the newer manifest.
 *
 * <p>Keys below {@code <key>} belong to it: {@link SharedStore#delete} of the key removes every
 * part, and a watch on its parent sees the parts as well as the manifest (watch the manifest's exact
 * key, or ignore keys with more segments).
 */
public final class SplitValues {

    /** The bytes of one part: the store's limit, less room for ZooKeeper's own framing. */
    public static final int PART_BYTES = SharedStore.MAX_VALUE_BYTES - 4096;
    private static final int READ_ATTEMPTS = 5;
    private static final int MANIFEST_BYTES = 4 + 8 + 4 + 8 + 32;
    private static final int MAGIC = 0x48535631; // "HSV1"

    private SplitValues() {
    }

    /** Writes {@code value} at {@code key}, replacing what was there; returns the number of parts. */
    public static int write(SharedStore store, String key, byte[] value) {
        long generation = ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE;
        int parts = (value.length + PART_BYTES - 1) / PART_BYTES; // none for an empty value: the store keeps no empty value
        for (int i = 0; i < parts; i++) {
            int from = i * PART_BYTES;
            store.put(partKey(key, generation, i), Arrays.copyOfRange(value, from, Math.min(value.length, from + PART_BYTES)));
        }
        store.put(key, manifest(generation, parts, value));
        String current = generationSegment(generation) + "-";
        for (String part : store.list(key).keySet()) {
            if (!part.startsWith(current)) {
                store.delete(key + "/" + part);
            }
        }
        return parts;
    }

    /**
     * The value at {@code key}; empty when there is none. Fails with IllegalStateException when the key
     * holds something that is not a split value, or its parts do not add up to what the manifest says.
     */
    public static Optional<byte[]> read(SharedStore store, String key) {
        for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
            Optional<SharedStore.Versioned> manifest = store.get(key);
            if (manifest.isEmpty()) {
                return Optional.empty();
            }
            Manifest m = Manifest.parse(key, manifest.get().value());
            Optional<byte[]> value = parts(store, key, m);
            if (value.isPresent()) {
                return value;
            }
            // a newer write replaced the parts between our reads of the manifest and of them: read again
        }
        throw new IllegalStateException(key + ": the value kept changing while it was read (" + READ_ATTEMPTS
                + " attempts)");
    }

    private static Optional<byte[]> parts(SharedStore store, String key, Manifest m) {
        Map<String, SharedStore.Versioned> listed = store.list(key);
        ByteBuffer whole = ByteBuffer.allocate(m.length);
        for (int i = 0; i < m.parts; i++) {
            SharedStore.Versioned part = listed.get(generationSegment(m.generation) + "-" + i);
            if (part == null || part.value().length > whole.remaining()) {
                return Optional.empty();
            }
            whole.put(part.value());
        }
        if (whole.hasRemaining() || !Arrays.equals(sha256(whole.array()), m.sha256)) {
            throw new IllegalStateException(key + ": its parts do not make the value its manifest describes ("
                    + m.length + " bytes)");
        }
        return Optional.of(whole.array());
    }

    private static String partKey(String key, long generation, int part) {
        return key + "/" + generationSegment(generation) + "-" + part;
    }

    private static String generationSegment(long generation) {
        return "g" + Long.toHexString(generation);
    }

    private static byte[] manifest(long generation, int parts, byte[] value) {
        return ByteBuffer.allocate(MANIFEST_BYTES).putInt(MAGIC).putLong(generation).putInt(parts)
                .putLong(value.length).put(sha256(value)).array();
    }

    private record Manifest(long generation, int parts, int length, byte[] sha256) {

        static Manifest parse(String key, byte[] bytes) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            if (bytes.length != MANIFEST_BYTES || b.getInt() != MAGIC) {
                throw new IllegalStateException(key + " does not hold a split value (" + bytes.length + " bytes: "
                        + HexFormat.of().formatHex(bytes, 0, Math.min(8, bytes.length)) + "...)");
            }
            long generation = b.getLong();
            int parts = b.getInt();
            long length = b.getLong();
            byte[] sha = new byte[32];
            b.get(sha);
            if (parts < 0 || length < 0 || length > (long) parts * PART_BYTES || length > Integer.MAX_VALUE) {
                throw new IllegalStateException(key + ": a split value's manifest says " + parts + " parts of "
                        + length + " bytes");
            }
            return new Manifest(generation, parts, (int) length, sha);
        }
    }

    private static byte[] sha256(byte[] value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }
}
