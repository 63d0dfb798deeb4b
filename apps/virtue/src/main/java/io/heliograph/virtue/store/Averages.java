package io.heliograph.virtue.store;

import java.time.Instant;
import java.util.Map;

/**
 * An experiment's measurements averaged over the rounds of a window, what the optimiser is fed: per VM CPU
 * (the mean of its reported {@value HostReport#CPU} figures), per VM NIC rates, the traffic matrix and the
 * link rates. A rate missing from a round counts as 0 in it (the sampler leaves idle pairs out), so rates
 * are sums over the window's rounds divided by {@link #rounds}; VMs that reported no CPU are absent.
 *
 * @param from   the window's start (inclusive), null for the run's first round
 * @param to     the window's end (inclusive), null for the run's last round
 * @param rounds the rounds in the window; 0 gives empty rate maps
 */
public record Averages(Instant from, Instant to, long rounds, Map<String, Double> cpu, Map<String, Round.Nic> nics,
                       Map<Round.VmPair, Double> traffic, Map<String, Double> links) {

    public Averages {
        cpu = Map.copyOf(cpu);
        nics = Map.copyOf(nics);
        traffic = Map.copyOf(traffic);
        links = Map.copyOf(links);
    }
}
