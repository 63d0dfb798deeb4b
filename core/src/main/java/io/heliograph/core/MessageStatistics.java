package io.heliograph.core;

import java.util.List;
import java.util.Map;

import org.projectfloodlight.openflow.protocol.OFType;

/**
 * What went through the listener pipelines since the controller started: how many messages of each
 * type, and how long the pipelines took over a sample of them (one message in
 * {@link #LATENCY_SAMPLE_EVERY}, so that measuring costs the fast path next to nothing). For the
 * REST API's controller resource and the Prometheus metrics.
 */
public interface MessageStatistics {

    /** About one message in this many is timed. */
    int LATENCY_SAMPLE_EVERY = 64;

    /** Messages dispatched to the pipelines, by type; types never seen are absent. */
    Map<OFType, Long> dispatched();

    /** The sampled pipeline times. */
    Latency latency();

    /**
     * A histogram of sampled pipeline times: {@code counts.get(i)} samples took at most
     * {@code boundsSeconds.get(i)} (cumulative, as Prometheus histograms are); {@code samples} in all,
     * {@code sumSeconds} their total.
     */
    record Latency(long samples, double sumSeconds, List<Double> boundsSeconds, List<Long> counts) {
    }
}
