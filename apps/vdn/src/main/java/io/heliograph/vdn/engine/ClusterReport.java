package io.heliograph.vdn.engine;

import static io.heliograph.core.json.JsonPath.problem;

import io.heliograph.core.json.JsonPath;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a cluster's local agent tells the centre (local discovery, §4.2): the capacity it measures on
 * each link into it (and, at an edge, on each link to its client groups), the links that timed out, and
 * at an edge the viewers of each client group by object. As plain JSON:
 *
 * <pre>
 * {"cluster": "E1", "links": {"R1->E1": 95000, "E1->G3": 150000}, "failed": ["R2->E1"],
 *  "viewers": [{"group": "G3", "video": "v0", "bitrateKbps": 800, "clients": 3000}]}
 * </pre>
 *
 * {@link #read(Object, Topology)} refuses, by JSON path, a link that does not touch the cluster, a group
 * that is not the cluster's, or a group that asks for the same object twice.
 */
public record ClusterReport(String cluster, Map<String, Long> links, Set<String> failed, List<Viewers> viewers) {

    private static final Set<String> MEMBERS = Set.of("cluster", "links", "failed", "viewers");
    private static final Set<String> VIEWERS = Set.of("group", "video", "bitrateKbps", "clients");
    private static final int MAX_BITRATE_KBPS = 1_000_000;

    /** The clients of a client group watching a video at a bitrate. */
    public record Viewers(String group, String video, int bitrateKbps, int clients) {
    }

    public ClusterReport {
        links = Map.copyOf(links);
        failed = Set.copyOf(failed);
        viewers = List.copyOf(viewers);
    }

    /** A report read from JSON and checked against the topology. */
    public static ClusterReport read(Object document, Topology topology) {
        Map<String, Object> root = JsonPath.object(document, "$", MEMBERS);
        String cluster = JsonPath.text(JsonPath.required(root, "cluster", "$"), "$.cluster");
        Node node = topology.node(cluster).orElseThrow(() -> problem("$.cluster", "no cluster " + cluster + " in the topology"));
        if (node.tier() == Tier.CLIENT_GROUP) {
            throw problem("$.cluster", cluster + " is a client group, not a cluster");
        }
        Map<String, Long> links = new LinkedHashMap<>();
        if (root.containsKey("links")) {
            for (Map.Entry<String, Object> entry : JsonPath.object(root.get("links"), "$.links").entrySet()) {
                String path = "$.links." + entry.getKey();
                touching(entry.getKey(), cluster, topology, path);
                links.put(entry.getKey(), JsonPath.whole(entry.getValue(), path, 0, Long.MAX_VALUE / 4));
            }
        }
        List<String> failed = new ArrayList<>();
        if (root.containsKey("failed")) {
            List<?> names = JsonPath.list(root.get("failed"), "$.failed");
            for (int i = 0; i < names.size(); i++) {
                String path = "$.failed[" + i + "]";
                String name = JsonPath.text(names.get(i), path);
                touching(name, cluster, topology, path);
                failed.add(name);
            }
        }
        List<Viewers> viewers = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        if (root.containsKey("viewers")) {
            List<?> list = JsonPath.list(root.get("viewers"), "$.viewers");
            for (int i = 0; i < list.size(); i++) {
                String path = "$.viewers[" + i + "]";
                Map<String, Object> entry = JsonPath.object(list.get(i), path, VIEWERS);
                String group = JsonPath.text(JsonPath.required(entry, "group", path), path + ".group");
                if (topology.link(cluster, group).isEmpty()
                        || topology.node(group).orElseThrow().tier() != Tier.CLIENT_GROUP) {
                    throw problem(path + ".group", group + " is not a client group of " + cluster);
                }
                String video = JsonPath.text(JsonPath.required(entry, "video", path), path + ".video");
                if (video.contains("/")) {
                    throw problem(path + ".video", "a video's name has no '/'");
                }
                int bitrate = (int) JsonPath.whole(JsonPath.required(entry, "bitrateKbps", path), path + ".bitrateKbps", 1,
                        MAX_BITRATE_KBPS);
                int clients = (int) JsonPath.whole(JsonPath.required(entry, "clients", path), path + ".clients", 1,
                        Integer.MAX_VALUE);
                if (!seen.add(group + " " + video + "/" + bitrate)) {
                    throw problem(path, group + " asks for " + video + "/" + bitrate + " twice");
                }
                viewers.add(new Viewers(group, video, bitrate, clients));
            }
        }
        return new ClusterReport(cluster, links, Set.copyOf(failed), viewers);
    }

    public Map<String, Object> write() {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("cluster", cluster);
        document.put("links", new TreeMap<>(links));
        document.put("failed", failed.stream().sorted().toList());
        List<Object> list = new ArrayList<>();
        for (Viewers v : viewers) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("group", v.group());
            entry.put("video", v.video());
            entry.put("bitrateKbps", (long) v.bitrateKbps());
            entry.put("clients", (long) v.clients());
            list.add(entry);
        }
        document.put("viewers", list);
        return document;
    }

    private static void touching(String name, String cluster, Topology topology, String path) {
        String[] ends = name.split("->", -1);
        if (ends.length != 2 || topology.link(ends[0], ends[1]).isEmpty()) {
            throw problem(path, "no link " + name + " in the topology");
        }
        if (!ends[0].equals(cluster) && !ends[1].equals(cluster)) {
            throw problem(path, "link " + name + " does not touch " + cluster);
        }
    }
}
