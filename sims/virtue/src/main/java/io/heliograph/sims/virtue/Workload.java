package io.heliograph.sims.virtue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The tenants of an experiment: Web services (clients, Web tier, Memcached tier; spec §4.3) and
 * Hadoop Terasort jobs. VMs are numbered in the order the tenants are given, each tenant's VMs
 * consecutive (VM i is {@code ThreeTierTree.vmId(i)}).
 */
final class Workload {

    /**
     * A client + 2-tier Web service: each client keeps 20 requests outstanding, each to a Web VM of the
     * service chosen at random; the Web VM makes 10 sequential calls to random Memcached VMs of the
     * service, then answers.
     */
    record WebService(int[] clients, int[] webs, int[] caches) {
    }

    /** A Hadoop Terasort job over its VMs, sorting {@code bytes} in all. */
    record HadoopJob(int[] vms, double bytes) {
    }

    private final List<WebService> services = new ArrayList<>();
    private final List<HadoopJob> jobs = new ArrayList<>();
    private int vms;

    /** A Web service of the given tier sizes, its VMs next in number. */
    Workload web(int clients, int webs, int caches) {
        if (clients < 1 || webs < 1 || caches < 1) {
            throw new IllegalArgumentException("a Web service needs a client, a Web VM and a Memcached VM");
        }
        services.add(new WebService(next(clients), next(webs), next(caches)));
        return this;
    }

    /**
     * A Web service of {@code size} VMs split in the thesis's best ratio, client:Web:Memcached =
     * 1:1:1.333 (spec §4.3), each tier at least one VM: 3 is 1/1/1, 7 is 2/2/3, 30 is 9/9/12.
     */
    Workload web(int size) {
        if (size < 3) {
            throw new IllegalArgumentException("a Web service needs at least 3 VMs, not " + size);
        }
        int clients = Math.max(1, (int) Math.round(size / 3.333));
        int caches = size - 2 * clients;
        return web(clients, clients, caches);
    }

    /** A Hadoop Terasort job of {@code vms} VMs sorting {@code bytes}. */
    Workload hadoop(int vms, double bytes) {
        if (vms < 2 || !(bytes > 0)) {
            throw new IllegalArgumentException("a Hadoop job needs 2 VMs or more and data to sort");
        }
        jobs.add(new HadoopJob(next(vms), bytes));
        return this;
    }

    private int[] next(int count) {
        int[] numbers = IntStream.range(vms, vms + count).toArray();
        vms += count;
        return numbers;
    }

    List<WebService> services() {
        return services;
    }

    List<HadoopJob> jobs() {
        return jobs;
    }

    int vmCount() {
        return vms;
    }
}
