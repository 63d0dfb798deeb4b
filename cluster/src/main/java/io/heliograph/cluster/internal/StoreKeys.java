package io.heliograph.cluster.internal;

/**
 * The shape of shared-store keys and instance ids: paths of segments separated by '/', each segment
 * 1-200 characters from ASCII letters, digits and {@code . _ - : @}, never "." or ".." (ZooKeeper
 * reads those as relative paths). Refusals name the key and what is wrong with it.
 */
final class StoreKeys {

    static final int MAX_SEGMENT = 200;
    private static final String ALLOWED = "letters, digits and . _ - : @";

    private StoreKeys() {
    }

    /** A key of one or more segments ({@code staticflows/entries/flow-1}). */
    static String requireKey(String what, String key) {
        if (key == null) {
            throw new IllegalArgumentException(what + " is null");
        }
        if (key.isEmpty()) {
            throw new IllegalArgumentException(what + " is empty");
        }
        if (key.startsWith("/") || key.endsWith("/")) {
            throw new IllegalArgumentException(what + " '" + key + "' starts or ends with '/'");
        }
        for (String segment : key.split("/", -1)) {
            String problem = segmentProblem(segment);
            if (problem != null) {
                throw new IllegalArgumentException(what + " '" + key + "': " + problem);
            }
        }
        return key;
    }

    /** A key or "" (the whole store), for list and watch. */
    static String requirePrefix(String what, String prefix) {
        return "".equals(prefix) ? prefix : requireKey(what, prefix);
    }

    /** One segment: an instance id, a leadership name without '/'. */
    static String requireSegment(String what, String segment) {
        if (segment == null) {
            throw new IllegalArgumentException(what + " is null");
        }
        String problem = segmentProblem(segment);
        if (problem != null) {
            throw new IllegalArgumentException(what + " '" + segment + "': " + problem);
        }
        return segment;
    }

    private static String segmentProblem(String segment) {
        if (segment.isEmpty()) {
            return "empty segment (two '/' in a row)";
        }
        if (segment.length() > MAX_SEGMENT) {
            return "segment of " + segment.length() + " characters (at most " + MAX_SEGMENT + ")";
        }
        if (segment.equals(".") || segment.equals("..")) {
            return "segment '" + segment + "' is not allowed";
        }
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-' || c == ':' || c == '@';
            if (!ok) {
                return "segment '" + segment + "' has " + describe(c) + " (allowed: " + ALLOWED + ")";
            }
        }
        return null;
    }

    private static String describe(char c) {
        return c >= 0x21 && c < 0x7f ? "'" + c + "'" : String.format("character U+%04X", (int) c);
    }
}
