package io.heliograph.vdn.engine;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What a cluster sends about every second to each connected cluster of the next lower tier (§4.4):
 * for each object ({@code video/bitrate}, {@link VideoObject#key()}) it can deliver, its distance to
 * the nearest cluster subscribed to it ({@code 0}: the sender is subscribed itself) and the capacity of
 * the bottleneck link on the path there (kbit/s; infinite for the subscribed cluster itself, which
 * has no path). Immutable; a malformed one (from another process, over the network) is refused with
 * an IllegalArgumentException that names the sender, the key and the problem.
 *
 * @param sender    the advertising cluster, a parent of its receivers
 * @param distances by object key
 */
public record Advertisement(String sender, Map<String, Distance> distances) {

    /** A longer path than any tiered CDN has: a hop count beyond it is a bug or garbage, not a route. */
    public static final int MAX_HOPS = 64;

    /**
     * The distance to the nearest subscribed cluster and the bottleneck capacity on the way.
     *
     * @param hops         0 at the subscribed cluster itself
     * @param capacityKbps the least available capacity of the links on the path; positive infinity for none
     */
    public record Distance(int hops, double capacityKbps) {

        /** A subscribed cluster's own: no hop, no bottleneck. */
        public static final Distance SUBSCRIBED = new Distance(0, Double.POSITIVE_INFINITY);

        /** IllegalArgumentException for a negative or too long distance, or a capacity that is NaN or negative. */
        public Distance {
            if (hops < 0 || hops > MAX_HOPS) {
                throw new IllegalArgumentException("distance " + hops + " is not 0 to " + MAX_HOPS + " hops");
            }
            if (Double.isNaN(capacityKbps) || capacityKbps < 0) {
                throw new IllegalArgumentException("capacity " + capacityKbps + " kbit/s is not a number 0 or more");
            }
        }

        /** The same path seen one hop further down, through a link with {@code slackKbps} to spare. */
        public Distance viaLink(double slackKbps) {
            return new Distance(hops + 1, Math.min(capacityKbps, Math.max(0, slackKbps)));
        }
    }

    /** IllegalArgumentException naming the sender, the key and what is wrong. */
    public Advertisement {
        if (sender == null || sender.isBlank()) {
            throw new IllegalArgumentException("an advertisement without a sender");
        }
        TreeMap<String, Distance> copy = new TreeMap<>();
        for (Map.Entry<String, Distance> e : distances.entrySet()) {
            String key = e.getKey();
            try {
                bitrateKbps(key);
                copy.put(key, Objects.requireNonNull(e.getValue(), "no distance"));
            } catch (IllegalArgumentException | NullPointerException problem) {
                throw new IllegalArgumentException("advertisement from " + sender + ": " + key + ": " + problem.getMessage(), problem);
            }
        }
        distances = Collections.unmodifiableMap(copy);
    }

    /**
     * The bitrate of an object key {@code video/bitrate}; IllegalArgumentException for a key of another
     * form (no '/', an empty video, a bitrate that is not a positive whole number).
     */
    public static int bitrateKbps(String key) {
        int slash = key == null ? -1 : key.indexOf('/');
        if (slash <= 0 || slash != key.lastIndexOf('/')) {
            throw new IllegalArgumentException("not an object key video/bitrate: " + key);
        }
        try {
            int bitrate = Integer.parseInt(key.substring(slash + 1));
            if (bitrate > 0) {
                return bitrate;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException("not an object key video/bitrate (a positive bitrate in kbit/s): " + key);
    }
}
