package io.heliograph.sims.vdn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * The thesis's three traces (§4.7), synthesised: the real ones are proprietary, so each is drawn, from a
 * seed, to the sizes and skews the thesis states. Videos are ranked by popularity and drawn from a Zipf
 * law over the catalogue (Average Day s = 0.80: the top 7 % of videos get 50 % of requests; Heavy-Tail
 * s = 0.89: the lowest 99 % get 60 %); a request's bitrate is drawn from the trace's ladder; its time is
 * uniform over the hour; its client is drawn from the client population (every client making at least
 * one request), and its client group is that client's. Large Event adds concurrent games whose
 * viewers are aggregated per client group (see {@link Spec#games()}).
 */
public final class Traces {

    /** Average Day's bitrate ladder and mix: a mean of 2,717.5 kbit/s against the trace's 2,725. */
    static final int[] AVERAGE_DAY_LADDER = {400, 1200, 3000, 4500};
    static final double[] AVERAGE_DAY_MIX = {0.1, 0.25, 0.365, 0.285};
    /** Heavy-Tail's: YouTube Live's 240p, 480p, 1080p and a future 4K; mean 6,850 kbit/s (§4.7). */
    static final int[] HEAVY_TAIL_LADDER = {400, 1000, 4500, 30000};
    static final double[] HEAVY_TAIL_MIX = {0.275, 0.275, 0.275, 0.175};
    /** Client groups per city: the thesis does not say how many ASes a city has. */
    static final double GROUPS_PER_CITY = 1.5;
    /** The cities' sizes: a Zipf law (s = 1) over the cities ranked by population. */
    static final double CITY_ZIPF = 1.0;

    private Traces() {
    }

    /**
     * What to draw. {@code videos} is the catalogue the Zipf law is drawn over (a video far in the tail
     * may draw no request); {@code clients} the client population, each client making at least one
     * request. {@code games} concurrent live games with {@code viewersPerGame} viewers each are present in
     * every window: their viewers are drawn per client group, as one arrival per (group, game, bitrate)
     * a window, since 48 M individual requests would not fit in memory and one stream serves a whole
     * group anyway (§4.7's caching within a client group).
     */
    public record Spec(String name, int requests, int videos, int cities, int groups, int clients, double zipf,
            int[] ladderKbps, double[] mix, int durationSeconds, int games, int viewersPerGame) {

        public Spec {
            ladderKbps = ladderKbps.clone();
            mix = mix.clone();
            if (requests <= 0) {
                throw new IllegalArgumentException(name + ": " + requests + " requests; a trace has at least one");
            }
            if (videos <= 0) {
                throw new IllegalArgumentException(name + ": " + videos + " videos; a trace has at least one");
            }
            if (videos > requests) {
                throw new IllegalArgumentException(name + ": " + videos + " videos but only " + requests
                        + " requests; every video of a trace is requested at least once");
            }
            if (cities <= 0 || groups < cities) {
                throw new IllegalArgumentException(name + ": " + cities + " cities and " + groups
                        + " client groups; every city has at least one client group");
            }
            if (clients < groups || clients > requests) {
                throw new IllegalArgumentException(name + ": " + clients + " clients for " + groups + " client groups and "
                        + requests + " requests; every group has a client and every client makes a request");
            }
            if (!Double.isFinite(zipf) || zipf < 0) {
                throw new IllegalArgumentException(name + ": Zipf exponent " + zipf + " is not a finite number from 0");
            }
            if (ladderKbps.length == 0 || ladderKbps.length != mix.length) {
                throw new IllegalArgumentException(name + ": " + ladderKbps.length + " bitrates and " + mix.length
                        + " probabilities; each bitrate of the ladder has one");
            }
            double sum = 0;
            for (int i = 0; i < mix.length; i++) {
                if (ladderKbps[i] <= 0 || !(mix[i] >= 0)) {
                    throw new IllegalArgumentException(name + ": bitrate " + ladderKbps[i] + " kbit/s with probability "
                            + mix[i] + "; bitrates are positive and probabilities not negative");
                }
                sum += mix[i];
            }
            if (Math.abs(sum - 1) > 1e-6) {
                throw new IllegalArgumentException(name + ": the bitrate probabilities sum to " + sum + ", not 1");
            }
            if (Arrays.stream(ladderKbps).distinct().count() != ladderKbps.length) {
                throw new IllegalArgumentException(name + ": the ladder " + Arrays.toString(ladderKbps) + " repeats a bitrate");
            }
            if (durationSeconds < Trace.WINDOW_SECONDS) {
                throw new IllegalArgumentException(name + ": " + durationSeconds + " s is shorter than one "
                        + Trace.WINDOW_SECONDS + " s window");
            }
            if (games < 0 || viewersPerGame < 0 || (games > 0 && viewersPerGame == 0)) {
                throw new IllegalArgumentException(name + ": " + games + " games of " + viewersPerGame
                        + " viewers; neither is negative, and a game has viewers");
            }
        }

        /** The mean of the bitrate mix, kbit/s. */
        public double meanKbps() {
            double mean = 0;
            for (int i = 0; i < mix.length; i++) {
                mean += mix[i] * ladderKbps[i];
            }
            return mean;
        }

        /**
         * The same trace at {@code factor} of its requests, videos and clients (the same video/request
         * ratio, §4.7's scalability runs) and, where {@code cities} is set, of its cities and groups.
         */
        public Spec scaled(double factor, boolean cities) {
            int c = cities ? Math.max(1, (int) Math.round(this.cities * factor)) : this.cities;
            int g = cities ? Math.max(c, (int) Math.round(groups * factor)) : groups;
            int r = Math.max(1, (int) Math.round(requests * factor));
            int cl = Math.min(r, Math.max(g, (int) Math.round(clients * factor)));
            return new Spec(name, r, Math.min(r, Math.max(1, (int) Math.round(videos * factor))), c, g, cl, zipf,
                    ladderKbps, mix, durationSeconds, games, (int) Math.round(viewersPerGame * factor));
        }
    }

    /** Average Day: 55,000 requests for 4,144 videos from 18,837 clients in 2,587 cities, one hour. */
    public static Spec averageDay() {
        return new Spec("Average Day", 55_000, 4_144, 2_587, groups(2_587), 18_837, 0.80, AVERAGE_DAY_LADDER,
                AVERAGE_DAY_MIX, 3600, 0, 0);
    }

    /** Large Event: Average Day and 4 concurrent games of 1 M viewers each. */
    public static Spec largeEvent() {
        Spec day = averageDay();
        return new Spec("Large Event", day.requests(), day.videos(), day.cities(), day.groups(), day.clients(),
                day.zipf(), day.ladderKbps(), day.mix(), day.durationSeconds(), 4, 1_000_000);
    }

    /** Heavy-Tail: 240,000 requests for 10,000 videos from 82,000 clients, bitrates up to 30 Mbit/s. */
    public static Spec heavyTail() {
        return new Spec("Heavy-Tail", 240_000, 10_000, 2_587, groups(2_587), 82_000, 0.89, HEAVY_TAIL_LADDER,
                HEAVY_TAIL_MIX, 3600, 0, 0);
    }

    private static int groups(int cities) {
        return (int) Math.round(cities * GROUPS_PER_CITY);
    }

    /** Draws the trace; the same spec and seed give the same trace. */
    public static Trace generate(Spec spec, long seed) {
        Random random = new Random(seed);
        List<Trace.City> cities = new ArrayList<>();
        for (int i = 0; i < spec.cities(); i++) {
            cities.add(new Trace.City(i, 1000 * random.nextDouble(), 1000 * random.nextDouble()));
        }
        // Groups: one AS in every city, the rest in cities drawn by size; a group's share of its city's
        // clients is drawn uniformly.
        double[] citySize = zipfCdf(spec.cities(), CITY_ZIPF);
        List<Trace.Group> groups = new ArrayList<>();
        double[] groupWeight = new double[spec.groups()];
        int[] asesInCity = new int[spec.cities()];
        for (int i = 0; i < spec.groups(); i++) {
            int city = i < spec.cities() ? i : draw(citySize, random);
            groups.add(new Trace.Group("g" + city + "-as" + asesInCity[city]++, city));
            groupWeight[i] = weight(citySize, city) * (0.1 + random.nextDouble());
        }
        // Clients: each in a group drawn by weight, every group with at least one.
        double[] groupCdf = cdf(groupWeight);
        int[] clientGroup = new int[spec.clients()];
        for (int c = 0; c < spec.clients(); c++) {
            clientGroup[c] = c < spec.groups() ? c : draw(groupCdf, random);
        }
        double[] videoCdf = zipfCdf(spec.videos(), spec.zipf());
        double[] mixCdf = cdf(spec.mix());
        List<Trace.Arrival> arrivals = new ArrayList<>();
        for (int r = 0; r < spec.requests(); r++) {
            int client = r < spec.clients() ? r : random.nextInt(spec.clients());
            arrivals.add(new Trace.Arrival(spec.durationSeconds() * random.nextDouble(), clientGroup[client],
                    "v" + draw(videoCdf, random), spec.ladderKbps()[draw(mixCdf, random)], 1));
        }
        addGames(spec, random, groupWeight, arrivals);
        arrivals.sort(Comparator.comparingDouble(Trace.Arrival::seconds));
        return new Trace(spec.name(), spec.durationSeconds(), rankByRequests(cities, groups, arrivals), groups,
                spec.ladderKbps(), spec.videos() + spec.games(), spec.clients() + spec.games() * spec.viewersPerGame(),
                arrivals);
    }

    /**
     * Each game's viewers shared among the groups by weight, then among the ladder by the mix (largest
     * remainders, so the totals are exact); one arrival per (group, game, bitrate) in every window, at a
     * random time in it, since the viewers watch the whole hour.
     */
    private static void addGames(Spec spec, Random random, double[] groupWeight, List<Trace.Arrival> arrivals) {
        if (spec.games() == 0) {
            return;
        }
        int windows = (spec.durationSeconds() + Trace.WINDOW_SECONDS - 1) / Trace.WINDOW_SECONDS;
        long[] perGroup = apportion(spec.viewersPerGame(), groupWeight);
        for (int game = 1; game <= spec.games(); game++) {
            for (int g = 0; g < perGroup.length; g++) {
                long[] perBitrate = apportion(perGroup[g], spec.mix());
                for (int b = 0; b < perBitrate.length; b++) {
                    if (perBitrate[b] == 0) {
                        continue;
                    }
                    for (int w = 0; w < windows; w++) {
                        double seconds = Math.min(spec.durationSeconds(), (w + random.nextDouble()) * Trace.WINDOW_SECONDS);
                        arrivals.add(new Trace.Arrival(Math.min(seconds, spec.durationSeconds() - 1e-6), g,
                                "game" + game, spec.ladderKbps()[b], (int) perBitrate[b]));
                    }
                }
            }
        }
    }

    /** {@code total} shared in proportion to {@code weights}, by largest remainders. */
    static long[] apportion(long total, double[] weights) {
        double sum = Arrays.stream(weights).sum();
        long[] shares = new long[weights.length];
        double[] remainders = new double[weights.length];
        long given = 0;
        for (int i = 0; i < weights.length; i++) {
            double exact = total * weights[i] / sum;
            shares[i] = (long) Math.floor(exact);
            remainders[i] = exact - shares[i];
            given += shares[i];
        }
        Integer[] order = new Integer[weights.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(remainders[b], remainders[a]));
        for (int i = 0; given < total; i++, given++) {
            shares[order[i % order.length]]++;
        }
        return shares;
    }

    /** The cities in order of requests, most first (§4.7's "100 largest cities"); ties by id. */
    private static List<Trace.City> rankByRequests(List<Trace.City> cities, List<Trace.Group> groups,
            List<Trace.Arrival> arrivals) {
        long[] requests = new long[cities.size()];
        for (Trace.Arrival arrival : arrivals) {
            requests[groups.get(arrival.group()).city()] += arrival.clients();
        }
        List<Trace.City> ranked = new ArrayList<>(cities);
        ranked.sort(Comparator.comparingLong((Trace.City c) -> -requests[c.id()]).thenComparingInt(Trace.City::id));
        return ranked;
    }

    /** The cumulative distribution of a Zipf law with exponent {@code s} over ranks 0 to n-1. */
    static double[] zipfCdf(int n, double s) {
        double[] weights = new double[n];
        for (int i = 0; i < n; i++) {
            weights[i] = 1 / Math.pow(i + 1, s);
        }
        return cdf(weights);
    }

    private static double[] cdf(double[] weights) {
        double[] cdf = new double[weights.length];
        double sum = 0;
        for (int i = 0; i < weights.length; i++) {
            sum += weights[i];
            cdf[i] = sum;
        }
        for (int i = 0; i < cdf.length; i++) {
            cdf[i] /= sum;
        }
        return cdf;
    }

    private static double weight(double[] cdf, int i) {
        return i == 0 ? cdf[0] : cdf[i] - cdf[i - 1];
    }

    private static int draw(double[] cdf, Random random) {
        int i = Arrays.binarySearch(cdf, random.nextDouble());
        i = i < 0 ? -i - 1 : i;
        return Math.min(i, cdf.length - 1);
    }
}
