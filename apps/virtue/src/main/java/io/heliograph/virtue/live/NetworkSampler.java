package io.heliograph.virtue.live;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.SwitchPort;
import io.heliograph.stats.FlowRate;
import io.heliograph.stats.PortRate;
import io.heliograph.stats.StatisticsService;
import io.heliograph.virtue.engine.Edf;
import io.heliograph.virtue.engine.InvalidInputException;
import io.heliograph.virtue.engine.Problem;

/**
 * Reads one experiment's network rates from the statistics app (no polling of its own): each EDF link
 * from the switch port it leaves or enters, the traffic matrix from the source entries of a
 * {@link RoutePlan}, and each VM's rates from both. Built once per experiment (and plan); each
 * {@link #sample} call is one round. Thread-safe: it keeps nothing between rounds.
 *
 * <p>A link that leaves a switch is measured by that port's transmit rate; a VM's link up, which
 * enters its switch, by that port's receive rate (a VM is not a switch and has no counters of its own).
 */
public final class NetworkSampler {

    /** Where an EDF link is counted. */
    private record Probe(Edf.Link link, SwitchPort port, boolean receive, double capacity) {
    }

    private final List<Probe> probes = new ArrayList<>();
    private final RoutePlan plan;
    /** Per VM id, in the EDF's order: its PM, and the indices of its links up and down in {@link #probes}. */
    private final Map<String, String> pmOfVm = new LinkedHashMap<>();
    private final Map<String, Integer> upProbe = new HashMap<>();
    private final Map<String, Integer> downProbe = new HashMap<>();

    /**
     * @throws InvalidInputException when a link's switch id is not a datapath id, or a link between
     *                               two VMs (every problem at its JSON path)
     */
    public NetworkSampler(Edf edf, RoutePlan plan) {
        this.plan = Objects.requireNonNull(plan, "plan");
        for (Edf.Pm pm : edf.pms()) {
            for (String vm : pm.vms().keySet()) {
                pmOfVm.putIfAbsent(vm, pm.id());
            }
        }
        List<Problem> problems = new ArrayList<>();
        for (int l = 0; l < edf.links().size(); l++) {
            Edf.Link link = edf.links().get(l);
            boolean fromVm = pmOfVm.containsKey(link.sourceId());
            if (fromVm && pmOfVm.containsKey(link.destinationId())) {
                problems.add(new Problem("$.links[" + l + "]", "joins two VMs; a VM is joined only to its PM's switch"));
                continue;
            }
            String sw = fromVm ? link.destinationId() : link.sourceId();
            int port = fromVm ? link.destinationPort() : link.sourcePort();
            DatapathId dpid;
            try {
                dpid = DatapathId.of(sw);
            } catch (IllegalArgumentException e) {
                problems.add(new Problem("$.links[" + l + "]" + (fromVm ? ".destinationId" : ".sourceId"),
                        "\"" + sw + "\" is not a datapath id"));
                continue;
            }
            if (fromVm) {
                upProbe.putIfAbsent(link.sourceId(), probes.size());
            } else if (pmOfVm.containsKey(link.destinationId())) {
                downProbe.putIfAbsent(link.destinationId(), probes.size());
            }
            probes.add(new Probe(link, SwitchPort.of(dpid, OFPort.of(port)), fromVm, edf.linkBitsPerSecond(link)));
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
    }

    /** One round from the statistics app's latest rates, whatever their age. */
    public NetworkSample sample(StatisticsService stats) {
        return sample(stats, null);
    }

    /**
     * One round from the statistics app's latest rates.
     *
     * @param notBefore rates measured before this instant count as missing (a switch that stopped
     *                  answering keeps its last rates in the statistics app); null takes any age
     */
    public NetworkSample sample(StatisticsService stats, Instant notBefore) {
        List<NetworkSample.LinkRate> links = new ArrayList<>();
        for (Probe probe : probes) {
            PortRate rate = stats.getPortRate(probe.port());
            Double bits = rate == null || stale(rate.at(), notBefore) ? null
                    : probe.receive() ? rate.rxBitsPerSecond() : rate.txBitsPerSecond();
            Edf.Link link = probe.link();
            links.add(new NetworkSample.LinkRate(link.id(), link.sourceId(), link.sourcePort(), link.destinationId(),
                    link.destinationPort(), bits, probe.capacity(),
                    bits == null || !(probe.capacity() > 0) ? null : bits / probe.capacity()));
        }
        Map<DatapathId, List<FlowRate>> flows = new HashMap<>();
        List<NetworkSample.PairRate> traffic = new ArrayList<>();
        Map<String, Double> sent = new HashMap<>();
        Map<String, Double> received = new HashMap<>();
        Map<String, Boolean> sentKnown = new HashMap<>();
        Map<String, Boolean> receivedKnown = new HashMap<>();
        for (RoutePlan.PairCounter counter : plan.counters()) {
            List<FlowRate> rates = flows.computeIfAbsent(counter.dpid(), stats::getFlowRates);
            Double bits = null;
            for (FlowRate rate : rates) {
                if (counter.isCountedBy(rate.flow()) && !stale(rate.at(), notBefore)) {
                    bits = rate.bitsPerSecond();
                    break;
                }
            }
            traffic.add(new NetworkSample.PairRate(counter.source(), counter.destination(), bits));
            add(sent, sentKnown, counter.source(), bits);
            add(received, receivedKnown, counter.destination(), bits);
        }
        List<NetworkSample.VmRate> vms = new ArrayList<>();
        for (Map.Entry<String, String> vm : pmOfVm.entrySet()) {
            String id = vm.getKey();
            vms.add(new NetworkSample.VmRate(id, vm.getValue(), rate(links, upProbe.get(id)),
                    rate(links, downProbe.get(id)), sum(sent, sentKnown, id), sum(received, receivedKnown, id)));
        }
        return new NetworkSample(links, traffic, vms);
    }

    private static boolean stale(Instant at, Instant notBefore) {
        return notBefore != null && (at == null || at.isBefore(notBefore));
    }

    private static void add(Map<String, Double> sums, Map<String, Boolean> known, String vm, Double bits) {
        sums.merge(vm, bits == null ? 0.0 : bits, Double::sum);
        known.merge(vm, bits != null, Boolean::logicalAnd);
    }

    private static Double sum(Map<String, Double> sums, Map<String, Boolean> known, String vm) {
        if (!known.containsKey(vm)) {
            return 0.0; // no route from (or to) this VM: nothing to count, and nothing missing
        }
        return known.get(vm) ? sums.get(vm) : null;
    }

    private static Double rate(List<NetworkSample.LinkRate> links, Integer probe) {
        return probe == null ? null : links.get(probe).bitsPerSecond();
    }
}
