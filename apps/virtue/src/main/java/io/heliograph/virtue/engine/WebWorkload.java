package io.heliograph.virtue.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Web-like placement problems for runtime figures and benchmarks (not the simulator's workload): clients,
 * Web VMs and Memcached VMs placed at random on a {@link ThreeTierTree}, with random CPU use; each client
 * talks to one random Web VM (small requests up, large responses down), each Web VM to
 * {@code cachesPerWeb} consecutive Memcached VMs and back. The same seed gives the same problem.
 */
public final class WebWorkload {

    private WebWorkload() {
    }

    /**
     * The thesis's large size: 120 VMs (36 clients, 36 Web VMs each talking to all 48 Memcached VMs:
     * 3,528 flows) on 80 PMs of its 16:1 tree, at most 4 VMs a PM.
     */
    public static PlacementProblem web120(long seed) {
        return of(ThreeTierTree.thesis(20), 36, 36, 48, 48, EdfFormat.DEFAULT_MAX_VMS_PER_PM, seed);
    }

    /**
     * 1,000 VMs (300 clients, 300 Web VMs each talking to 20 of 400 Memcached VMs: 12,600 flows) on 500
     * PMs: 5 aggregation switches of 5 racks of 20 PMs, 100 Mb/s edges, 4:1 at the ToR and 4:1 at the
     * aggregation layer; at most 4 VMs a PM.
     */
    public static PlacementProblem web1000(long seed) {
        ThreeTierTree tree = new ThreeTierTree(5, 5, 20, 100e6, 500e6, 625e6);
        return of(tree, 300, 300, 400, 20, EdfFormat.DEFAULT_MAX_VMS_PER_PM, seed);
    }

    /**
     * 10,000 VMs (3,000 clients, 3,000 Web VMs each talking to 20 of 4,000 Memcached VMs: 126,000 flows)
     * on 2,000 PMs: 10 aggregation switches of 10 racks of 20 PMs, 100 Mb/s edges, 4:1 at the ToR and
     * 4:1 at the aggregation layer. 10,000 VMs do not fit 2,000 PMs of 4 slots, so here a PM takes 8.
     */
    public static PlacementProblem web10000(long seed) {
        ThreeTierTree tree = new ThreeTierTree(10, 10, 20, 100e6, 500e6, 1250e6);
        return of(tree, 3000, 3000, 4000, 20, 8, seed);
    }

    /**
     * A Web-like experiment from a random start (at most {@code maxVmsPerPm} VMs a PM): VMs
     * {@code 0..clients-1} are clients, then the Web VMs, then the Memcached VMs.
     */
    public static PlacementProblem of(ThreeTierTree tree, int clients, int webs, int caches, int cachesPerWeb,
                                      int maxVmsPerPm, long seed) {
        if (clients < 0 || webs < 1 || caches < 1 || cachesPerWeb < 0 || cachesPerWeb > caches) {
            throw new IllegalArgumentException("a Web workload needs Web and Memcached VMs, and at most "
                    + caches + " caches a Web VM");
        }
        SplittableRandom random = new SplittableRandom(seed);
        int n = clients + webs + caches;
        int[] pmOf = RandomPlacement.assignment(n, tree.pmCount(), maxVmsPerPm, random.nextLong());
        Measurements.Builder measured = Measurements.builder();
        List<int[]> pairs = new ArrayList<>();
        for (int v = 0; v < n; v++) {
            measured.cpu(ThreeTierTree.vmId(v), random.nextDouble(0.2e9, 1.2e9));
        }
        for (int c = 0; c < clients; c++) {
            int web = clients + random.nextInt(webs);
            flow(measured, pairs, c, web, random.nextDouble(0.2e6, 0.6e6));
            flow(measured, pairs, web, c, random.nextDouble(8e6, 25e6));
        }
        for (int w = clients; w < clients + webs; w++) {
            int first = random.nextInt(caches);
            for (int k = 0; k < cachesPerWeb; k++) {
                int m = clients + webs + (first + k) % caches;
                flow(measured, pairs, w, m, random.nextDouble(0.01e6, 0.05e6));
                flow(measured, pairs, m, w, random.nextDouble(0.05e6, 0.3e6));
            }
        }
        return PlacementProblem.of(tree.edf(pmOf, pairs), measured.build(), maxVmsPerPm);
    }

    private static void flow(Measurements.Builder measured, List<int[]> pairs, int a, int b, double bps) {
        pairs.add(new int[] {a, b});
        measured.traffic(ThreeTierTree.vmId(a), ThreeTierTree.vmId(b), bps);
    }
}
