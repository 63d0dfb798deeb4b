package io.heliograph.routing.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.topology.Link;
import io.heliograph.topology.Topology;

/**
 * The routable part of a topology snapshot as an indexed graph. Switches are numbered in dpid
 * order and edges (directed links) in (src dpid, dst dpid, src port, dst port) order, so every
 * search that walks them in index order breaks ties the same way on every run.
 *
 * <p>Only links seen in both directions are edges: a unidirectional link (a cable that carries
 * frames one way, or a half-discovered one) could not carry the replies of a flow routed over it.
 * Self-loops (a switch cabled to itself) are never on a shortest or loop-free path and are dropped.
 */
final class LinkGraph {

    private static final Comparator<Link> LINK_ORDER = Comparator
            .comparing((Link l) -> l.src().dpid())
            .thenComparing(l -> l.dst().dpid())
            .thenComparingInt(l -> l.src().port().getPortNumber())
            .thenComparingInt(l -> l.dst().port().getPortNumber());

    private final DatapathId[] switches;
    private final Map<DatapathId, Integer> indexOf;
    private final Link[] links;
    private final int[] edgeFrom;
    private final int[] edgeTo;
    private final int[][] outEdges;
    private final int[][] inEdges;
    private final Map<Link, Integer> edgeOf;

    private LinkGraph(Collection<DatapathId> switchIds, Collection<Link> discovered) {
        TreeSet<DatapathId> nodes = new TreeSet<>(switchIds);
        Set<Link> all = Set.copyOf(discovered);
        List<Link> routable = new ArrayList<>();
        for (Link link : all) {
            if (!link.src().dpid().equals(link.dst().dpid()) && all.contains(link.reverse())) {
                routable.add(link);
                nodes.add(link.src().dpid());
                nodes.add(link.dst().dpid());
            }
        }
        routable.sort(LINK_ORDER);

        switches = nodes.toArray(DatapathId[]::new);
        indexOf = new HashMap<>();
        for (int i = 0; i < switches.length; i++) {
            indexOf.put(switches[i], i);
        }
        links = routable.toArray(Link[]::new);
        edgeFrom = new int[links.length];
        edgeTo = new int[links.length];
        edgeOf = new HashMap<>();
        int[] outDegree = new int[switches.length];
        int[] inDegree = new int[switches.length];
        for (int e = 0; e < links.length; e++) {
            edgeFrom[e] = indexOf.get(links[e].src().dpid());
            edgeTo[e] = indexOf.get(links[e].dst().dpid());
            edgeOf.put(links[e], e);
            outDegree[edgeFrom[e]]++;
            inDegree[edgeTo[e]]++;
        }
        outEdges = new int[switches.length][];
        inEdges = new int[switches.length][];
        for (int n = 0; n < switches.length; n++) {
            outEdges[n] = new int[outDegree[n]];
            inEdges[n] = new int[inDegree[n]];
        }
        Arrays.fill(outDegree, 0);
        Arrays.fill(inDegree, 0);
        // Edges are visited in index order, so each adjacency list is sorted too.
        for (int e = 0; e < links.length; e++) {
            outEdges[edgeFrom[e]][outDegree[edgeFrom[e]]++] = e;
            inEdges[edgeTo[e]][inDegree[edgeTo[e]]++] = e;
        }
    }

    static LinkGraph of(Topology topology) {
        return new LinkGraph(topology.switches(), topology.links());
    }

    static LinkGraph of(Collection<DatapathId> switches, Collection<Link> links) {
        return new LinkGraph(switches, links);
    }

    int switchCount() {
        return switches.length;
    }

    int edgeCount() {
        return links.length;
    }

    /** The index of a switch, or -1 when it is not in the graph. */
    int indexOf(DatapathId dpid) {
        Integer index = indexOf.get(dpid);
        return index == null ? -1 : index;
    }

    DatapathId dpid(int node) {
        return switches[node];
    }

    Link link(int edge) {
        return links[edge];
    }

    /** The edge index of a routable link, or -1. */
    int edgeOf(Link link) {
        Integer edge = edgeOf.get(link);
        return edge == null ? -1 : edge;
    }

    int from(int edge) {
        return edgeFrom[edge];
    }

    int to(int edge) {
        return edgeTo[edge];
    }

    /** Edges leaving a node, in edge order. Callers must not modify the array. */
    int[] outEdges(int node) {
        return outEdges[node];
    }

    /** Edges entering a node, in edge order. Callers must not modify the array. */
    int[] inEdges(int node) {
        return inEdges[node];
    }
}
