package io.heliograph.virtue.engine;

/**
 * The estimates of the most utilised resource the algorithms minimise (Minimax, spec §3.1, §3.5), by
 * the information each uses (Table 4.1). Every utilisation is load over capacity, directed: a NIC or a
 * link has one figure per direction.
 */
public enum Energy {

    /** SA C: the most utilised PM CPU (the VMs' CPU use over the PM's CPU count times speed). */
    CPU(true, false),
    /**
     * SA CN: CPU, and each PM NIC's utilisation from its VMs' NIC rates over the capacity of the PM
     * switch's links (intra-PM traffic counts too: the NIC counters cannot tell it apart).
     */
    CPU_NIC(true, false),
    /** SA CNTM: as {@link #CPU_NIC}, but a NIC carries only the traffic matrix's flows to and from other PMs. */
    CPU_NIC_TRAFFIC(true, false),
    /** SA All, Greedy Fill and the Model: CPU and every link, the traffic matrix routed over the topology. */
    ALL(true, true),
    /** Greedy Net: every link, no CPU. */
    NETWORK(false, true);

    private final boolean cpu;
    private final boolean links;

    Energy(boolean cpu, boolean links) {
        this.cpu = cpu;
        this.links = links;
    }

    /** Whether the estimate includes PM CPUs: an algorithm that knows CPU keeps every PM within capacity. */
    public boolean usesCpu() {
        return cpu;
    }

    /** Whether the estimate routes the traffic matrix over every link. */
    public boolean usesLinks() {
        return links;
    }
}
