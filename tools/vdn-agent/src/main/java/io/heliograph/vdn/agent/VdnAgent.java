package io.heliograph.vdn.agent;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.heliograph.core.hybrid.Decision;
import io.heliograph.core.hybrid.DecisionTable;
import io.heliograph.core.hybrid.DecisionTableJson;
import io.heliograph.core.hybrid.Evidence;
import io.heliograph.core.hybrid.HybridTable;
import io.heliograph.core.hybrid.Lookup;
import io.heliograph.core.hybrid.Origin;
import io.heliograph.core.json.Json;
import io.heliograph.core.json.JsonPath;
import io.heliograph.vdn.agent.AgentConfig.Mode;
import io.heliograph.vdn.agent.AgentConfig.Parent;
import io.heliograph.vdn.agent.AgentConfig.Tier;
import io.heliograph.vdn.engine.Advertisement;
import io.heliograph.vdn.engine.Advertisement.Distance;
import io.heliograph.vdn.engine.DistanceVector;
import io.heliograph.vdn.engine.DistributedControl;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A CDN cluster's local agent (§4.2 to 4.4): the cluster's data plane, an HTTP live-streaming overlay
 * ({@code GET /live/{video}/{bitrate}/{chunk}}), and its local control.
 *
 * <p>A source makes its chunks itself. A reflector or edge serves a chunk from a small per-object cache,
 * fetching it upstream once however many requests wait for it, from the parent its mode chooses: hybrid,
 * the FIB ({@link HybridTable}: the controller's RIB merged with local decisions, shadow tables for
 * requests tagged with older versions) and on a miss Algorithm 1 over the distance vector, recorded in the
 * FIB; central, only the controller's entries (a request without one is reported at once and waits for a
 * RIB that has one); distributed, only Algorithm 1. A request no parent can take is denied (503). Routing
 * is decided again for every chunk fetched upstream, so a subscription whose entry went stale, whose parent
 * failed or that a new RIB moved follows at its next chunk (§4.4's "re-treated as a new request"). A RIB
 * moves a live stream only onto a parent with room for it now (its link's slack and its advertised path):
 * the centre decided on reports a period old, and a stream moved onto a full link is denied there, while
 * where it is it still plays; it stays until the move fits or its parent fails.
 *
 * <p>Control: every DV period the agent advertises its distances to its children ({@code POST /vdn/dv})
 * and takes its parents' (a parent silent for three periods is failed until heard again); it polls its RIB,
 * reports its links and viewers, and publishes its FIB with serving figures to the controller.
 * {@code GET /vdn/status} says where it stands.
 */
public final class VdnAgent implements AutoCloseable {

    static final String VERSION_HEADER = "X-Vdn-Rib-Version";
    static final String GROUP_HEADER = "X-Vdn-Group";
    static final String CLIENT_HEADER = "X-Vdn-Client";
    static final String PATH_HEADER = "X-Vdn-Path";

    /** The chunks of an object kept for late requests (the one played, the one before, the next): memory is this × objects. */
    private static final int CACHE_CHUNKS = 3;
    /** The longest a request tagged with a RIB version newer than the agent's waits for it. */
    private static final long NEWER_VERSION_WAIT_MILLIS = 1000;
    private static final int MAX_ADVERTISEMENT_BYTES = 4 << 20;
    /** A parent not heard for this many DV periods has failed. */
    private static final int SILENT_PERIODS = 3;
    private static final DecisionTableJson<String> TABLES = DecisionTableJson.ofStrings();

    /** A chunk and the clusters it came through, this one first. */
    private record Chunk(byte[] body, String path) {
    }

    /** A request that cannot be served, with the status that says why. */
    static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int status;

        Refused(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    /** What this cluster receives of one object: where from, and its recent chunks. */
    private static final class Subscription {
        final String key;
        final int bitrateKbps;
        final TreeMap<Long, CompletableFuture<Chunk>> chunks = new TreeMap<>();
        volatile String parent;
        volatile long lastRequestMillis;

        Subscription(String key) {
            this.key = key;
            this.bitrateKbps = Advertisement.bitrateKbps(key);
        }
    }

    private static final class ParentState {
        final Parent parent;
        final String link;
        /** The capacity of the link from the parent, as configured or as an operator last said. */
        volatile long capacityKbps;
        volatile long lastHeardMillis;
        volatile boolean heard;
        volatile boolean failed;

        ParentState(Parent parent, String link, long now) {
            this.parent = parent;
            this.link = link;
            this.capacityKbps = parent.capacityKbps();
            this.lastHeardMillis = now;
        }
    }

    /** A request tagged with a RIB version newer than any this agent has seen, waiting for that version. */
    private record VersionWaiter(long version, CompletableFuture<Void> arrived) {
    }

    private record CentralWaiter(String key, Long version, String excluded, CompletableFuture<String> hop) {
    }

    private final AgentConfig config;
    private final Clock clock;
    private final HttpServer server;
    private final ExecutorService workers;
    private final ScheduledExecutorService timer;
    private final ExecutorService httpThreads;
    private final HttpClient http;
    private final ControllerLink controller;
    private final Object fibLock = new Object();
    private volatile HybridTable<String> fib;
    private volatile HybridTable.Settings settings;
    /** The RIBs installed, newest last: the current one and its shadows. */
    private final Deque<DecisionTable<String>> installed = new ArrayDeque<>();
    private long decidedVersion = -1;
    /** The newest RIB version this agent has received, installed or dropped. */
    private long newestSeen = -1;
    private boolean decidedDropped;
    private final DistanceVector vector;
    private final DistributedControl algorithm;
    private final Random random;
    private final Map<String, ParentState> parents = new LinkedHashMap<>();
    private final Map<String, Subscription> subscriptions = new ConcurrentHashMap<>();
    private final ServingFigures serving;
    private final List<CentralWaiter> waiters = new CopyOnWriteArrayList<>();
    private final List<VersionWaiter> versionWaiters = new CopyOnWriteArrayList<>();
    private final AtomicBoolean ribPollInFlight = new AtomicBoolean();
    private final AtomicLong newerVersionWaits = new AtomicLong();
    private final AtomicBoolean reportInFlight = new AtomicBoolean();
    private final AtomicBoolean reportAgain = new AtomicBoolean();
    private final Map<String, String> lastProblems = new ConcurrentHashMap<>();
    private final Set<String> catalogue = new HashSet<>();

    private final AtomicLong liveRequests = new AtomicLong();
    private final AtomicLong upstreamFetches = new AtomicLong();
    private final AtomicLong ribInstalled = new AtomicLong();
    private final AtomicLong ribDropped = new AtomicLong();
    private final AtomicLong reports = new AtomicLong();
    private final AtomicLong fibsPublished = new AtomicLong();
    private final AtomicLong advertisementsSent = new AtomicLong();
    private final AtomicLong advertisementsReceived = new AtomicLong();
    private final AtomicLong advertisementsRefused = new AtomicLong();
    private final AtomicLong localDecisions = new AtomicLong();
    private final AtomicLong movesKept = new AtomicLong();
    private final AtomicLong denied = new AtomicLong();

    private VdnAgent(AgentConfig config, Clock clock) throws IOException {
        this.config = config;
        this.clock = clock;
        this.random = new Random(config.seed());
        this.algorithm = new DistributedControl(new Random(config.seed() ^ 0x5DEECE66DL));
        this.vector = new DistanceVector(config.cluster());
        this.settings = HybridTable.Settings.withCentreTimeout(Duration.ofSeconds(120));
        this.fib = new HybridTable<>(config.cluster(), settings, clock);
        this.serving = new ServingFigures(3L * config.chunkSeconds() * 1000);
        long now = clock.millis();
        for (Parent p : config.parents()) {
            parents.put(p.id(), new ParentState(p, config.linkFrom(p.id()), now));
        }
        fib.observe(observation());
        for (String video : config.videos()) {
            for (int bitrate : config.bitrates()) {
                catalogue.add(video + "/" + bitrate);
                vector.subscribe(video + "/" + bitrate);
            }
        }
        this.workers = Executors.newFixedThreadPool(config.threads(), daemon("http"));
        this.timer = Executors.newSingleThreadScheduledExecutor(daemon("timer"));
        this.httpThreads = Executors.newFixedThreadPool(4, daemon("client"));
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2))
                .executor(httpThreads).build();
        this.controller = config.controllers().isEmpty() ? null
                : new ControllerLink(http, config.controllers(), config.cluster(), config.user(), config.password(), config.key(), this::log);
        this.server = HttpServer.create(new InetSocketAddress(config.listenHost(), config.listenPort()), 512);
        server.setExecutor(workers);
        server.createContext("/live/", this::live);
        server.createContext("/vdn/dv", this::advertisement);
        server.createContext("/vdn/status", this::status);
        server.createContext("/vdn/links/", this::link);
    }

    /** Starts an agent: its HTTP server, and its timers (DV, parents' silence, RIB, report, FIB, expiry). */
    public static VdnAgent start(AgentConfig config) throws IOException {
        return start(config, Clock.systemUTC());
    }

    static VdnAgent start(AgentConfig config, Clock clock) throws IOException {
        VdnAgent agent = new VdnAgent(config, clock);
        agent.begin();
        return agent;
    }

    private void begin() {
        server.start();
        every(config.dvMillis(), this::advertise);
        if (!parents.isEmpty()) {
            every(config.dvMillis(), this::checkParents);
        }
        every(Math.min(1000, config.idleMillis()), this::expire);
        if (controller != null) {
            every(config.reportMillis(), this::report);
            if (config.tier() != Tier.SOURCE) {
                if (config.mode() != Mode.DISTRIBUTED) {
                    every(config.ribPollMillis(), this::pollRib);
                }
                every(config.fibMillis(), this::publishFib);
            }
        }
        log("listening on " + url() + " (" + name(config.tier())
                + (config.tier() == Tier.SOURCE ? "" : ", " + name(config.mode())) + ")");
    }

    private void every(long millis, Runnable task) {
        timer.scheduleWithFixedDelay(() -> {
            try {
                task.run();
            } catch (RejectedExecutionException e) {
                // the agent is closing
            } catch (RuntimeException e) {
                problem("timer", "a periodic task failed: " + e);
            }
        }, 0, millis, TimeUnit.MILLISECONDS);
    }

    /** The port the agent listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** The agent's base URL. */
    public URI url() {
        String host = config.listenHost().contains(":") ? "[" + config.listenHost() + "]" : config.listenHost();
        return URI.create("http://" + ("0.0.0.0".equals(host) ? "127.0.0.1" : host) + ":" + port());
    }

    /** The configuration it runs with. */
    public AgentConfig config() {
        return config;
    }

    @Override
    public void close() {
        server.stop(0);
        timer.shutdownNow();
        workers.shutdownNow();
        httpThreads.shutdownNow();
        for (CentralWaiter w : waiters) {
            w.hop().completeExceptionally(new Refused(503, "the agent stopped"));
        }
        versionWaiters.forEach(w -> w.arrived().complete(null));
    }

    // ---- the data plane

    private void live(HttpExchange exchange) {
        try {
            if (!"GET".equals(exchange.getRequestMethod())) {
                refuse(exchange, 405, "Method Not Allowed", "GET a chunk: /live/{video}/{bitrate}/{chunk}");
                return;
            }
            long arrivalNanos = System.nanoTime();
            String[] parts = exchange.getRequestURI().getPath().substring("/live/".length()).split("/", -1);
            if (parts.length != 3 || parts[0].isEmpty()) {
                refuse(exchange, 404, "Not Found", "a chunk is /live/{video}/{bitrate}/{chunk}");
                return;
            }
            String video = parts[0];
            if (video.contains("*")) {
                refuse(exchange, 400, "Bad Request", "a video's name has no '*': " + video);
                return;
            }
            int bitrate;
            long chunk;
            try {
                bitrate = Integer.parseInt(parts[1]);
                chunk = Long.parseLong(parts[2]);
            } catch (NumberFormatException e) {
                refuse(exchange, 400, "Bad Request",
                        "the bitrate (kbit/s) and the chunk are whole numbers: " + parts[1] + "/" + parts[2]);
                return;
            }
            if (bitrate <= 0 || chunk < 0) {
                refuse(exchange, 400, "Bad Request", "a bitrate is positive and a chunk number 0 or more");
                return;
            }
            Long version = null;
            String tag = exchange.getRequestHeaders().getFirst(VERSION_HEADER);
            if (tag != null) {
                try {
                    version = Long.parseLong(tag.strip());
                } catch (NumberFormatException e) {
                    refuse(exchange, 400, "Bad Request", VERSION_HEADER + " is a RIB version, a whole number: " + tag);
                    return;
                }
            }
            liveRequests.incrementAndGet();
            String key = video + "/" + bitrate;
            if (config.tier() == Tier.SOURCE) {
                ingest(exchange, video, bitrate, chunk);
                return;
            }
            String client = exchange.getRequestHeaders().getFirst(CLIENT_HEADER);
            if (client == null || client.isBlank()) {
                client = exchange.getRemoteAddress().getAddress().getHostAddress();
            }
            String viewer = client;
            if (config.tier() == Tier.EDGE) {
                serving.requested(client, exchange.getRequestHeaders().getFirst(GROUP_HEADER), video, bitrate, clock.millis());
            }
            chunk(key, chunk, version).whenComplete((c, failure) -> workers.execute(() -> {
                if (failure != null) {
                    refuseFor(exchange, failure);
                } else {
                    send(exchange, c, arrivalNanos, viewer, video);
                }
            }));
        } catch (RuntimeException e) {
            problem("live", "a request failed: " + e);
            refuse(exchange, 500, "Internal Server Error", String.valueOf(e.getMessage()));
        }
    }

    /** At a source: the chunk as soon as it exists (a request more than two chunks ahead of the stream is refused). */
    private void ingest(HttpExchange exchange, String video, int bitrate, long chunk) {
        if (!catalogue.contains(video + "/" + bitrate)) {
            refuse(exchange, 404, "Not Found", config.cluster() + " ingests no " + video + " at " + bitrate + " kbit/s");
            return;
        }
        int seconds = config.chunkSeconds();
        long wait = LiveChunk.availableAt(chunk, config.streamStartMillis(), seconds) - clock.millis();
        if (wait > 2L * seconds * 1000) {
            refuse(exchange, 404, "Not Found", "chunk " + chunk + " of " + video + " is " + wait + " ms ahead of the stream");
            return;
        }
        Runnable send = () -> send(exchange, new Chunk(LiveChunk.content(video, bitrate, chunk, seconds), config.cluster()),
                0, null, video);
        if (wait > 0) {
            timer.schedule(() -> workers.execute(send), wait, TimeUnit.MILLISECONDS);
        } else {
            send.run();
        }
    }

    /** Chunk {@code n} of an object: the one cached or on its way, or fetched upstream now. */
    private CompletableFuture<Chunk> chunk(String key, long n, Long version) {
        Subscription sub = subscriptions.computeIfAbsent(key, Subscription::new);
        CompletableFuture<Chunk> future;
        synchronized (sub) {
            sub.lastRequestMillis = clock.millis();
            future = sub.chunks.get(n);
            if (future != null) {
                return future;
            }
            future = new CompletableFuture<>();
            sub.chunks.put(n, future);
            while (sub.chunks.size() > CACHE_CHUNKS) {
                sub.chunks.pollFirstEntry();
            }
        }
        if (!subscriptions.containsKey(key)) {
            subscriptions.putIfAbsent(key, sub); // it expired between the lookup and the touch
        }
        fetch(sub, n, version, future, null);
        return future;
    }

    private void fetch(Subscription sub, long n, Long version, CompletableFuture<Chunk> future, String excluded) {
        route(sub.key, version, excluded).whenComplete((parent, failure) -> {
            if (failure != null) {
                fail(sub, n, future, failure);
                return;
            }
            sub.parent = parent;
            ParentState state = parents.get(parent);
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(state.parent.url() + "/live/" + sub.key + "/" + n))
                    .timeout(Duration.ofMillis(3L * config.chunkSeconds() * 1000 + 5000)).GET();
            fib.version().ifPresent(v -> request.header(VERSION_HEADER, Long.toString(v)));
            upstreamFetches.incrementAndGet();
            http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray()).whenComplete((response, error) -> {
                if (error == null && response.statusCode() == 200) {
                    vector.subscribe(sub.key);
                    future.complete(new Chunk(response.body(),
                            config.cluster() + "," + response.headers().firstValue(PATH_HEADER).orElse(parent)));
                    return;
                }
                if (error == null && response.statusCode() != 502 && response.statusCode() != 500) {
                    if (response.statusCode() == 503) {
                        dropLocal(sub.key, parent); // another parent may have room next time
                    }
                    fail(sub, n, future, new Refused(response.statusCode(), parent + ": " + message(response.body())));
                    return;
                }
                String why = error != null ? why(error) : "answered " + response.statusCode();
                problem("upstream " + parent, "fetching " + sub.key + " from " + parent + " failed: " + why);
                dropLocal(sub.key, parent);
                if (excluded == null && parents.size() > 1) {
                    fetch(sub, n, version, future, parent); // re-treated as a new request, once
                } else {
                    fail(sub, n, future, new Refused(502, "fetching from " + parent + " failed: " + why));
                }
            });
        });
    }

    private void fail(Subscription sub, long n, CompletableFuture<Chunk> future, Throwable failure) {
        synchronized (sub) {
            sub.chunks.remove(n, future); // the next request asks again
        }
        future.completeExceptionally(rootCause(failure));
    }

    private void dropLocal(String key, String parent) {
        HybridTable<String> table = fib;
        Lookup<String> now = table.lookup(key);
        if (now.found() && now.decision().origin() == Origin.LOCAL && now.decision().value().equals(parent)) {
            table.removeLocal(now.decision().key());
        }
    }

    // ---- choosing the parent

    private CompletableFuture<String> route(String key, Long version, String excluded) {
        if (config.mode() == Mode.HYBRID && controller != null && version != null && newerThanSeen(version)) {
            return newerVersion(version).thenCompose(arrived -> decide(key, version, excluded));
        }
        return decide(key, version, excluded);
    }

    private CompletableFuture<String> decide(String key, Long version, String excluded) {
        if (config.mode() == Mode.CENTRAL) {
            String hop = centralHop(key, version, excluded);
            if (hop != null) {
                return CompletableFuture.completedFuture(hop);
            }
            CentralWaiter waiter = new CentralWaiter(key, version, excluded, new CompletableFuture<>());
            waiters.add(waiter);
            reportNow();
            timer.schedule(() -> {
                if (waiters.remove(waiter)) {
                    waiter.hop().completeExceptionally(new Refused(503, config.cluster() + " got no central entry for " + key
                            + " within " + config.centralWaitMillis() + " ms"));
                }
            }, config.centralWaitMillis(), TimeUnit.MILLISECONDS);
            answerWaiters();
            return waiter.hop();
        }
        HybridTable<String> table = fib;
        Lookup<String> lookup = version == null ? table.lookup(key) : table.lookup(key, version);
        if (lookup.found()) {
            String hop = lookup.decision().value();
            if (usable(hop) && !hop.equals(excluded)) {
                String kept = lookup.decision().origin() == Origin.CENTRAL ? parentKept(key, hop, excluded) : null;
                return CompletableFuture.completedFuture(kept != null ? kept : hop);
            }
            if (lookup.decision().origin() == Origin.LOCAL) {
                table.removeLocal(lookup.decision().key());
            }
        }
        Optional<String> chosen = algorithm1(key, excluded);
        if (chosen.isEmpty()) {
            return CompletableFuture.failedFuture(new Refused(503, config.cluster() + " has no parent with capacity for " + key
                    + (lookup.found() ? "" : " (" + lookup.miss() + ")")));
        }
        table.recordLocal(key, chosen.get(), Evidence.of(Map.of(config.linkFrom(chosen.get()),
                (double) parents.get(chosen.get()).capacityKbps)));
        localDecisions.incrementAndGet();
        return CompletableFuture.completedFuture(chosen.get());
    }

    /**
     * The parent a live stream keeps when the central entry would move it to {@code hop} without room
     * there for it now; null when the stream is not live, its parent is not usable, or the move fits.
     */
    private String parentKept(String key, String hop, String excluded) {
        Subscription own = subscriptions.get(key);
        String current = own == null ? null : own.parent;
        if (current == null || current.equals(hop) || current.equals(excluded) || !usable(current)) {
            return null;
        }
        int bitrate = own.bitrateKbps;
        Distance path = vector.routes(key).get(hop);
        boolean fits = slackKbps(hop) > bitrate && (path == null || path.capacityKbps() > bitrate);
        if (fits) {
            return null;
        }
        if (movesKept.getAndIncrement() % 100 == 0) {
            log("a central entry would move " + key + " from " + current + " to " + hop + " without room there: it stays ("
                    + movesKept.get() + " such so far)");
        }
        return current;
    }

    private boolean newerThanSeen(long version) {
        synchronized (fibLock) {
            return version > newestSeen;
        }
    }

    /**
     * A request tagged with a version newer than any this agent has seen (installed or dropped) tells it the centre
     * has issued one its poll has not brought yet, most often by a fraction of a poll period: it asks for its RIB at
     * once and the request waits for that version, up to {@link #NEWER_VERSION_WAIT_MILLIS} or a poll period; then
     * it is decided as the unknown version it still is (§4.4: distributed control). Without the wait a reflector
     * decided locally every request its edges sent in the moments after each decision, for streams the centre had
     * placed through it, and denied them when its links were full.
     */
    private CompletableFuture<Void> newerVersion(long version) {
        VersionWaiter waiter = new VersionWaiter(version, new CompletableFuture<>());
        versionWaiters.add(waiter);
        newerVersionWaits.incrementAndGet();
        pollRib();
        timer.schedule(() -> {
            if (versionWaiters.remove(waiter)) {
                waiter.arrived().complete(null);
            }
        }, Math.min(NEWER_VERSION_WAIT_MILLIS, config.ribPollMillis()), TimeUnit.MILLISECONDS);
        answerVersionWaiters();
        return waiter.arrived();
    }

    private void answerVersionWaiters() {
        for (VersionWaiter waiter : versionWaiters) {
            if (!newerThanSeen(waiter.version()) && versionWaiters.remove(waiter)) {
                waiter.arrived().complete(null);
            }
        }
    }

    /** Algorithm 1 over the distance vector, each path's capacity capped by its first link's slack now. */
    private Optional<String> algorithm1(String key, String excluded) {
        int bitrate = Advertisement.bitrateKbps(key);
        Subscription own = subscriptions.get(key);
        Map<String, Distance> routes = new TreeMap<>();
        vector.routes(key).forEach((parent, d) -> {
            if (usable(parent) && !parent.equals(excluded)) {
                double slack = slackKbps(parent) + (own != null && parent.equals(own.parent) ? bitrate : 0);
                routes.put(parent, new Distance(d.hops(), Math.min(d.capacityKbps(), Math.max(0, slack))));
            }
        });
        return algorithm.nextHop(routes, bitrate);
    }

    /** The controller's hop for a request: its FIB entry, else the current RIB's even if stale; null for none. */
    private String centralHop(String key, Long version, String excluded) {
        HybridTable<String> table = fib;
        Lookup<String> lookup = version == null ? table.lookup(key) : table.lookup(key, version);
        String hop = lookup.value().orElse(null);
        if (hop == null) {
            synchronized (fibLock) {
                DecisionTable<String> current = installed.peekLast();
                hop = current == null ? null : current.lookup(key).map(Decision::value).orElse(null);
            }
        }
        return hop != null && usable(hop) && !hop.equals(excluded) ? hop : null;
    }

    private void answerWaiters() {
        for (CentralWaiter waiter : waiters) {
            String hop = centralHop(waiter.key(), waiter.version(), waiter.excluded());
            if (hop != null && waiters.remove(waiter)) {
                waiter.hop().complete(hop);
            }
        }
    }

    private boolean usable(String parent) {
        ParentState state = parents.get(parent);
        return state != null && !state.failed;
    }

    private double slackKbps(String parent) {
        return parents.get(parent).capacityKbps - carriedKbps(parent);
    }

    private long carriedKbps(String parent) {
        long carried = 0;
        for (Subscription sub : subscriptions.values()) {
            if (parent.equals(sub.parent)) {
                carried += sub.bitrateKbps;
            }
        }
        return carried;
    }

    // ---- answers

    private void send(HttpExchange exchange, Chunk chunk, long arrivalNanos, String client, String video) {
        try {
            exchange.getResponseHeaders().set("Content-Type", "application/octet-stream");
            exchange.getResponseHeaders().set(PATH_HEADER, chunk.path());
            exchange.sendResponseHeaders(200, chunk.body().length);
            if (config.tier() == Tier.EDGE && client != null) {
                serving.served(client, video, (System.nanoTime() - arrivalNanos) / 1_000_000, clock.millis());
            }
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(chunk.body());
            }
        } catch (IOException e) {
            exchange.close(); // the client went away
        }
    }

    private void refuseFor(HttpExchange exchange, Throwable failure) {
        Throwable cause = rootCause(failure);
        if (cause instanceof Refused refused) {
            if (refused.status == 503) {
                denied.incrementAndGet();
                problem("denied", "denied: " + refused.getMessage());
                if (config.tier() == Tier.EDGE) {
                    serving.denied();
                }
            }
            refuse(exchange, refused.status, reason(refused.status), refused.getMessage());
        } else {
            refuse(exchange, 500, "Internal Server Error", String.valueOf(cause.getMessage()));
        }
    }

    private static String reason(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 502 -> "Bad Gateway";
            case 503 -> "Service Unavailable";
            default -> "Error";
        };
    }

    private static void refuse(HttpExchange exchange, int status, String error, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", (long) status);
        body.put("error", error);
        body.put("field", null);
        body.put("message", message);
        json(exchange, status, body);
    }

    private static void json(HttpExchange exchange, int status, Object body) {
        byte[] bytes = Json.compact(body);
        try (exchange) {
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
        } catch (IOException e) {
            // the client went away
        }
    }

    private static String message(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8);
        try {
            if (Json.parse(body) instanceof Map<?, ?> refusal && refusal.get("message") instanceof String m) {
                return m;
            }
        } catch (IllegalArgumentException e) {
            // not a refusal: the text as it is
        }
        return text.length() > 200 ? text.substring(0, 200) : text;
    }

    private static Throwable rootCause(Throwable t) {
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** What went wrong, for a log line: the cause's message, or its class where it has none (a refused connection). */
    static String why(Throwable failure) {
        Throwable cause = rootCause(failure);
        return cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }

    // ---- distance vectors

    private void advertise() {
        if (config.children().isEmpty()) {
            return;
        }
        byte[] body = AdvertisementJson.write(vector.advertise());
        for (AgentConfig.Child child : config.children()) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(child.url() + "/vdn/dv"))
                    .timeout(Duration.ofMillis(Math.max(1000, config.dvMillis())))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
            http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).whenComplete((response, error) -> {
                if (error != null || response.statusCode() / 100 != 2) {
                    problem("dv " + child.id(), "advertising to " + child.id() + " failed: "
                            + (error != null ? why(error)
                                    : response.statusCode() + " " + message(response.body())));
                } else {
                    advertisementsSent.incrementAndGet();
                    lastProblems.remove("dv " + child.id());
                }
            });
        }
    }

    private void advertisement(HttpExchange exchange) {
        try {
            if (!"POST".equals(exchange.getRequestMethod())) {
                refuse(exchange, 405, "Method Not Allowed", "POST an advertisement to /vdn/dv");
                return;
            }
            byte[] body = exchange.getRequestBody().readNBytes(MAX_ADVERTISEMENT_BYTES + 1);
            if (body.length > MAX_ADVERTISEMENT_BYTES) {
                advertisementsRefused.incrementAndGet();
                refuse(exchange, 413, "Payload Too Large", "an advertisement is at most " + MAX_ADVERTISEMENT_BYTES + " bytes");
                return;
            }
            Advertisement ad;
            try {
                ad = AdvertisementJson.read(body);
            } catch (IllegalArgumentException e) {
                advertisementsRefused.incrementAndGet();
                refuse(exchange, 400, "Bad Request", "a malformed advertisement: " + e.getMessage());
                return;
            }
            ParentState state = parents.get(ad.sender());
            if (state == null) {
                advertisementsRefused.incrementAndGet();
                refuse(exchange, 403, "Forbidden", ad.sender() + " is not a parent of " + config.cluster() + " (its parents: "
                        + String.join(", ", parents.keySet()) + ")");
                return;
            }
            vector.receive(ad, slackKbps(ad.sender()), clock.instant());
            heard(state);
            advertisementsReceived.incrementAndGet();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        } catch (IOException | RuntimeException e) {
            refuse(exchange, 500, "Internal Server Error", String.valueOf(e.getMessage()));
        }
    }

    private void heard(ParentState state) {
        state.lastHeardMillis = clock.millis();
        state.heard = true;
        if (state.failed) {
            state.failed = false;
            HybridTable<String> table = fib;
            table.recovered(state.link);
            table.observe(Map.of(state.link, (double) state.capacityKbps));
            log("parent " + state.parent.id() + " heard again");
        }
    }

    private void checkParents() {
        long now = clock.millis();
        for (ParentState state : parents.values()) {
            if (!state.failed && now - state.lastHeardMillis > SILENT_PERIODS * config.dvMillis()) {
                state.failed = true;
                vector.parentLost(state.parent.id());
                List<String> stale = fib.failed(state.link);
                for (Subscription sub : subscriptions.values()) {
                    if (state.parent.id().equals(sub.parent)) {
                        sub.parent = null;
                        dropLocal(sub.key, state.parent.id());
                    }
                }
                log("parent " + state.parent.id() + " silent for " + (now - state.lastHeardMillis) + " ms: failed"
                        + (stale.isEmpty() ? "" : "; stale central entries " + stale));
            }
        }
    }

    private void expire() {
        long now = clock.millis();
        for (Subscription sub : subscriptions.values()) {
            synchronized (sub) {
                if (now - sub.lastRequestMillis > config.idleMillis() && subscriptions.remove(sub.key, sub)) {
                    vector.unsubscribe(sub.key);
                    dropLocal(sub.key, String.valueOf(sub.parent));
                }
            }
        }
        serving.expire(now);
    }

    private Map<String, Double> observation() {
        Map<String, Double> observation = new TreeMap<>();
        for (ParentState state : parents.values()) {
            if (!state.failed) {
                observation.put(state.link, (double) state.capacityKbps);
            }
        }
        return observation;
    }

    /**
     * {@code PUT /vdn/links/{parent}} {@code {"capacityKbps": N}}: the capacity of the link from a parent changed
     * (the agent measures none itself; §4.3 leaves estimating it out). The new capacity is observed: central
     * entries whose evidence it moved past the threshold are stale and their streams re-decided at their next
     * chunk; it is reported and bounds the slack Algorithm 1 sees.
     */
    private void link(HttpExchange exchange) {
        try {
            String parent = exchange.getRequestURI().getPath().substring("/vdn/links/".length());
            ParentState state = parents.get(parent);
            if (state == null) {
                refuse(exchange, 404, "Not Found", parent + " is not a parent of " + config.cluster() + " (its parents: "
                        + String.join(", ", parents.keySet()) + ")");
                return;
            }
            if (!"PUT".equals(exchange.getRequestMethod())) {
                refuse(exchange, 405, "Method Not Allowed", "PUT {\"capacityKbps\": N} to /vdn/links/" + parent);
                return;
            }
            long capacity;
            try {
                Map<String, Object> body = JsonPath.object(Json.parse(exchange.getRequestBody().readNBytes(4096)), "$",
                        Set.of("capacityKbps"));
                capacity = JsonPath.whole(JsonPath.required(body, "capacityKbps", "$"), "$.capacityKbps", 0, Long.MAX_VALUE / 4);
            } catch (IllegalArgumentException e) {
                refuse(exchange, 400, "Bad Request", e.getMessage());
                return;
            }
            state.capacityKbps = capacity;
            List<String> stale = fib.observe(Map.of(state.link, (double) capacity));
            log("link " + state.link + " now " + capacity + " kbit/s"
                    + (stale.isEmpty() ? "" : "; stale central entries " + stale));
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("link", state.link);
            answer.put("capacityKbps", capacity);
            answer.put("stale", stale);
            json(exchange, 200, answer);
        } catch (IOException | RuntimeException e) {
            refuse(exchange, 500, "Internal Server Error", String.valueOf(e.getMessage()));
        }
    }

    // ---- the controller

    private void pollRib() {
        if (!ribPollInFlight.compareAndSet(false, true)) {
            return; // the poll on its way answers for this one too
        }
        CompletableFuture<Optional<DecisionTable<String>>> polled;
        try {
            polled = controller.rib();
        } catch (RuntimeException e) {
            ribPollInFlight.set(false);
            throw e;
        }
        polled.whenComplete((rib, error) -> {
            ribPollInFlight.set(false);
            if (error != null) {
                problem("rib", "polling the RIB failed: " + why(error));
            } else {
                lastProblems.remove("rib");
                rib.ifPresent(this::install);
            }
        });
    }

    /** Takes a RIB; a version the fault injection drops is ignored every time it comes, as if lost. */
    void install(DecisionTable<String> rib) {
        try {
            installOrDrop(rib);
        } finally {
            answerVersionWaiters();
        }
    }

    private void installOrDrop(DecisionTable<String> rib) {
        synchronized (fibLock) {
            newestSeen = Math.max(newestSeen, rib.version());
            if (rib.version() != decidedVersion) {
                decidedVersion = rib.version();
                decidedDropped = config.dropRibPercent() > 0 && random.nextInt(100) < config.dropRibPercent();
                if (decidedDropped) {
                    ribDropped.incrementAndGet();
                }
            }
            if (decidedDropped) {
                return;
            }
            long before = fib.version().orElse(-1);
            List<String> replaced = fib.install(rib);
            if (rib.version() > before) {
                installed.addLast(rib);
                while (installed.size() > settings.shadowTables() + 1) {
                    installed.removeFirst();
                }
                ribInstalled.incrementAndGet();
                if (!replaced.isEmpty()) {
                    log("RIB " + rib.version() + " replaces local decisions " + replaced);
                }
            }
        }
        answerWaiters();
    }

    private void reportNow() {
        if (controller != null) {
            reportAgain.set(true);
            report();
        }
    }

    private void report() {
        if (!reportInFlight.compareAndSet(false, true)) {
            return;
        }
        reportAgain.set(false);
        long now = clock.millis();
        Map<String, Object> links = new TreeMap<>();
        List<String> failed = new ArrayList<>();
        for (ParentState state : parents.values()) {
            if (state.failed) {
                failed.add(state.link);
            } else {
                links.put(state.link, state.capacityKbps);
            }
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("cluster", config.cluster());
        report.put("links", links);
        report.put("failed", failed);
        report.put("viewers", config.tier() == Tier.EDGE ? serving.viewers(now) : List.of());
        controller.report(report).whenComplete((answer, error) -> {
            reportInFlight.set(false);
            if (error != null) {
                problem("report", "reporting failed: " + why(error));
            } else {
                lastProblems.remove("report");
                reports.incrementAndGet();
                behave(answer);
            }
            if (reportAgain.get()) {
                timer.execute(this::report);
            }
        });
    }

    /**
     * Takes how the controller says agents behave: a new staleness threshold, centre timeout or shadow count
     * rebuilds the FIB (the RIBs installed again, the local decisions and failures carried over).
     */
    private void behave(Map<String, Object> answer) {
        if (!(answer.get("agent") instanceof Map<?, ?> agent)) {
            return;
        }
        try {
            HybridTable.Settings wanted = new HybridTable.Settings(
                    (int) number(agent, "shadowVersions", settings.shadowTables()),
                    number(agent, "stalePercent", Math.round(settings.threshold() * 100)) / 100.0,
                    Duration.ofSeconds(number(agent, "controllerTimeoutSeconds", settings.centreTimeout().toSeconds())));
            synchronized (fibLock) {
                if (wanted.equals(settings)) {
                    return;
                }
                HybridTable<String> old = fib;
                HybridTable<String> table = new HybridTable<>(config.cluster(), wanted, clock);
                if (old.mode() == HybridTable.Mode.CENTRAL) {
                    installed.forEach(table::install);
                }
                for (Decision<String> d : old.snapshot().decisions()) {
                    if (d.origin() == Origin.LOCAL) {
                        table.recordLocal(d.key(), d.value(), d.evidence());
                    }
                }
                table.observe(observation());
                old.failedElements().forEach(table::failed);
                settings = wanted;
                fib = table;
            }
            log("the controller says: stale at " + Math.round(wanted.threshold() * 100) + " %, centre timeout "
                    + wanted.centreTimeout().toSeconds() + " s, " + wanted.shadowTables() + " shadow tables");
        } catch (IllegalArgumentException e) {
            problem("behave", "the controller's agent settings are refused: " + e.getMessage());
        }
    }

    private static long number(Map<?, ?> json, String name, long fallback) {
        return json.get(name) instanceof Number n ? n.longValue() : fallback;
    }

    private void publishFib() {
        HybridTable<String> table = fib;
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("mode", table.mode().name());
        body.put("shadows", table.shadowVersions());
        body.put("table", TABLES.toJson(table.snapshot()));
        if (config.tier() == Tier.EDGE) {
            body.put("serving", serving.figures(clock.millis()));
        }
        controller.putFib(body).whenComplete((answer, error) -> {
            if (error != null) {
                problem("fib", "publishing the FIB failed: " + why(error));
            } else {
                lastProblems.remove("fib");
                fibsPublished.incrementAndGet();
            }
        });
    }

    // ---- status

    private void status(HttpExchange exchange) {
        if (!"GET".equals(exchange.getRequestMethod())) {
            refuse(exchange, 405, "Method Not Allowed", "GET /vdn/status");
            return;
        }
        json(exchange, 200, status());
    }

    /** Where the agent stands: modes, RIB version, parents, subscriptions, counters and serving figures. */
    public Map<String, Object> status() {
        long now = clock.millis();
        HybridTable<String> table = fib;
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("cluster", config.cluster());
        status.put("tier", name(config.tier()));
        status.put("mode", name(config.mode()));
        status.put("fibMode", table.mode().name());
        status.put("ribVersion", table.version().isPresent() ? table.version().getAsLong() : null);
        status.put("shadows", table.shadowVersions());
        status.put("controllerTimeoutSeconds", settings.centreTimeout().toSeconds());
        if (controller != null) {
            status.put("controller", controller.controller().toString());
            status.put("controllerMoves", controller.moves());
        }
        List<Object> parentList = new ArrayList<>();
        for (ParentState state : parents.values()) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("id", state.parent.id());
            p.put("heard", state.heard && !state.failed);
            p.put("failed", state.failed);
            p.put("silentMillis", now - state.lastHeardMillis);
            p.put("capacityKbps", state.capacityKbps);
            p.put("carriedKbps", carriedKbps(state.parent.id()));
            parentList.add(p);
        }
        status.put("parents", parentList);
        List<Object> subs = new ArrayList<>();
        for (Subscription sub : new TreeMap<>(subscriptions).values()) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("key", sub.key);
            s.put("parent", sub.parent);
            s.put("idleMillis", now - sub.lastRequestMillis);
            subs.add(s);
        }
        status.put("subscriptions", subs);
        Map<String, Object> counters = new LinkedHashMap<>();
        counters.put("liveRequests", liveRequests.get());
        counters.put("upstreamFetches", upstreamFetches.get());
        counters.put("localDecisions", localDecisions.get());
        counters.put("movesKept", movesKept.get());
        counters.put("newerVersionWaits", newerVersionWaits.get());
        counters.put("denied", denied.get());
        counters.put("ribInstalled", ribInstalled.get());
        counters.put("ribDropped", ribDropped.get());
        counters.put("reports", reports.get());
        counters.put("fibsPublished", fibsPublished.get());
        counters.put("advertisementsSent", advertisementsSent.get());
        counters.put("advertisementsReceived", advertisementsReceived.get());
        counters.put("advertisementsRefused", advertisementsRefused.get());
        status.put("counters", counters);
        if (config.tier() == Tier.EDGE) {
            status.put("serving", serving.figures(now));
        }
        status.put("problems", new TreeMap<>(lastProblems));
        return status;
    }

    /** Counter {@code name} of {@link #status()}. */
    long counter(String name) {
        return ((Number) ((Map<?, ?>) status().get("counters")).get(name)).longValue();
    }

    /** The distances to an object through each parent, for tests. */
    Map<String, Distance> routes(String key) {
        return vector.routes(key);
    }

    /** The FIB, for tests. */
    HybridTable<String> fib() {
        return fib;
    }

    // ---- logging

    private void log(String message) {
        System.err.println("vdn-agent " + config.cluster() + ": " + message);
    }

    /** Logs a problem of a kind when its message changes, not every period. */
    private void problem(String kind, String message) {
        if (!message.equals(lastProblems.put(kind, message))) {
            log(message);
        }
    }

    private static String name(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    private java.util.concurrent.ThreadFactory daemon(String role) {
        AtomicLong count = new AtomicLong();
        return runnable -> {
            Thread thread = new Thread(runnable, "vdn-" + config.cluster() + "-" + role + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
