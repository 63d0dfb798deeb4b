package io.heliograph.virtue.store;

import java.time.Instant;
import java.util.Map;

/**
 * One sampling round of an experiment: at one instant, the rate on each EDF link, the traffic matrix
 * (rate from one VM to another), each VM's NIC rates and, where the sampler gives them, switch port
 * rates. All rates in bits per second. Stored in one transaction; storing the same round again (same
 * experiment and instant) replaces it, so a retried write never duplicates rows.
 *
 * @param at    the sampling instant, kept to the millisecond
 * @param links rate by EDF link id
 * @param traffic rate by (source VM, destination VM)
 * @param nics  NIC rates by VM id
 * @param ports port rates by (DPID, port number); empty when not sampled
 */
public record Round(String experiment, Instant at, Map<String, Double> links, Map<VmPair, Double> traffic,
                   Map<String, Nic> nics, Map<Port, PortRate> ports) implements Recordable {

    /** A directed pair of VMs: traffic from {@code source} to {@code destination}. */
    public record VmPair(String source, String destination) {
        public VmPair {
            Checks.id("a traffic source VM", source, Checks.VM_ID);
            Checks.id("a traffic destination VM", destination, Checks.VM_ID);
        }
    }

    /** A VM's NIC rates. */
    public record Nic(double sentBitsPerSecond, double receivedBitsPerSecond) {
        public Nic {
            Checks.rate("a NIC's sent rate", sentBitsPerSecond);
            Checks.rate("a NIC's received rate", receivedBitsPerSecond);
        }
    }

    /** A switch port: the switch's DPID (as the EDF writes it) and the OpenFlow port number. */
    public record Port(String dpid, long number) {
        public Port {
            Checks.id("a port's DPID", dpid, Checks.DPID);
            if (number < 0 || number > 0xffff_ffffL) {
                throw new IllegalArgumentException("a port number is an unsigned 32-bit number, not " + number);
            }
        }
    }

    /** A port's rates, as the switch counts them: received and transmitted. */
    public record PortRate(double receivedBitsPerSecond, double transmittedBitsPerSecond) {
        public PortRate {
            Checks.rate("a port's received rate", receivedBitsPerSecond);
            Checks.rate("a port's transmitted rate", transmittedBitsPerSecond);
        }
    }

    public Round {
        Checks.id("the experiment id", experiment, Checks.EXPERIMENT_ID);
        at = Checks.millis("the round's instant", at);
        links = Checks.copy("links", links);
        traffic = Checks.copy("traffic", traffic);
        nics = Checks.copy("nics", nics);
        ports = Checks.copy("ports", ports);
        links.forEach((link, rate) -> {
            Checks.id("a link id", link, Checks.LINK_ID);
            Checks.rate("link " + link + "'s rate", rate);
        });
        traffic.forEach((pair, rate) -> Checks.rate("the rate from " + pair.source() + " to " + pair.destination(), rate));
        nics.keySet().forEach(vm -> Checks.id("a NIC's VM id", vm, Checks.VM_ID));
    }

    /** A round without port rates. */
    public Round(String experiment, Instant at, Map<String, Double> links, Map<VmPair, Double> traffic,
                 Map<String, Nic> nics) {
        this(experiment, at, links, traffic, nics, Map.of());
    }

    @Override
    public int rows() {
        return 1 + links.size() + traffic.size() + nics.size() + ports.size();
    }
}
