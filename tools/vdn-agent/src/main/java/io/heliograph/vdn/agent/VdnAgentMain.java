package io.heliograph.vdn.agent;

import io.heliograph.core.json.Json;
import io.heliograph.core.json.JsonPath;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

/**
 * {@code deploy/heliograph vdn-agent --config FILE [--cluster ID] [--controller URL[,URL...]]} runs one cluster's agent
 * until SIGTERM; {@code deploy/heliograph vdn-agent client ...} plays channels from edges and prints one JSON
 * line per session and a summary line. README.md says more.
 */
public final class VdnAgentMain {

    private VdnAgentMain() {
    }

    public static void main(String[] args) throws Exception {
        try {
            if (args.length > 0 && "client".equals(args[0])) {
                System.exit(client(List.of(args).subList(1, args.length), System.out));
            }
            agent(List.of(args));
        } catch (IllegalArgumentException e) {
            System.err.println("vdn-agent: " + e.getMessage());
            usage(System.err);
            System.exit(2);
        }
    }

    private static void agent(List<String> args) throws IOException, InterruptedException {
        Map<String, String> flags = flags(args, Set.of("--config", "--cluster", "--controller"));
        if (flags.containsKey("--help")) {
            usage(System.out);
            return;
        }
        String file = flags.get("--config");
        if (file == null) {
            throw new IllegalArgumentException("--config FILE is required");
        }
        Map<String, String> overrides = new LinkedHashMap<>();
        if (flags.containsKey("--cluster")) {
            overrides.put("cluster", flags.get("--cluster"));
        }
        if (flags.containsKey("--controller")) {
            overrides.put("controller", flags.get("--controller"));
        }
        AgentConfig config = AgentConfig.read(Path.of(file), overrides);
        VdnAgent agent;
        try {
            agent = VdnAgent.start(config);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot listen on " + config.listenHost() + ":" + config.listenPort() + ": "
                    + e.getMessage(), e);
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            agent.close();
            stopped.countDown();
        }, "vdn-agent-stop"));
        System.out.println("vdn-agent " + config.cluster() + " listening on " + agent.url());
        System.out.flush();
        stopped.await();
    }

    /** Plays the sessions; 0 when every one got all its chunks, 1 otherwise. */
    static int client(List<String> args, PrintStream out) throws Exception {
        Map<String, String> flags = flags(args, Set.of("--edge", "--video", "--group", "--bitrates", "--chunks",
                "--chunk-seconds", "--stream-start-millis", "--plan"));
        if (flags.containsKey("--help")) {
            usage(out);
            return 0;
        }
        List<Integer> bitrates = new ArrayList<>();
        for (String b : flags.getOrDefault("--bitrates", "1400,600,200").split(",")) {
            bitrates.add(positive("--bitrates", b.strip()));
        }
        bitrates.sort((a, b) -> Integer.compare(b, a));
        int chunks = positive("--chunks", flags.getOrDefault("--chunks", "10"));
        int chunkSeconds = positive("--chunk-seconds", flags.getOrDefault("--chunk-seconds", "2"));
        long start = Long.parseLong(flags.getOrDefault("--stream-start-millis", "0"));
        List<LiveClient.Session> sessions = new ArrayList<>();
        if (flags.containsKey("--plan")) {
            sessions.addAll(plan(Path.of(flags.get("--plan")), bitrates, chunks));
        } else {
            if (!flags.containsKey("--edge") || !flags.containsKey("--video")) {
                throw new IllegalArgumentException("client: --edge URL and --video NAME (or --plan FILE) are required");
            }
            sessions.add(new LiveClient.Session(URI.create(flags.get("--edge")), flags.get("--group"), flags.get("--video"),
                    bitrates, chunks, 0));
        }
        List<LiveClient.Result> results = new ArrayList<>();
        try (LiveClient client = new LiveClient(chunkSeconds, start)) {
            List<CompletableFuture<LiveClient.Result>> playing = new ArrayList<>();
            for (LiveClient.Session s : sessions) {
                playing.add(client.play(s).whenComplete((r, e) -> {
                    if (r != null) {
                        synchronized (out) {
                            out.println(new String(Json.compact(r.json()), java.nio.charset.StandardCharsets.UTF_8));
                            out.flush();
                        }
                    }
                }));
            }
            for (CompletableFuture<LiveClient.Result> f : playing) {
                results.add(f.get());
            }
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("summary", LiveClient.summary(results));
        out.println(new String(Json.compact(summary), java.nio.charset.StandardCharsets.UTF_8));
        return results.stream().allMatch(LiveClient.Result::complete) ? 0 : 1;
    }

    /** A plan: [{"edge": URL, "video": V, "group": G, "startMillis": offset, "bitrates": [...], "chunks": N}]. */
    private static List<LiveClient.Session> plan(Path file, List<Integer> bitrates, int chunks) throws IOException {
        Object document = Json.parse(Files.readAllBytes(file));
        List<?> list = JsonPath.list(document, "$");
        List<LiveClient.Session> sessions = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            String path = "$[" + i + "]";
            Map<String, Object> entry = JsonPath.object(list.get(i), path,
                    Set.of("edge", "video", "group", "startMillis", "bitrates", "chunks"));
            List<Integer> own = bitrates;
            if (entry.containsKey("bitrates")) {
                own = new ArrayList<>();
                List<?> rates = JsonPath.list(entry.get("bitrates"), path + ".bitrates");
                for (int j = 0; j < rates.size(); j++) {
                    own.add((int) JsonPath.whole(rates.get(j), path + ".bitrates[" + j + "]", 1, 1_000_000));
                }
                own.sort((a, b) -> Integer.compare(b, a));
            }
            sessions.add(new LiveClient.Session(URI.create(JsonPath.text(JsonPath.required(entry, "edge", path), path + ".edge")),
                    entry.containsKey("group") ? JsonPath.text(entry.get("group"), path + ".group") : null,
                    JsonPath.text(JsonPath.required(entry, "video", path), path + ".video"), own,
                    entry.containsKey("chunks")
                            ? (int) JsonPath.whole(entry.get("chunks"), path + ".chunks", 1, 1_000_000) : chunks,
                    entry.containsKey("startMillis")
                            ? JsonPath.whole(entry.get("startMillis"), path + ".startMillis", 0, 86_400_000) : 0));
        }
        return sessions;
    }

    private static int positive(String flag, String value) {
        try {
            int n = Integer.parseInt(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException(flag + ": a positive whole number, not \"" + value + "\"");
    }

    private static Map<String, String> flags(List<String> args, Set<String> known) {
        Map<String, String> flags = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if ("--help".equals(arg) || "-h".equals(arg)) {
                flags.put("--help", "");
            } else if (known.contains(arg) && i + 1 < args.size()) {
                flags.put(arg, args.get(++i));
            } else {
                throw new IllegalArgumentException("unknown or incomplete argument \"" + arg + "\"");
            }
        }
        return flags;
    }

    private static void usage(PrintStream out) {
        out.println("""
                Usage: deploy/heliograph vdn-agent --config FILE [--cluster ID] [--controller URL[,URL...]]
                         run one CDN cluster's local agent (source, reflector or edge) until SIGTERM
                       deploy/heliograph vdn-agent client --edge URL --video V [--group G] [--bitrates 1400,600,200]
                         [--chunks 10] [--chunk-seconds 2] [--stream-start-millis 0]
                       deploy/heliograph vdn-agent client --plan FILE [--bitrates ...] [--chunks N] ...
                         play channels from edges; one JSON line per session, then a summary line
                tools/vdn-agent/README.md describes the configuration, the endpoints and the figures.""");
    }
}
