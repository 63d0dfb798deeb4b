package io.heliograph.routing.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * A k-ary fat tree (Al-Fares et al.): (k/2)^2 core switches, and k pods of k/2 aggregation and k/2
 * edge switches; every edge switch links to every aggregation switch of its pod, and aggregation
 * switch i of each pod links to cores i*(k/2) .. i*(k/2)+k/2-1. k=4 gives 20 switches and 32 cables.
 *
 * <p>Ports: an edge switch keeps 1..k/2 for hosts and uses k/2+1..k towards aggregation; an
 * aggregation switch uses 1..k/2 towards edges and k/2+1..k towards cores; core port p+1 faces pod p.
 * Dpids: cores 1.., then pod by pod its aggregation switches, then its edge switches.
 */
final class FatTree {

    final int k;
    private final int half;
    private final TestNetwork network = new TestNetwork();

    FatTree(int k) {
        if (k < 2 || k % 2 != 0) {
            throw new IllegalArgumentException("k must be even and at least 2, was " + k);
        }
        this.k = k;
        this.half = k / 2;
        for (int pod = 0; pod < k; pod++) {
            for (int a = 0; a < half; a++) {
                for (int e = 0; e < half; e++) {
                    network.cable(edge(pod, e), half + 1 + a, agg(pod, a), 1 + e);
                }
                for (int c = 0; c < half; c++) {
                    network.cable(agg(pod, a), half + 1 + c, core(a * half + c), pod + 1);
                }
            }
        }
    }

    long core(int i) {
        return 1 + i;
    }

    long agg(int pod, int i) {
        return 1 + half * half + pod * k + i;
    }

    long edge(int pod, int i) {
        return 1 + half * half + pod * k + half + i;
    }

    int switchCount() {
        return half * half + k * k;
    }

    List<Long> edges() {
        List<Long> edges = new ArrayList<>();
        for (int pod = 0; pod < k; pod++) {
            for (int i = 0; i < half; i++) {
                edges.add(edge(pod, i));
            }
        }
        return edges;
    }

    boolean isCore(long dpid) {
        return dpid <= (long) half * half;
    }

    TestNetwork network() {
        return network;
    }
}
