package io.heliograph.topology.internal.rest;

import java.util.List;

/**
 * The topology in numbers: its version (grows with every change), the switch and directed link
 * counts, the links seen one way only, and each island's switches (lowest dpid first).
 */
public record TopologySummary(long version, int switches, int links, int unidirectionalLinks,
        List<List<String>> islands) {
}
