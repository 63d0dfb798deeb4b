package io.heliograph.sims.virtue;

import java.util.ArrayList;
import java.util.List;

/**
 * Max-min fair rates by progressive filling: every user's rate rises together until a resource fills
 * (the users on it stop there) or a user reaches its own cap, until every user has stopped. A user
 * takes {@code perUnit[i]} of {@code resources[i]} per unit of its rate, so a flow takes 1 of each link
 * of its path per bit/s, and a client takes each link's bits of one request per request/s.
 */
final class FairShare {

    /** A resource counts as full when less than this fraction of it is left. */
    private static final double FULL = 1e-9;

    /** A user: what it uses per unit of rate, and the most it wants (infinite: elastic). */
    record User(int[] resources, double[] perUnit, double cap) {

        User {
            if (resources.length != perUnit.length) {
                throw new IllegalArgumentException("a figure per resource");
            }
            if (resources.length == 0 && Double.isInfinite(cap)) {
                throw new IllegalArgumentException("an elastic user that uses nothing has no rate");
            }
        }
    }

    private FairShare() {
    }

    /** The max-min fair rates of {@code users} on resources of the given capacities. */
    static double[] rates(List<User> users, double[] capacity) {
        int n = users.size();
        double[] rate = new double[n];
        boolean[] stopped = new boolean[n];
        double[] left = capacity.clone();
        double[] weight = new double[capacity.length];
        int[] running = new int[capacity.length];
        List<List<Integer>> usersOf = new ArrayList<>();
        for (int k = 0; k < capacity.length; k++) {
            usersOf.add(new ArrayList<>());
        }
        for (int u = 0; u < n; u++) {
            User user = users.get(u);
            for (int i = 0; i < user.resources.length; i++) {
                int k = user.resources[i];
                weight[k] += user.perUnit[i];
                running[k]++;
                usersOf.get(k).add(u);
            }
        }
        int active = n;
        double level = 0;
        while (active > 0) {
            double room = Double.POSITIVE_INFINITY;
            int fills = -1;
            for (int k = 0; k < capacity.length; k++) {
                if (running[k] > 0 && weight[k] > 0 && Math.max(0, left[k]) / weight[k] < room) {
                    room = Math.max(0, left[k]) / weight[k];
                    fills = k;
                }
            }
            double toCap = Double.POSITIVE_INFINITY;
            for (int u = 0; u < n; u++) {
                if (!stopped[u]) {
                    toCap = Math.min(toCap, users.get(u).cap - level);
                }
            }
            double step = Math.max(0, Math.min(room, toCap));
            if (Double.isInfinite(step)) {
                throw new IllegalStateException("an elastic user on no finite resource");
            }
            level += step;
            for (int k = 0; k < capacity.length; k++) {
                if (running[k] > 0) {
                    left[k] -= step * weight[k];
                }
            }
            if (room <= toCap) {
                left[fills] = 0;
            }
            for (int u = 0; u < n; u++) {
                if (!stopped[u] && users.get(u).cap <= level) {
                    active -= stop(u, users.get(u), level, rate, stopped, weight, running);
                }
            }
            for (int k = 0; k < capacity.length; k++) {
                if (running[k] > 0 && left[k] <= FULL * capacity[k]) {
                    for (int u : usersOf.get(k)) {
                        if (!stopped[u]) {
                            active -= stop(u, users.get(u), level, rate, stopped, weight, running);
                        }
                    }
                }
            }
        }
        return rate;
    }

    private static int stop(int u, User user, double level, double[] rate, boolean[] stopped, double[] weight,
                            int[] running) {
        stopped[u] = true;
        rate[u] = Math.min(level, user.cap);
        for (int i = 0; i < user.resources.length; i++) {
            int k = user.resources[i];
            weight[k] -= user.perUnit[i];
            if (--running[k] == 0) {
                weight[k] = 0;
            }
        }
        return 1;
    }

    /**
     * Runs users that each have an amount of work until all is done, the rates shared max-min fairly
     * again whenever one finishes; the time it takes.
     */
    static double drain(List<User> users, double[] amount, double[] capacity) {
        List<User> active = new ArrayList<>();
        List<Double> left = new ArrayList<>();
        for (int u = 0; u < users.size(); u++) {
            if (amount[u] > 0) {
                active.add(users.get(u));
                left.add(amount[u]);
            }
        }
        double time = 0;
        while (!active.isEmpty()) {
            double[] rate = rates(active, capacity);
            double step = Double.POSITIVE_INFINITY;
            for (int u = 0; u < active.size(); u++) {
                if (rate[u] <= 0) {
                    throw new IllegalStateException("work that no capacity serves");
                }
                step = Math.min(step, left.get(u) / rate[u]);
            }
            time += step;
            List<User> stillActive = new ArrayList<>();
            List<Double> stillLeft = new ArrayList<>();
            for (int u = 0; u < active.size(); u++) {
                double remaining = left.get(u) - rate[u] * step;
                if (remaining > 1e-9 * left.get(u) && left.get(u) / rate[u] > step) {
                    stillActive.add(active.get(u));
                    stillLeft.add(remaining);
                }
            }
            active = stillActive;
            left = stillLeft;
        }
        return time;
    }
}
