package io.heliograph.vdn.agent;

import io.heliograph.core.json.Json;
import io.heliograph.core.json.JsonPath;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A local agent's configuration, read from a JSON file ({@code --config FILE}); a bad one is refused with an
 * IllegalArgumentException whose message starts with the field's JSON path ({@code $.parents[1].url: ...}).
 * README.md lists the fields.
 *
 * @param cluster            this cluster's id in the controller's topology
 * @param tier               source, reflector or edge
 * @param listenHost         the address the agent's HTTP server binds
 * @param listenPort         its port (0: any free one)
 * @param parents            the clusters of the tier above, with the capacity of the link from each to here
 * @param children           the clusters of the tier below, which this one advertises its distances to
 * @param controllers        the base URLs ({@code http://host:port}) of the controller's instances, in the
 *                           order they are tried; empty for none
 * @param user               the REST API's user
 * @param password           its password
 * @param key                this cluster's agent key (header X-Vdn-Agent-Key)
 * @param mode               how parents are chosen
 * @param chunkSeconds       the duration of a chunk
 * @param dvMillis           how often distances are advertised to children
 * @param reportMillis       how often the agent reports to the controller
 * @param ribPollMillis      how often it asks for its RIB
 * @param fibMillis          how often it publishes its FIB and serving figures
 * @param dropRibPercent     the share of RIB updates ignored as if lost (fault injection)
 * @param idleMillis         a subscription no request asked for this long ends
 * @param centralWaitMillis  in central mode, how long a request without an entry waits for one
 * @param videos             at a source: the videos it ingests
 * @param bitrates           at a source: the bitrates each video is encoded at (kbit/s)
 * @param streamStartMillis  when every stream started (epoch milliseconds): chunk n exists from start + n chunks
 * @param threads            the HTTP server's threads
 * @param seed               the seed of Algorithm 1's tie-breaks and of the dropped RIB updates
 */
public record AgentConfig(String cluster, Tier tier, String listenHost, int listenPort, List<Parent> parents,
        List<Child> children, List<URI> controllers, String user, String password, String key, Mode mode, int chunkSeconds,
        long dvMillis, long reportMillis, long ribPollMillis, long fibMillis, int dropRibPercent, long idleMillis,
        long centralWaitMillis, List<String> videos, List<Integer> bitrates, long streamStartMillis, int threads,
        long seed) {

    /** A cluster's place in the CDN. */
    public enum Tier {
        SOURCE, REFLECTOR, EDGE
    }

    /** How a reflector or edge chooses the parent a request goes to (§4.8's three systems). */
    public enum Mode {
        /** VDN: the central FIB entry while it holds, Algorithm 1 otherwise. */
        HYBRID,
        /** Fully centralised: only the controller's entries; a request without one waits for one. */
        CENTRAL,
        /** Fully distributed: only Algorithm 1. */
        DISTRIBUTED
    }

    /** A parent cluster, its agent's base URL, and the capacity of the link from it to this cluster. */
    public record Parent(String id, URI url, long capacityKbps) {
    }

    /** A child cluster and its agent's base URL. */
    public record Child(String id, URI url) {
    }

    private static final Set<String> MEMBERS = Set.of("cluster", "tier", "listen", "parents", "children", "controller",
            "user", "password", "key", "mode", "chunkSeconds", "dvMillis", "reportMillis", "ribPollMillis", "fibMillis",
            "dropRibPercent", "idleMillis", "centralWaitMillis", "videos", "videoCount", "bitrates", "streamStartMillis",
            "threads", "seed");
    private static final long MAX_MILLIS = 3_600_000;

    /** The link from {@code parent} to this cluster, as the controller names links. */
    public String linkFrom(String parent) {
        return parent + "->" + cluster;
    }

    /** The parent of this id, or null. */
    public Parent parent(String id) {
        for (Parent p : parents) {
            if (p.id().equals(id)) {
                return p;
            }
        }
        return null;
    }

    /** The configuration in a file; IllegalArgumentException naming the file and the field. */
    public static AgentConfig read(Path file, Map<String, String> overrides) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read: " + e.getMessage(), e);
        }
        try {
            Map<String, Object> document = new LinkedHashMap<>(JsonPath.object(Json.parse(bytes), "$"));
            document.putAll(overrides);
            return read(document);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /** The configuration of a parsed JSON document; IllegalArgumentException naming the field's JSON path. */
    public static AgentConfig read(Object document) {
        Map<String, Object> root = JsonPath.object(document, "$", MEMBERS);
        String cluster = id(JsonPath.required(root, "cluster", "$"), "$.cluster");
        Tier tier = choice(Tier.class, JsonPath.required(root, "tier", "$"), "$.tier");
        String listen = JsonPath.text(JsonPath.required(root, "listen", "$"), "$.listen");
        int colon = listen.lastIndexOf(':');
        if (colon <= 0) {
            throw JsonPath.problem("$.listen", "must be host:port, not \"" + listen + "\"");
        }
        int port;
        try {
            port = Integer.parseInt(listen.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 0 || port > 65535) {
            throw JsonPath.problem("$.listen", "the port must be 0 to 65535, in \"" + listen + "\"");
        }
        List<Parent> parents = new ArrayList<>();
        Set<String> ids = new LinkedHashSet<>();
        if (root.containsKey("parents")) {
            List<?> list = JsonPath.list(root.get("parents"), "$.parents");
            for (int i = 0; i < list.size(); i++) {
                String path = "$.parents[" + i + "]";
                Map<String, Object> p = JsonPath.object(list.get(i), path, Set.of("id", "url", "capacityKbps"));
                String id = id(JsonPath.required(p, "id", path), path + ".id");
                if (id.equals(cluster) || !ids.add(id)) {
                    throw JsonPath.problem(path + ".id",
                            id.equals(cluster) ? "a cluster is not its own parent" : id + " appears twice");
                }
                parents.add(new Parent(id, url(JsonPath.required(p, "url", path), path + ".url"),
                        JsonPath.whole(JsonPath.required(p, "capacityKbps", path), path + ".capacityKbps", 1,
                                Long.MAX_VALUE / 4)));
            }
        }
        if (tier == Tier.SOURCE && !parents.isEmpty()) {
            throw JsonPath.problem("$.parents", "a source has no parents");
        }
        if (tier != Tier.SOURCE && parents.isEmpty()) {
            throw JsonPath.problem("$.parents", (tier == Tier.EDGE ? "an edge" : "a reflector") + " needs at least one parent");
        }
        List<Child> children = new ArrayList<>();
        if (root.containsKey("children")) {
            List<?> list = JsonPath.list(root.get("children"), "$.children");
            for (int i = 0; i < list.size(); i++) {
                String path = "$.children[" + i + "]";
                Map<String, Object> c = JsonPath.object(list.get(i), path, Set.of("id", "url"));
                children.add(new Child(id(JsonPath.required(c, "id", path), path + ".id"),
                        url(JsonPath.required(c, "url", path), path + ".url")));
            }
        }
        if (tier == Tier.EDGE && !children.isEmpty()) {
            throw JsonPath.problem("$.children", "an edge serves clients, not clusters");
        }
        Mode mode = root.containsKey("mode") ? choice(Mode.class, root.get("mode"), "$.mode") : Mode.HYBRID;
        List<URI> controllers = root.containsKey("controller") ? controllers(root.get("controller")) : List.of();
        if (controllers.isEmpty() && mode != Mode.DISTRIBUTED && tier != Tier.SOURCE) {
            throw JsonPath.problem("$.controller", "missing: a " + mode.name().toLowerCase(Locale.ROOT)
                    + " agent follows a controller (only a distributed one or a source may run without)");
        }
        String user = null;
        String password = null;
        String key = null;
        if (!controllers.isEmpty()) {
            user = JsonPath.text(JsonPath.required(root, "user", "$"), "$.user");
            password = JsonPath.text(JsonPath.required(root, "password", "$"), "$.password");
            key = JsonPath.text(JsonPath.required(root, "key", "$"), "$.key");
        }
        int chunkSeconds = (int) optional(root, "chunkSeconds", 2, 1, 60);
        List<String> videos = new ArrayList<>();
        if (root.containsKey("videos")) {
            List<?> list = JsonPath.list(root.get("videos"), "$.videos");
            for (int i = 0; i < list.size(); i++) {
                videos.add(id(list.get(i), "$.videos[" + i + "]"));
            }
        }
        if (root.containsKey("videoCount")) {
            long count = JsonPath.whole(root.get("videoCount"), "$.videoCount", 1, 100_000);
            for (int i = 0; i < count; i++) {
                videos.add("v" + i);
            }
        }
        List<Integer> bitrates = new ArrayList<>();
        if (root.containsKey("bitrates")) {
            List<?> list = JsonPath.list(root.get("bitrates"), "$.bitrates");
            for (int i = 0; i < list.size(); i++) {
                bitrates.add((int) JsonPath.whole(list.get(i), "$.bitrates[" + i + "]", 1, 1_000_000));
            }
        }
        if (tier == Tier.SOURCE && (videos.isEmpty() || bitrates.isEmpty())) {
            throw JsonPath.problem(videos.isEmpty() ? "$.videos" : "$.bitrates",
                    "missing: a source ingests videos (\"videos\": [names] or \"videoCount\": N) at \"bitrates\": [kbit/s]");
        }
        long dvMillis = optional(root, "dvMillis", 1000, 10, MAX_MILLIS);
        return new AgentConfig(cluster, tier, listen.substring(0, colon), port, List.copyOf(parents), List.copyOf(children),
                controllers, user, password, key, mode, chunkSeconds, dvMillis,
                optional(root, "reportMillis", 1000, 10, MAX_MILLIS), optional(root, "ribPollMillis", 500, 10, MAX_MILLIS),
                optional(root, "fibMillis", 5000, 10, MAX_MILLIS), (int) optional(root, "dropRibPercent", 0, 0, 100),
                optional(root, "idleMillis", 3000L * chunkSeconds, 100, MAX_MILLIS),
                optional(root, "centralWaitMillis", 15_000, 10, MAX_MILLIS), List.copyOf(videos), List.copyOf(bitrates),
                optional(root, "streamStartMillis", 0, 0, Long.MAX_VALUE / 2), (int) optional(root, "threads", 16, 2, 512),
                optional(root, "seed", System.nanoTime() & Long.MAX_VALUE, 0, Long.MAX_VALUE));
    }

    private static long optional(Map<String, Object> root, String name, long fallback, long min, long max) {
        return root.containsKey(name) ? JsonPath.whole(root.get(name), "$." + name, min, max) : fallback;
    }

    private static String id(Object value, String path) {
        String id = JsonPath.text(value, path);
        if (id.contains("/") || id.contains("->") || id.contains(" ")) {
            throw JsonPath.problem(path, "an id has no '/', '->' or space: \"" + id + "\"");
        }
        return id;
    }

    /**
     * One URL, several separated by commas (as {@code --controller} takes them), or a list: the instances
     * of a controller cluster, any of which answers an agent.
     */
    private static List<URI> controllers(Object value) {
        List<URI> urls = new ArrayList<>();
        if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                urls.add(url(list.get(i), "$.controller[" + i + "]"));
            }
        } else {
            for (String part : JsonPath.text(value, "$.controller").split(",", -1)) {
                urls.add(url(part.strip(), "$.controller"));
            }
        }
        if (urls.isEmpty()) {
            throw JsonPath.problem("$.controller", "an empty list: name at least one instance, or leave it out");
        }
        if (urls.size() != new java.util.HashSet<>(urls).size()) {
            throw JsonPath.problem("$.controller", "names an instance twice: " + urls);
        }
        return List.copyOf(urls);
    }

    private static URI url(Object value, String path) {
        String text = JsonPath.text(value, path);
        try {
            URI uri = new URI(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return uri;
            }
        } catch (java.net.URISyntaxException e) {
            // refused below
        }
        throw JsonPath.problem(path, "must be an http:// URL with a host, not \"" + text + "\"");
    }

    private static <E extends Enum<E>> E choice(Class<E> type, Object value, String path) {
        String text = JsonPath.text(value, path);
        try {
            return Enum.valueOf(type, text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            List<String> names = new ArrayList<>();
            for (E constant : type.getEnumConstants()) {
                names.add(constant.name().toLowerCase(Locale.ROOT));
            }
            throw JsonPath.problem(path, "must be one of " + String.join(", ", names) + ", not \"" + text + "\"");
        }
    }
}
