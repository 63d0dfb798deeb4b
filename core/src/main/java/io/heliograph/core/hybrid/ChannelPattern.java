package io.heliograph.core.hybrid;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The key of a {@link Decision}: '/'-separated segments naming what is decided for, such as a channel
 * and its bitrate ({@code v0/800}). A segment that is exactly {@code *} is a wildcard: an inner one
 * matches one segment, a trailing one any number of further segments, none included, so
 * {@code v0/*} covers {@code v0}, {@code v0/800} and {@code v0/800/a}. A key looked up is concrete
 * (no wildcard).
 *
 * <p>When several patterns match a key, the most specific one decides: the one with more literal
 * segments before its first wildcard, then more literal segments in all, then one without a trailing
 * wildcard, then more segments; an exact key beats every pattern.
 */
public final class ChannelPattern {

    /** Orders patterns most specific first; patterns of equal rank by their text, so the order is total. */
    static final Comparator<ChannelPattern> MOST_SPECIFIC_FIRST = (a, b) -> {
        int rank = b.compareSpecificity(a);
        return rank != 0 ? rank : a.text.compareTo(b.text);
    };

    private static final String WILDCARD = "*";

    private final String text;
    private final String[] segments;
    private final boolean trailingWildcard;
    private final int literalPrefix;
    private final int literals;

    private ChannelPattern(String text, String[] segments) {
        this.text = text;
        this.segments = segments;
        this.trailingWildcard = WILDCARD.equals(segments[segments.length - 1]);
        int prefix = 0;
        while (prefix < segments.length && !WILDCARD.equals(segments[prefix])) {
            prefix++;
        }
        this.literalPrefix = prefix;
        this.literals = (int) Arrays.stream(segments).filter(s -> !WILDCARD.equals(s)).count();
    }

    /** A pattern or key; IllegalArgumentException when it is empty, has an empty segment, or a segment mixing {@code *} with text. */
    public static ChannelPattern parse(String text) {
        String[] segments = split(text);
        for (String segment : segments) {
            if (segment.contains(WILDCARD) && !segment.equals(WILDCARD)) {
                throw new IllegalArgumentException("\"" + text + "\": a wildcard is a whole segment, not \"" + segment + "\"");
            }
        }
        return new ChannelPattern(text, segments);
    }

    /** The segments of a concrete key; IllegalArgumentException for an empty key or segment, or a wildcard. */
    public static List<String> segmentsOfKey(String key) {
        String[] segments = split(key);
        for (String segment : segments) {
            if (segment.contains(WILDCARD)) {
                throw new IllegalArgumentException("\"" + key + "\": a key looked up has no wildcard");
            }
        }
        return List.of(segments);
    }

    private static String[] split(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("an empty key");
        }
        String[] segments = text.split("/", -1);
        for (String segment : segments) {
            if (segment.isEmpty()) {
                throw new IllegalArgumentException("\"" + text + "\" has an empty segment");
            }
        }
        return segments;
    }

    /** Whether this has a wildcard segment. */
    public boolean isWildcard() {
        return literals < segments.length;
    }

    /** Whether this pattern covers the concrete key {@code key}. */
    public boolean matches(String key) {
        return matches(segmentsOfKey(key));
    }

    boolean matches(List<String> key) {
        int fixed = trailingWildcard ? segments.length - 1 : segments.length;
        if (trailingWildcard ? key.size() < fixed : key.size() != fixed) {
            return false;
        }
        for (int i = 0; i < fixed; i++) {
            if (!WILDCARD.equals(segments[i]) && !segments[i].equals(key.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** Positive when this pattern is more specific than {@code other}, negative when less, 0 when they rank alike. */
    public int compareSpecificity(ChannelPattern other) {
        int c = Integer.compare(literalPrefix, other.literalPrefix);
        if (c == 0) {
            c = Integer.compare(literals, other.literals);
        }
        if (c == 0) {
            c = Boolean.compare(!trailingWildcard, !other.trailingWildcard);
        }
        if (c == 0) {
            c = Integer.compare(segments.length, other.segments.length);
        }
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChannelPattern p && p.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    /** The pattern as written. */
    @Override
    public String toString() {
        return text;
    }
}
