package io.heliograph.sims.virtue;

import io.heliograph.virtue.engine.Edf;
import io.heliograph.virtue.engine.Measurements;
import io.heliograph.virtue.engine.Placement;
import io.heliograph.virtue.engine.PlacementProblem;
import io.heliograph.virtue.engine.ThreeTierTree;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a workload on a placement with a flow-level model (spec §4.6): what each Web service serves
 * and each Hadoop job takes, and what a controller would have measured meanwhile, the traffic matrix
 * and each VM's CPU, averaged over the run.
 *
 * <p>Resources are the network's directed links (the engine's, with its fewest-hops routes), each PM's
 * CPU ({@code CPU_COUNT x CPU_SPEED}) and each VM's one virtual CPU (one core, {@code CPU_SPEED}). A Web client is a closed loop: its
 * request rate is max-min fair among the clients ({@link FairShare}), each request using every link and
 * CPU on its way in proportion (its transfers, its calls to Memcached and the CPU each costs, averaged
 * over the random choice of Web and Memcached VMs), and at most its 20 outstanding requests over their
 * time with no queue. A Hadoop job runs map, shuffle, map, shuffle, reduce, each phase until its last
 * VM finishes: CPU shared max-min fairly among the VMs of a PM within their virtual CPUs, the shuffle's
 * flows max-min fairly on the links, shared again whenever one finishes. Web and Hadoop tenants of one
 * experiment meet through each other's load averaged over the run, each keeping at least half of
 * any resource they share.
 */
final class Simulator {

    /** What one run of a placement gave. */
    record Outcome(double requestsPerSecond, double[] serviceRequestsPerSecond, double responseSeconds,
                   double hadoopSeconds, Measurements measured) {
    }

    private final Workload workload;
    private final PlacementProblem problem;
    private final int links;
    private final int pms;
    private final Map<String, Integer> pmNumber = new HashMap<>();
    /** Per PM, one core's cycles per second (its {@code CPU_SPEED}): what a VM's one virtual CPU can use. */
    private final double[] coreSpeed;

    /** A simulator of {@code workload} on the network of {@code problem} (its EDF's PMs and links). */
    Simulator(Workload workload, PlacementProblem problem) {
        this.workload = workload;
        this.problem = problem;
        this.links = problem.linkCount();
        this.pms = problem.pmCount();
        this.coreSpeed = new double[pms];
        for (int p = 0; p < pms; p++) {
            Edf.Pm pm = problem.edf().pms().get(p);
            pmNumber.put(pm.id(), p);
            coreSpeed[p] = Double.parseDouble(pm.parameters().getOrDefault(Edf.CPU_SPEED,
                    problem.edf().parameters().get(Edf.CPU_SPEED)));
        }
    }

    /** Runs the workload with each VM on the PM {@code pmByVm} names. */
    Outcome run(Map<String, String> pmByVm) {
        return new Run(problem.placement(pmByVm)).outcome();
    }

    /** One placement's run. */
    private final class Run {

        private final Placement placement;
        private final int[] pmOf;
        private final double[] capacity;
        private final Map<Long, int[]> paths = new HashMap<>();

        Run(Placement placement) {
            this.placement = placement;
            int n = workload.vmCount();
            pmOf = new int[n];
            for (int v = 0; v < n; v++) {
                pmOf[v] = pmNumber.get(placement.pmOf(ThreeTierTree.vmId(v)));
            }
            capacity = new double[links + pms + n];
            for (int l = 0; l < links; l++) {
                capacity[l] = problem.linkBitsPerSecond(l);
            }
            for (int p = 0; p < pms; p++) {
                capacity[links + p] = problem.cpuCyclesPerSecond(problem.edf().pms().get(p).id());
            }
            for (int v = 0; v < n; v++) {
                capacity[vcpu(v)] = coreSpeed[pmOf[v]];
            }
        }

        Outcome outcome() {
            Web web = null;
            Hadoop hadoop = null;
            if (workload.jobs().isEmpty()) {
                web = web(capacity);
            } else if (workload.services().isEmpty()) {
                hadoop = hadoop(capacity);
            } else {
                web = web(capacity);
                hadoop = hadoop(besides(web.usage));
                web = web(besides(hadoop.usage));
                hadoop = hadoop(besides(web.usage));
            }
            Measurements.Builder measured = Measurements.builder();
            double[] cpu = new double[workload.vmCount()];
            Map<Long, Double> traffic = new LinkedHashMap<>();
            for (Usage usage : new Usage[] {web, hadoop}) {
                if (usage != null) {
                    for (int v = 0; v < cpu.length; v++) {
                        cpu[v] += usage.cpu[v];
                    }
                    usage.traffic.forEach((pair, bps) -> traffic.merge(pair, bps, Double::sum));
                }
            }
            for (int v = 0; v < cpu.length; v++) {
                measured.cpu(ThreeTierTree.vmId(v), cpu[v]);
            }
            int n = workload.vmCount();
            traffic.forEach((pair, bps) -> measured.traffic(ThreeTierTree.vmId((int) (pair / n)),
                    ThreeTierTree.vmId((int) (pair % n)), bps));
            return new Outcome(web == null ? 0 : web.requests, web == null ? new double[0] : web.perService,
                    web == null ? Double.NaN : web.responseSeconds, hadoop == null ? Double.NaN : hadoop.seconds,
                    measured.build());
        }

        /** Capacities left beside another tenant's usage, each tenant keeping at least half of a resource. */
        private double[] besides(double[] other) {
            double[] left = new double[capacity.length];
            for (int k = 0; k < left.length; k++) {
                left[k] = capacity[k] - Math.min(other[k], capacity[k] / 2);
            }
            return left;
        }

        private int cpu(int vm) {
            return links + pmOf[vm];
        }

        private int vcpu(int vm) {
            return links + pms + vm;
        }

        private int[] path(int a, int b) {
            return paths.computeIfAbsent((long) a * workload.vmCount() + b,
                    key -> problem.path(placement, ThreeTierTree.vmId(a), ThreeTierTree.vmId(b)));
        }

        /** The time a message of {@code bytes} takes from a to b with no queue (a delay per fabric link). */
        private double alone(int a, int b, double bytes) {
            int[] path = path(a, b);
            double slowest = Double.POSITIVE_INFINITY;
            for (int l : path) {
                slowest = Math.min(slowest, capacity[l]);
            }
            return Costs.MESSAGE_SECONDS + (path.length - 2) * Costs.HOP_SECONDS + bytes * 8 / slowest;
        }

        private Web web(double[] capacity) {
            List<FairShare.User> users = new ArrayList<>();
            List<double[]> perRequest = new ArrayList<>();
            for (Workload.WebService service : workload.services()) {
                double webShare = 1.0 / service.webs().length;
                double callShare = (double) Costs.CACHE_CALLS / service.caches().length;
                for (int c : service.clients()) {
                    double[] use = new double[this.capacity.length];
                    double seconds = clientCycles() / this.capacity[vcpu(c)];
                    cycles(use, c, clientCycles());
                    for (int w : service.webs()) {
                        seconds += webShare * (alone(c, w, Costs.REQUEST_BYTES) + alone(w, c, Costs.RESPONSE_BYTES)
                                + webCycles() / this.capacity[vcpu(w)]);
                        bits(use, c, w, webShare * Costs.REQUEST_BYTES);
                        bits(use, w, c, webShare * Costs.RESPONSE_BYTES);
                        cycles(use, w, webShare * webCycles());
                        for (int m : service.caches()) {
                            double share = webShare * callShare;
                            seconds += share * (alone(w, m, Costs.CACHE_REQUEST_BYTES)
                                    + alone(m, w, Costs.CACHE_RESPONSE_BYTES) + cacheCycles() / this.capacity[vcpu(m)]);
                            bits(use, w, m, share * Costs.CACHE_REQUEST_BYTES);
                            bits(use, m, w, share * Costs.CACHE_RESPONSE_BYTES);
                            cycles(use, m, share * cacheCycles());
                        }
                    }
                    users.add(sparse(use, Costs.OUTSTANDING_REQUESTS / seconds));
                    perRequest.add(use);
                }
            }
            double[] rate = FairShare.rates(users, capacity);
            Web web = new Web(this.capacity.length, workload.vmCount());
            web.perService = new double[workload.services().size()];
            int u = 0;
            double outstanding = 0;
            for (int s = 0; s < workload.services().size(); s++) {
                Workload.WebService service = workload.services().get(s);
                int first = u;
                u += service.clients().length;
                double served = 0;
                for (int i = 0; i < service.clients().length; i++) {
                    int c = service.clients()[i];
                    double[] use = perRequest.get(first + i);
                    for (int k = 0; k < use.length; k++) {
                        web.usage[k] += use[k] * rate[first + i];
                    }
                    served += rate[first + i];
                    outstanding += Costs.OUTSTANDING_REQUESTS;
                    web.cpu[c] += rate[first + i] * clientCycles();
                    for (int w : service.webs()) {
                        web.flow(c, w, rate[first + i] / service.webs().length * Costs.REQUEST_BYTES * 8);
                        web.flow(w, c, rate[first + i] / service.webs().length * Costs.RESPONSE_BYTES * 8);
                    }
                }
                web.perService[s] = served;
                web.requests += served;
                double perWeb = served / service.webs().length;
                double calls = perWeb * Costs.CACHE_CALLS / service.caches().length;
                for (int w : service.webs()) {
                    web.cpu[w] += perWeb * webCycles();
                    for (int m : service.caches()) {
                        web.flow(w, m, calls * Costs.CACHE_REQUEST_BYTES * 8);
                        web.flow(m, w, calls * Costs.CACHE_RESPONSE_BYTES * 8);
                    }
                }
                for (int m : service.caches()) {
                    web.cpu[m] += served * Costs.CACHE_CALLS / service.caches().length * cacheCycles();
                }
            }
            web.responseSeconds = outstanding / web.requests;
            return web;
        }

        private void bits(double[] use, int a, int b, double bytes) {
            for (int l : path(a, b)) {
                use[l] += bytes * 8;
            }
        }

        private void cycles(double[] use, int vm, double cycles) {
            use[vcpu(vm)] += cycles;
            use[cpu(vm)] += cycles;
        }

        private Hadoop hadoop(double[] capacity) {
            Hadoop hadoop = new Hadoop(this.capacity.length, workload.vmCount());
            double seconds = Costs.JOB_SETUP_SECONDS;
            for (int phase = 0; phase < 5; phase++) {
                List<FairShare.User> users = new ArrayList<>();
                List<Double> amounts = new ArrayList<>();
                for (Workload.HadoopJob job : workload.jobs()) {
                    int n = job.vms().length;
                    double perVm = job.bytes() / n;
                    if (phase % 2 == 0) {
                        double cycles = perVm * Costs.SORT_CYCLES_PER_BYTE / (phase == 4 ? 2 : 4);
                        for (int v : job.vms()) {
                            users.add(new FairShare.User(new int[] {vcpu(v), cpu(v)}, new double[] {1, 1},
                                    Double.POSITIVE_INFINITY));
                            amounts.add(cycles);
                            hadoop.cpu[v] += cycles;
                            hadoop.usage[vcpu(v)] += cycles;
                            hadoop.usage[cpu(v)] += cycles;
                        }
                    } else {
                        shuffle(job, perVm / n / 2 * 8, users, amounts, hadoop);
                    }
                }
                double[] amount = amounts.stream().mapToDouble(Double::doubleValue).toArray();
                seconds += FairShare.drain(users, amount, capacity);
            }
            hadoop.seconds = seconds;
            for (int k = 0; k < hadoop.usage.length; k++) {
                hadoop.usage[k] /= seconds;
            }
            for (int v = 0; v < hadoop.cpu.length; v++) {
                hadoop.cpu[v] /= seconds;
            }
            hadoop.traffic.replaceAll((pair, bits) -> bits / hadoop.seconds);
            return hadoop;
        }

        /**
         * One all-to-all burst of {@code bits} from every VM of the job to every other: a flow per pair of
         * VMs on one PM (it crosses their two VM links), and the flows between two PMs as one user with a
         * share per flow on the links between the PMs' switches (they are all alike there; a VM's own
         * link, 200 Mb/s, is never the narrower beside its PM's 100 Mb/s edge).
         */
        private void shuffle(Workload.HadoopJob job, double bits, List<FairShare.User> users, List<Double> amounts,
                             Hadoop hadoop) {
            Map<Long, Integer> flowsBetween = new LinkedHashMap<>();
            Map<Long, int[]> fabric = new HashMap<>();
            for (int a : job.vms()) {
                for (int b : job.vms()) {
                    if (a == b) {
                        continue;
                    }
                    int[] path = path(a, b);
                    for (int l : path) {
                        hadoop.usage[l] += bits;
                    }
                    hadoop.flow(a, b, bits);
                    if (pmOf[a] == pmOf[b]) {
                        users.add(new FairShare.User(path, ones(path.length), Double.POSITIVE_INFINITY));
                        amounts.add(bits);
                    } else {
                        long key = (long) pmOf[a] * pms + pmOf[b];
                        flowsBetween.merge(key, 1, Integer::sum);
                        fabric.putIfAbsent(key, Arrays.copyOfRange(path, 1, path.length - 1));
                    }
                }
            }
            flowsBetween.forEach((key, flows) -> {
                int[] path = fabric.get(key);
                double[] perUnit = new double[path.length];
                Arrays.fill(perUnit, flows);
                users.add(new FairShare.User(path, perUnit, Double.POSITIVE_INFINITY));
                amounts.add(bits);
            });
        }
    }

    private static double[] ones(int length) {
        double[] ones = new double[length];
        Arrays.fill(ones, 1);
        return ones;
    }

    private static FairShare.User sparse(double[] use, double cap) {
        int count = 0;
        for (double value : use) {
            count += value > 0 ? 1 : 0;
        }
        int[] resources = new int[count];
        double[] perUnit = new double[count];
        int i = 0;
        for (int k = 0; k < use.length; k++) {
            if (use[k] > 0) {
                resources[i] = k;
                perUnit[i++] = use[k];
            }
        }
        return new FairShare.User(resources, perUnit, cap);
    }

    /** CPU a client spends per request: sending it and reading the response. */
    static double clientCycles() {
        return 2 * Costs.CYCLES_PER_MESSAGE + (Costs.REQUEST_BYTES + Costs.RESPONSE_BYTES) * Costs.CYCLES_PER_BYTE;
    }

    /** CPU a Web VM spends per request: the request, the response and its Memcached calls. */
    static double webCycles() {
        return (2 + 2 * Costs.CACHE_CALLS) * Costs.CYCLES_PER_MESSAGE + (Costs.REQUEST_BYTES + Costs.RESPONSE_BYTES
                + Costs.CACHE_CALLS * (Costs.CACHE_REQUEST_BYTES + Costs.CACHE_RESPONSE_BYTES)) * Costs.CYCLES_PER_BYTE;
    }

    /** CPU a Memcached VM spends per call. */
    static double cacheCycles() {
        return 2 * Costs.CYCLES_PER_MESSAGE + (Costs.CACHE_REQUEST_BYTES + Costs.CACHE_RESPONSE_BYTES) * Costs.CYCLES_PER_BYTE;
    }

    /** What a tenant used on average over the run, and what a controller measured of it. */
    private static class Usage {
        final double[] usage;
        final double[] cpu;
        final Map<Long, Double> traffic = new LinkedHashMap<>();
        private final int vms;

        Usage(int resources, int vms) {
            this.usage = new double[resources];
            this.cpu = new double[vms];
            this.vms = vms;
        }

        void flow(int a, int b, double bitsPerSecond) {
            traffic.merge((long) a * vms + b, bitsPerSecond, Double::sum);
        }
    }

    private static final class Web extends Usage {
        double requests;
        double[] perService;
        double responseSeconds;

        Web(int resources, int vms) {
            super(resources, vms);
        }
    }

    private static final class Hadoop extends Usage {
        double seconds;

        Hadoop(int resources, int vms) {
            super(resources, vms);
        }
    }
}
