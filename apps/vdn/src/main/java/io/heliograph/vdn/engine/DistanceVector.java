package io.heliograph.vdn.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import io.heliograph.vdn.engine.Advertisement.Distance;

/**
 * One cluster's distance-vector state (§4.4, Table 4.2): the objects it is subscribed to (receives
 * now), and per parent and object the distance and path capacity through that parent, from the
 * parent's last {@link Advertisement}: one hop more than the parent's distance, and the lesser of the
 * parent's path capacity and the slack of the link from the parent to this cluster. What it
 * {@link #advertise advertises} to its children is, per object, 0 when subscribed, otherwise the
 * distance through the closest parent whose path has enough capacity for the object's bitrate (more
 * capacity breaking a tie); objects with no such path are not advertised.
 *
 * <p>Thread-safe: the advertisement thread updates it while request threads read routes.
 */
public final class DistanceVector {

    private final String self;
    private final Set<String> subscribed = new TreeSet<>();
    /** Per parent, per object key. */
    private final Map<String, Map<String, Distance>> viaParent = new TreeMap<>();
    /** When each parent's last advertisement came. */
    private final Map<String, Instant> heard = new TreeMap<>();

    /** The state of cluster {@code self}, with no subscription and no parent heard yet. */
    public DistanceVector(String self) {
        if (self == null || self.isBlank()) {
            throw new IllegalArgumentException("a distance vector belongs to a cluster");
        }
        this.self = self;
    }

    /** The cluster this state is of. */
    public String self() {
        return self;
    }

    /** This cluster now receives the object {@code key}: it advertises distance 0 for it. */
    public synchronized void subscribe(String key) {
        Advertisement.bitrateKbps(key);
        subscribed.add(key);
    }

    /** This cluster no longer receives the object; false when it did not. */
    public synchronized boolean unsubscribe(String key) {
        return subscribed.remove(key);
    }

    /** Whether this cluster receives the object. */
    public synchronized boolean isSubscribed(String key) {
        return subscribed.contains(key);
    }

    /**
     * Takes a parent's advertisement, received at {@code at}, which replaces everything that parent said
     * before (an object it no longer advertises is no longer reachable through it). {@code linkSlackKbps}
     * is the capacity to spare on the link from that parent to this cluster now.
     */
    public synchronized void receive(Advertisement advertisement, double linkSlackKbps, Instant at) {
        if (Double.isNaN(linkSlackKbps)) {
            throw new IllegalArgumentException("link " + advertisement.sender() + "->" + self + ": slack is NaN");
        }
        if (advertisement.sender().equals(self)) {
            throw new IllegalArgumentException(self + " cannot be its own parent");
        }
        Map<String, Distance> routes = new HashMap<>();
        advertisement.distances().forEach((key, d) -> routes.put(key, d.viaLink(linkSlackKbps)));
        viaParent.put(advertisement.sender(), routes);
        heard.put(advertisement.sender(), Objects.requireNonNull(at, "at"));
    }

    /**
     * Forgets the parents last heard more than {@code timeout} before {@code now} (the spec suggests three
     * advertisement periods) and returns them, in order: the caller treats each as a failed node, whose
     * streams become new requests.
     */
    public synchronized List<String> expireParents(Instant now, Duration timeout) {
        List<String> lost = new ArrayList<>();
        heard.forEach((parent, at) -> {
            if (Duration.between(at, now).compareTo(timeout) > 0) {
                lost.add(parent);
            }
        });
        lost.forEach(this::parentLost);
        return lost;
    }

    /** Forgets a parent that timed out or whose link failed; false when it was not known. */
    public synchronized boolean parentLost(String parent) {
        heard.remove(parent);
        return viaParent.remove(parent) != null;
    }

    /** The distance and path capacity to the object through each parent that advertised it, by parent. */
    public synchronized Map<String, Distance> routes(String key) {
        Map<String, Distance> routes = new TreeMap<>();
        viaParent.forEach((parent, byKey) -> {
            Distance d = byKey.get(key);
            if (d != null) {
                routes.put(parent, d);
            }
        });
        return routes;
    }

    /** What this cluster tells its children now. */
    public synchronized Advertisement advertise() {
        Map<String, Distance> best = new HashMap<>();
        for (Map<String, Distance> byKey : viaParent.values()) {
            byKey.forEach((key, d) -> {
                if (d.capacityKbps() > Advertisement.bitrateKbps(key)) {
                    best.merge(key, d, DistanceVector::closer);
                }
            });
        }
        for (String key : subscribed) {
            best.put(key, Distance.SUBSCRIBED);
        }
        return new Advertisement(self, best);
    }

    private static Distance closer(Distance a, Distance b) {
        if (a.hops() != b.hops()) {
            return a.hops() < b.hops() ? a : b;
        }
        return a.capacityKbps() >= b.capacityKbps() ? a : b;
    }
}
