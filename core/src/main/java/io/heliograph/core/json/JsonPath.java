package io.heliograph.core.json;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reading plain JSON values ({@link Json}'s maps, lists, strings, longs) with every problem an
 * {@link IllegalArgumentException} whose message starts with the value's JSON path
 * ({@code $.days[2].sourceOf[5]: ...}), so that a refused document or REST body says where it is wrong.
 */
public final class JsonPath {

    private JsonPath() {
    }

    public static IllegalArgumentException problem(String path, String message) {
        return new IllegalArgumentException(path + ": " + message);
    }

    /** An object with any members (a map keyed by names the document chooses). */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(Object value, String path) {
        if (!(value instanceof Map<?, ?> map)) {
            throw problem(path, "must be an object, not " + describe(value));
        }
        return (Map<String, Object>) map;
    }

    /** An object whose members are among {@code members}: another is refused by its path. */
    public static Map<String, Object> object(Object value, String path, Set<String> members) {
        Map<String, Object> map = object(value, path);
        for (String key : map.keySet()) {
            if (!members.contains(key)) {
                throw problem(path + "." + key, "unknown member (known: " + String.join(", ", members.stream().sorted().toList())
                        + ")");
            }
        }
        return map;
    }

    public static Object required(Map<String, Object> object, String name, String path) {
        if (!object.containsKey(name) || object.get(name) == null) {
            throw problem(path + "." + name, "missing");
        }
        return object.get(name);
    }

    public static List<?> list(Object value, String path) {
        if (!(value instanceof List<?> list)) {
            throw problem(path, "must be an array, not " + describe(value));
        }
        return list;
    }

    public static long whole(Object value, String path, long min, long max) {
        if (!(value instanceof Long number)) {
            throw problem(path, "must be a whole number, not " + describe(value));
        }
        if (number < min || number > max) {
            throw problem(path, "must be from " + min + " to " + max + ", not " + number);
        }
        return number;
    }

    public static String text(Object value, String path) {
        if (!(value instanceof String string) || string.isBlank()) {
            throw problem(path, "must be a non-empty string, not " + describe(value));
        }
        return string;
    }

    public static boolean bool(Object value, String path) {
        if (!(value instanceof Boolean flag)) {
            throw problem(path, "must be true or false, not " + describe(value));
        }
        return flag;
    }

    public static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String string) {
            return "\"" + string + "\"";
        }
        if (value instanceof Map<?, ?>) {
            return "an object";
        }
        if (value instanceof List<?>) {
            return "an array";
        }
        return String.valueOf(value);
    }
}
