package io.heliograph.sims.virtue;

/**
 * What the simulated machines and workloads cost. The sizes are the thesis's (spec §4.3); the costs
 * the thesis does not give are set here once, from outside sources, before any result was seen, and
 * never tuned toward a result of the thesis (the README says where each comes from).
 */
final class Costs {

    // The Web workload, as the thesis's EDF and spec §4.3 give it.
    /** Requests a client keeps outstanding (the EDF's parallelRequests). */
    static final int OUTSTANDING_REQUESTS = 20;
    /** A client's request (the EDF's writeMin/Max, 700 to 800 B). */
    static final double REQUEST_BYTES = 750;
    /** A Web VM's response (the EDF's responseMin/Max). */
    static final double RESPONSE_BYTES = 34_467;
    /** Sequential Memcached calls a Web VM makes per request (the EDF's nextTierConnections). */
    static final int CACHE_CALLS = 10;
    /** A Memcached request (the EDF's nextTierWriteMin/Max). */
    static final double CACHE_REQUEST_BYTES = 100;
    /**
     * A Memcached value: the mean of the generalised Pareto fit of Facebook's ETC value sizes
     * (sigma 214.476, xi 0.348238; Atikoglu et al., SIGMETRICS 2012), sigma / (1 - xi).
     */
    static final double CACHE_RESPONSE_BYTES = 214.476 / (1 - 0.348238);

    // CPU per message, for every VM that sends or receives one (not in the thesis: its synthetic
    // workload asks for no CPU per request, so the CPU its VMs used was the cost of their I/O).
    /** Fixed cost of a message at each end: a system call, the hypervisor's event and the Java handler (about 36 us). */
    static final double CYCLES_PER_MESSAGE = 100_000;
    /**
     * Cost per byte sent or received by a paravirtualised NIC of the thesis's era: about a 2.8 GHz core
     * for 1 Gb/s at each end (Menon et al., "Optimizing network virtualization in Xen", USENIX ATC 2006).
     */
    static final double CYCLES_PER_BYTE = 2.8e9 / 125e6;

    // Latency of a message with no queue: the client's window of 20 requests bounds its rate by it.
    /** A message through the hypervisor's switch at both ends. */
    static final double MESSAGE_SECONDS = 100e-6;
    /** Each physical switch on the way. */
    static final double HOP_SECONDS = 5e-6;

    // Hadoop 0.20 Terasort.
    /**
     * Core cycles per byte sorted, end to end: Yahoo's 2008 record sorted 1 TB in 209 s on 910 nodes
     * of 8 cores at 2.0 GHz (O'Malley, "TeraByte Sort on Apache Hadoop", 2008), about 3,000 core-cycles
     * a byte; half is counted as map work, half as reduce work.
     */
    static final double SORT_CYCLES_PER_BYTE = 910 * 8 * 2.0e9 * 209 / 1e12;
    /** A job's start and end (JVMs, task scheduling, commit), the same wherever its VMs are. */
    static final double JOB_SETUP_SECONDS = 20;

    private Costs() {
    }
}
