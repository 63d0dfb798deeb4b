package io.heliograph.routing;

import java.util.List;

import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.topology.Link;

/** A loop-free path between two switches: the links in order, and its cost under the metric used. */
public record Route(DatapathId src, DatapathId dst, List<Link> links, double cost) {

    public Route {
        links = List.copyOf(links);
    }

    public int hops() {
        return links.size();
    }
}
