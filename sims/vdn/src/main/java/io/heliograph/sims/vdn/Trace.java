package io.heliograph.sims.vdn;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A video trace (spec §4.7): the cities with their grid coordinates, ranked by requests; the client
 * groups, (city, AS) pairs; the bitrate ladder; and the arrivals, in time order. An arrival is one
 * request, or, where a trace aggregates (Large Event's game viewers), the clients of one group asking
 * for one object at once.
 */
public record Trace(String name, int durationSeconds, List<City> cities, List<Group> groups, int[] ladderKbps,
        int videos, int clients, List<Arrival> arrivals) {

    /** The length of a decision window (§4.5: the optimiser is called about once a minute). */
    public static final int WINDOW_SECONDS = 60;

    /** A city: a random point on the grid (the trace's city ids are anonymised, §4.7). */
    public record City(int id, double x, double y) {
    }

    /** A client group: one AS in one city. Its id is the topology's node id. */
    public record Group(String id, int city) {
    }

    /** {@code clients} clients of a group asking for a video at a bitrate, {@code seconds} into the trace. */
    public record Arrival(double seconds, int group, String video, int bitrateKbps, int clients) {
    }

    public Trace {
        Objects.requireNonNull(name, "name");
        cities = List.copyOf(cities);
        groups = List.copyOf(groups);
        arrivals = List.copyOf(arrivals);
        ladderKbps = ladderKbps.clone();
    }

    /** Σ clients over the arrivals: the trace's request count. */
    public long requests() {
        return arrivals.stream().mapToLong(Arrival::clients).sum();
    }

    /** The arrivals of each {@link #WINDOW_SECONDS} window, in order; an empty window is kept. */
    public List<List<Arrival>> windows() {
        int count = (durationSeconds + WINDOW_SECONDS - 1) / WINDOW_SECONDS;
        List<List<Arrival>> windows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            windows.add(new ArrayList<>());
        }
        for (Arrival arrival : arrivals) {
            int window = Math.min(count - 1, (int) (arrival.seconds() / WINDOW_SECONDS));
            windows.get(window).add(arrival);
        }
        return windows;
    }

    /** The next lower rung of the ladder below {@code kbps}, or 0 below the lowest. */
    public int below(int kbps) {
        int best = 0;
        for (int rung : ladderKbps) {
            if (rung < kbps && rung > best) {
                best = rung;
            }
        }
        return best;
    }
}
