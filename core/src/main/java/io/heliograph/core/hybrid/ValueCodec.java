package io.heliograph.core.hybrid;

/**
 * How an app's decision value is written in a table's JSON, as a plain value of
 * {@link io.heliograph.core.json.Json} (a string, a whole number, a map or a list).
 *
 * @param <V> what is decided
 */
public interface ValueCodec<V> {

    /** The value as a plain JSON value. */
    Object toJson(V value);

    /**
     * The value read back; IllegalArgumentException whose message starts with {@code path} (the JSON
     * path of the value, {@code $.decisions[3].value}) and names the problem.
     */
    V fromJson(Object json, String path);

    /** Values that are non-empty strings (VDN's next-hop cluster ids). */
    static ValueCodec<String> strings() {
        return new ValueCodec<>() {
            @Override
            public Object toJson(String value) {
                return value;
            }

            @Override
            public String fromJson(Object json, String path) {
                if (!(json instanceof String s) || s.isEmpty()) {
                    throw new IllegalArgumentException(path + ": not a non-empty string: " + json);
                }
                return s;
            }
        };
    }
}
