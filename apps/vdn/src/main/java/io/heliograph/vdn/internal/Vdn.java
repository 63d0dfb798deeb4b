package io.heliograph.vdn.internal;

import java.util.List;
import java.util.Map;

/**
 * The VDN app as its REST resources see it: plain JSON values in and out; a refused call throws
 * {@link io.heliograph.core.Refusal} naming what is wrong.
 */
public interface Vdn {

    /** The header a local agent speaks for its cluster with: the cluster's key. */
    String AGENT_KEY_HEADER = "X-Vdn-Agent-Key";

    /** The CDN's topology as the operator put it. */
    Map<String, Object> topology();

    /** Replaces the topology: the next decision uses it; clusters new to it get agent keys. */
    Map<String, Object> putTopology(Object body);

    Map<String, Object> knobs();

    /** Replaces the knobs: the next decision uses them. */
    Map<String, Object> putKnobs(Object body);

    /** Each cluster's agent key. */
    Map<String, String> agentKeys();

    /** Every cluster: its tier, its agent's last report and FIB, the RIB version it was given. */
    List<Map<String, Object>> clusters();

    /**
     * An agent's report for its cluster; the answer tells the agent the RIB version in force and how to
     * behave (staleness threshold, controller timeout, shadow versions).
     */
    Map<String, Object> report(String cluster, String agentKey, Object body);

    /** The cluster's RIB of the latest decision. */
    Map<String, Object> rib(String cluster);

    /** The FIB the cluster's agent last published. */
    Map<String, Object> fib(String cluster);

    /** An agent publishes its cluster's FIB (and its serving figures) for the operator. */
    Map<String, Object> putFib(String cluster, String agentKey, Object body);

    /** The serving figures the agents published with their FIBs, over time, by cluster. */
    Map<String, Object> serving();

    /** The latest decision's trees of a video, one per bitrate. */
    Map<String, Object> trees(String video);

    /** The latest decision: version, when, how long, objective, gap, requests served. */
    Map<String, Object> decision();
}
