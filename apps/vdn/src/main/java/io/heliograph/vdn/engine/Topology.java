package io.heliograph.vdn.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * VDN's overlay (§4.1, §4.5): nodes in four tiers and directed links from each tier to the next, each
 * with a capacity and a cost. Immutable; made by a {@link Builder}, which refuses a link between tiers
 * that are not adjacent, to an unknown node, or twice. The client groups' dummy links of the integer
 * program are not links here: the optimiser adds them (unbounded, free).
 */
public final class Topology {

    private final Map<String, Node> nodes;
    private final Map<String, Integer> nodeIndex;
    private final List<Link> links;
    private final Map<String, List<Link>> in;
    private final Map<String, List<Link>> out;
    private final Map<String, Link> byName;
    private final Map<Tier, List<Node>> tiers;

    private Topology(Builder builder) {
        this.nodes = Collections.unmodifiableMap(new LinkedHashMap<>(builder.nodes));
        this.links = List.copyOf(builder.links);
        Map<String, Integer> index = new HashMap<>();
        Map<String, List<Link>> into = new HashMap<>();
        Map<String, List<Link>> outOf = new HashMap<>();
        Map<Tier, List<Node>> byTier = new EnumMap<>(Tier.class);
        for (Tier tier : Tier.values()) {
            byTier.put(tier, new ArrayList<>());
        }
        for (Node node : nodes.values()) {
            index.put(node.id(), index.size());
            into.put(node.id(), new ArrayList<>());
            outOf.put(node.id(), new ArrayList<>());
            byTier.get(node.tier()).add(node);
        }
        Map<String, Link> named = new HashMap<>();
        for (Link link : links) {
            into.get(link.to()).add(link);
            outOf.get(link.from()).add(link);
            named.put(link.name(), link);
        }
        into.replaceAll((id, list) -> List.copyOf(list));
        outOf.replaceAll((id, list) -> List.copyOf(list));
        byTier.replaceAll((tier, list) -> List.copyOf(list));
        this.nodeIndex = Map.copyOf(index);
        this.in = Map.copyOf(into);
        this.out = Map.copyOf(outOf);
        this.byName = Map.copyOf(named);
        this.tiers = Collections.unmodifiableMap(byTier);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Every node, in the order added. */
    public List<Node> nodes() {
        return List.copyOf(nodes.values());
    }

    public Optional<Node> node(String id) {
        return Optional.ofNullable(nodes.get(id));
    }

    /** The node's position in {@link #nodes()}; IllegalArgumentException for an unknown id. */
    public int indexOf(String id) {
        Integer index = nodeIndex.get(id);
        if (index == null) {
            throw new IllegalArgumentException("no node " + id + " in the topology");
        }
        return index;
    }

    /** The nodes of one tier, in the order added. */
    public List<Node> tier(Tier tier) {
        return tiers.get(tier);
    }

    /** Every link; {@code links().get(i).index() == i}. */
    public List<Link> links() {
        return links;
    }

    /** The links entering a node (from its parents); empty for sources. */
    public List<Link> in(String node) {
        return require(in, node);
    }

    /** The links leaving a node (to its children); empty for client groups. */
    public List<Link> out(String node) {
        return require(out, node);
    }

    /** The link {@code from->to}, if there is one. */
    public Optional<Link> link(String from, String to) {
        return Optional.ofNullable(byName.get(from + "->" + to));
    }

    /** A copy with other capacities and costs on the same links (a new measurement, new prices). */
    public Topology withLinks(List<Link> changed) {
        Builder builder = builder();
        nodes.values().forEach(builder::node);
        Map<Integer, Link> replaced = new HashMap<>();
        for (Link link : changed) {
            Link old = links.get(link.index());
            if (!old.from().equals(link.from()) || !old.to().equals(link.to())) {
                throw new IllegalArgumentException("link " + link.index() + " is " + old.name() + ", not " + link.name());
            }
            replaced.put(link.index(), link);
        }
        for (Link link : links) {
            Link now = replaced.getOrDefault(link.index(), link);
            builder.link(now.from(), now.to(), now.capacityKbps(), now.cost());
        }
        return builder.build();
    }

    private static List<Link> require(Map<String, List<Link>> map, String node) {
        List<Link> links = map.get(node);
        if (links == null) {
            throw new IllegalArgumentException("no node " + node + " in the topology");
        }
        return links;
    }

    @Override
    public String toString() {
        return "Topology(" + tier(Tier.SOURCE).size() + " sources, " + tier(Tier.REFLECTOR).size() + " reflectors, "
                + tier(Tier.EDGE).size() + " edges, " + tier(Tier.CLIENT_GROUP).size() + " client groups, "
                + links.size() + " links)";
    }

    /** Adds nodes, then links between them. */
    public static final class Builder {

        private final Map<String, Node> nodes = new LinkedHashMap<>();
        private final List<Link> links = new ArrayList<>();
        private final Map<String, Link> byName = new HashMap<>();

        private Builder() {
        }

        public Builder node(Node node) {
            if (nodes.putIfAbsent(node.id(), node) != null) {
                throw new IllegalArgumentException("node " + node.id() + " is added twice");
            }
            return this;
        }

        public Builder node(String id, Tier tier, double x, double y) {
            return node(new Node(id, tier, x, y));
        }

        /** A link from a node to one in the next tier. */
        public Builder link(String from, String to, long capacityKbps, double cost) {
            Node source = known(from, from + "->" + to);
            Node target = known(to, from + "->" + to);
            if (source.tier() == Tier.CLIENT_GROUP || source.tier().below() != target.tier()) {
                throw new IllegalArgumentException("link " + from + "->" + to + " goes from a " + source.tier()
                        + " to a " + target.tier() + ": links only go from one tier to the next");
            }
            Link link = new Link(links.size(), from, to, capacityKbps, cost);
            if (byName.putIfAbsent(link.name(), link) != null) {
                throw new IllegalArgumentException("link " + link.name() + " is added twice");
            }
            links.add(link);
            return this;
        }

        private Node known(String id, String link) {
            Node node = nodes.get(id);
            if (node == null) {
                throw new IllegalArgumentException("link " + link + ": no node " + id);
            }
            return node;
        }

        public Topology build() {
            return new Topology(this);
        }
    }
}
