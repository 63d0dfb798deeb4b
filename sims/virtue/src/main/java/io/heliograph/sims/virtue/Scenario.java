package io.heliograph.sims.virtue;

import io.heliograph.virtue.engine.ThreeTierTree;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One of the thesis's experiments (spec §4.4): its network, its tenants, how many random placements
 * it starts from, and what the thesis reports for each algorithm, to print beside ours.
 */
record Scenario(String name, String title, ThreeTierTree tree, Workload workload, int placements,
                Map<String, String> thesis, String thesisMetric) {

    /** Web, 20 VMs (6 clients, 6 Web, 8 Memcached) on 40 PMs, 16:1 (Fig. 5.3, L1105-1137). */
    static Scenario web20() {
        return new Scenario("web20", "Web, 20 VMs (6/6/8) on 40 PMs, 16:1", ThreeTierTree.thesis(10),
                new Workload().web(6, 6, 8), 50, figures(
                        "saC", "-9%",
                        "saCN", "about Random",
                        "saCNTM", "above SA CN",
                        "saAll", "above SA CNTM",
                        "greedyNet", "above SA All",
                        "greedyFill", "best (up to +42%)",
                        "model", "below Greedy Fill; 6% of solves within 10% of the bound in 3 h"),
                "Random's best and worst differ more than 2x; 3 of 200 network-aware placements worse");
    }

    /** Web, 120 VMs (36/36/48) on 80 PMs (Fig. 5.5, L1153-1159). */
    static Scenario web120() {
        return new Scenario("web120", "Web, 120 VMs (36/36/48) on 80 PMs, 16:1", ThreeTierTree.thesis(20),
                new Workload().web(36, 36, 48), 25, figures(
                        "saC", "improves just over 60%",
                        "saCN", "improves just over 60%",
                        "saAll", "+2% (42% harmed)",
                        "greedyFill", "+26% (12% harmed)"),
                "Greedy Fill >> SA All");
    }

    /** Hadoop Terasort of 2 GB on 20 VMs, 40 PMs (Fig. 5.6, L1171-1183). */
    static Scenario hadoop20() {
        return new Scenario("hadoop20", "Hadoop Terasort 2 GB, 20 VMs on 40 PMs, 16:1", ThreeTierTree.thesis(10),
                new Workload().hadoop(20, 2e9), 50, figures(
                        "saC", "improves > 90%",
                        "saCN", "improves > 90%",
                        "saCNTM", "improves > 90%",
                        "saAll", "improves > 90%",
                        "greedyNet", "about Random",
                        "greedyFill", "best",
                        "model", "varies widely: not near-optimal in time"),
                "Random median 139.5 s; network-aware at most 17% faster than CPU-aware");
    }

    /** Hadoop Terasort of 6 GB on 120 VMs, 80 PMs (Fig. 5.7, L1185-1189). */
    static Scenario hadoop120() {
        return new Scenario("hadoop120", "Hadoop Terasort 6 GB, 120 VMs on 80 PMs, 16:1", ThreeTierTree.thesis(20),
                new Workload().hadoop(120, 6e9), 25, figures(
                        "saC", "beats Random mostly",
                        "saCN", "beats Random mostly",
                        "saCNTM", "beats Random mostly",
                        "saAll", "beats Random mostly",
                        "greedyNet", "worst (packs VMs)",
                        "greedyFill", "beats Random mostly"),
                "Random median 158 s; network-aware no better than CPU-aware");
    }

    /**
     * Multi-tenant, 120 VMs on 80 PMs: a 30-VM Terasort of 2 GB and 90 Web VMs in 11 services of
     * 3, 3, 3, 3, 3, 7, 7, 7, 10, 14 and 30 VMs (Fig. 5.8, L1191-1209).
     */
    static Scenario multitenant() {
        return multitenant("multitenant", "Multi-tenant, 30 Hadoop + 90 Web VMs in 11 services on 80 PMs, 16:1",
                ThreeTierTree.thesis(20), 25);
    }

    static Scenario multitenant(String name, String title, ThreeTierTree tree, int placements) {
        Workload workload = new Workload().hadoop(30, 2e9);
        for (int size : new int[] {3, 3, 3, 3, 3, 7, 7, 7, 10, 14, 30}) {
            workload.web(size);
        }
        return new Scenario(name, title, tree, workload, placements, figures(
                "saC", "-9% (Hadoop 9% sooner)",
                "saCN", "not given",
                "saCNTM", "+10%",
                "greedyNet", "+39%",
                "saAll", "+55%",
                "greedyFill", "+74% (Hadoop 9% sooner)"),
                "Web throughput; Greedy Net, SA All and Greedy Fill beat Random in 96% of placements");
    }

    /** The named scenario of the simple kind (not table52 or iterative, which are made of these). */
    static Scenario named(String name) {
        return switch (name) {
            case "web20" -> web20();
            case "web120" -> web120();
            case "hadoop20" -> hadoop20();
            case "hadoop120" -> hadoop120();
            case "multitenant" -> multitenant();
            default -> throw new IllegalArgumentException("no scenario " + name);
        };
    }

    /** A copy with {@code placements} random placements instead of the thesis's number. */
    Scenario withPlacements(int count) {
        return new Scenario(name, title, tree, workload, count, thesis, thesisMetric);
    }

    boolean web() {
        return !workload.services().isEmpty();
    }

    boolean hadoop() {
        return !workload.jobs().isEmpty();
    }

    private static Map<String, String> figures(String... pairs) {
        Map<String, String> figures = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            figures.put(pairs[i], pairs[i + 1]);
        }
        return figures;
    }
}
