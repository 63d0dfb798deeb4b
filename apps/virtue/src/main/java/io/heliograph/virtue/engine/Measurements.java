package io.heliograph.virtue.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run measured, averaged over the run (spec §3.5): each VM's CPU use in cycles per second, each
 * VM's NIC rates in bits per second (sent and received), and the traffic matrix, the rate from one VM
 * to another in bits per second. Optimisers are fed these achieved rates, not the true demand.
 *
 * <p>A VM without a CPU figure is taken as idle; a VM without NIC figures is given the sums of its row
 * and column of the traffic matrix (what its NIC would have counted). {@link PlacementProblem} checks the
 * figures against the EDF.
 */
public final class Measurements {

    /** One entry of the traffic matrix. */
    public record Flow(String source, String destination, double bitsPerSecond) {
    }

    /** A VM's NIC rates. */
    public record Nic(double sentBitsPerSecond, double receivedBitsPerSecond) {
    }

    private final Map<String, Double> cpu;
    private final Map<String, Nic> nic;
    private final List<Flow> traffic;

    private Measurements(Map<String, Double> cpu, Map<String, Nic> nic, List<Flow> traffic) {
        this.cpu = Collections.unmodifiableMap(new LinkedHashMap<>(cpu));
        this.nic = Collections.unmodifiableMap(new LinkedHashMap<>(nic));
        this.traffic = List.copyOf(traffic);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** CPU use by VM id, cycles per second. */
    public Map<String, Double> cpu() {
        return cpu;
    }

    /** NIC rates by VM id, where measured. */
    public Map<String, Nic> nic() {
        return nic;
    }

    /** The traffic matrix's non-zero entries, in the order given. */
    public List<Flow> traffic() {
        return traffic;
    }

    /** Collects figures; a later figure for the same VM replaces the earlier one (a VM pair given twice is refused). */
    public static final class Builder {

        private final Map<String, Double> cpu = new LinkedHashMap<>();
        private final Map<String, Nic> nic = new LinkedHashMap<>();
        private final List<Flow> traffic = new ArrayList<>();

        public Builder cpu(String vm, double cyclesPerSecond) {
            cpu.put(vm, cyclesPerSecond);
            return this;
        }

        public Builder nic(String vm, double sentBitsPerSecond, double receivedBitsPerSecond) {
            nic.put(vm, new Nic(sentBitsPerSecond, receivedBitsPerSecond));
            return this;
        }

        public Builder traffic(String source, String destination, double bitsPerSecond) {
            traffic.add(new Flow(source, destination, bitsPerSecond));
            return this;
        }

        public Measurements build() {
            return new Measurements(cpu, nic, traffic);
        }
    }
}
