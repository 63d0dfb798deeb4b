package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.Bridge;
import io.heliograph.testbed.Cleanup;
import io.heliograph.testbed.ControllerDistribution;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.Host;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.RawHttp;
import io.heliograph.testbed.RestClient;
import io.heliograph.testbed.RestClient.Response;
import io.heliograph.testbed.Testbed;
import java.io.ByteArrayOutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 18: every operation of the controller's OpenAPI document (the API's own paths, Floodlight's
 * {@code /wm/...} aliases, auth, bundles, config, pipelines, static flows, statistics, hosts, paths,
 * events...) sent hostile requests, against the default profile with a real Open VSwitch switch (two
 * hosts) connected, so switch paths reach a real switch:
 *
 * <ul>
 *   <li>without credentials and with bad ones (wrong password, unknown user, malformed Basic, a revoked
 *       or made-up bearer token), also through the public paths ({@code /ui/../api/...},
 *       {@code /api/v1/health/../...}): nothing but {@code GET /api/v1/health} and the UI's static files
 *       may answer below 400;</li>
 *   <li>with credentials (HTTP Basic and a bearer token in turn): path parameters with traversal and
 *       odd characters ({@code ../}, {@code %2e%2e}, {@code %00}, CRLF, very long), query parameters of
 *       the wrong type or out of range, bodies of the wrong types, malformed, nested 10,000 deep, over the
 *       1 MiB body limit (with a length and chunked), in the wrong or no content type, invalid
 *       multipart, and random mutations of a plausible body that always keep one unknown member;</li>
 * </ul>
 *
 * and asserts: no 5xx (the switch is there and answers, so none of the 502/503/504 the switch paths
 * document for a switch that does not is expected either; the one 5xx allowed is the documented 503 of
 * {@code /api/v1/events} when 64 streams are open, as the ones the fuzz leaves are found only by the next
 * keep-alive), every error a JSON body without a
 * stack trace, no unauthenticated answer below 400 on a non-public path, and, after each operation's
 * requests, the stored static entries (and the switch's static flows and groups), the shared
 * configuration, the tokens, the listener orders and the bundles exactly as before.
 *
 * <p>What would stop the controller or lose the test's own state is never sent with credentials: no
 * bundle id that exists goes to stop, start or uninstall (an update gets the static-flows app's id, with
 * bodies that are never a jar), no {@code clear} gets {@code all} or anything that reads as a datapath
 * id, no delete names the test's static entries, its shared pid or its tokens, and write bodies are never
 * valid (each keeps an unknown member). Without credentials those same destructive requests are sent, valid
 * bodies included: they must be refused and change nothing.
 *
 * <p>Seeded: the seed is printed, {@code -Dfuzz.seed=N} replays it; {@code -Dfuzz.rest.seconds} sets the
 * time budget (60 s by default) over which random mutations follow the fixed hostile requests of each
 * operation.
 */
@Timeout(600)
class RestFuzzIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long SEED = Long.getLong("fuzz.seed", System.nanoTime());
    private static final Duration BUDGET = Duration.ofSeconds(Long.getLong("fuzz.rest.seconds", 60));
    /** The distribution's max.body.bytes (etc/io.heliograph.webui.cfg). */
    private static final int BODY_LIMIT = 1 << 20;
    private static final String DPID = "00:00:00:00:00:00:00:01";
    private static final String SHARED_PID = "io.heliograph.forwarding";
    private static final String STATIC_COOKIE = "cookie=0x5346000000000000/0xffff000000000000";
    /** Marks every write body sent with credentials: a member or element no resource knows, so the body is never valid. */
    private static final String MARKER = "fuzz-unknown";

    private static final String WEB_FLOW = "{\"switch\":\"" + DPID + "\",\"name\":\"fuzz-web\",\"priority\":100,"
            + "\"eth_type\":\"0x0800\",\"ip_proto\":\"6\",\"tcp_dst\":\"80\",\"actions\":\"output=2\"}";
    private static final String GROUP = "{\"switch\":\"1\",\"name\":\"fuzz-group\",\"entry_type\":\"group\",\"group_id\":7,"
            + "\"group_type\":\"all\",\"group_buckets\":[{\"bucket_actions\":\"output=1\"}]}";

    /** Path segments written as they are into the request target. */
    private static final List<String> HOSTILE_SEGMENTS = List.of("..", "../..", "../../../../etc/passwd", "..%2f..",
            "%2e%2e", "%2e%2e%2f", ".%2e", "%252e%252e", "%c0%ae%c0%ae", "%5c..%5c", "..\\", ".", "~", "//",
            "%00", "a%00b", "%ff%fe", "%zz", "%", "%3`", "%2:a", "%7f", "%0d%0aX-Injected:%201", "%F0%9F%98%80", "%e9", "a%20b",
            "+", ";", ";x=1", "%3b", "*", "%2a", "'", "%22", "%3Cscript%3E", "%2f", "{dpid}", "-1", "0",
            "99999999999999999999", "0x", "0xffffffffffffffffff", "1e3", "0.5", "true", "null", "NaN",
            "00:00:00:00:00:00:00:01:02", "zz:zz:zz:zz:zz:zz:zz:zz", "00:00:00:00:00:00:00:0g", "all", "ALL",
            "x".repeat(300), "x".repeat(4_000), "x".repeat(20_000));
    /** Query values, written as they are. */
    private static final List<String> HOSTILE_VALUES = List.of("", "abc", "-1", "0", "-2147483649", "2147483648",
            "9223372036854775808", "99999999999999999999", "1e999", "NaN", "Infinity", "0.5", "0x10", "true",
            "%00", "%zz", "%", "..%2f..", "[]", "{}", "a,b", "%0d%0a", "x".repeat(2_000), "x".repeat(20_000),
            "10.0.0.300", "ff:ff:ff:ff:ff:ff:ff", "4095", "4096", "-0");
    /** Bodies that are not JSON, or not one JSON value. */
    private static final List<String> MALFORMED = List.of("{", "{\"a\":", "[1,", "nul", "\"unterminated", "{'a':1}",
            "{\"a\":1}}", "{\"a\":1} {\"b\":2}", "\u0000", "{\"a\":\"\\ud800\"}", "{\"a\":\"\\x\"}", "{\"a\":01}",
            "{\"a\":1,}", "[1,]", "{a:1}", "\ufeff[1,]", "{\"a\":-}", "{\"a\":1e99999}", "{\"a\":" + "9".repeat(2_000) + "}");
    /** JSON of the wrong shape for any body the API takes. */
    private static final List<String> WRONG_SHAPES = List.of("1", "-1", "1e999", "\"s\"", "true", "null", "[]", "[null]",
            "[1,\"a\",{}]", "{\"\":null}", "[[[]]]", "{\"" + MARKER + "\":{\"" + MARKER + "\":[]}}", "\"" + "x".repeat(500_000) + "\"");
    /** Wrong values for a schema property, whatever its type. */
    private static final List<String> WRONG_VALUES = List.of("null", "true", "-1", "0", "1e999", "9223372036854775808",
            "\"\"", "\"x\"", "[]", "{}", "[1,2]", "\"\\u0000\"", "\"" + "x".repeat(100_000) + "\"");
    private static final List<String> BAD_CONTENT_TYPES = List.of("text/plain", "application/xml",
            "application/x-www-form-urlencoded", "multipart/form-data; boundary=zz", "multipart/form-data",
            "multipart/mixed; boundary=zz", "application/json; charset=utf-16", "application/json; charset=klingon",
            "application/octet-stream", "application/java-archive", "application/zip", "*/*", "application/*",
            ";;;", "application/json, text/plain", "x".repeat(3_000));
    private static final List<String> MUTATION_TOKENS = List.of("\u0000", "1e999", "[[[[", "]]]]", "\"\\ud800\"", "-0",
            "9223372036854775808", "null", "{}", "\"", "\\", ",", ":", "\uffff", "%00", "../");
    private static final List<String> OTHER_METHODS = List.of("PATCH", "TRACE", "OPTIONS", "HEAD", "PROPFIND", "FOO");

    private static Path artifacts;
    private static ControllerDistribution distribution;
    private static ControllerProcess controller;
    private static Testbed testbed;
    private static Bridge bridge;
    private static RestClient admin;
    private static RawHttp http;
    private static String basic;
    private static String bearer;
    private static String bearerId;
    private static String revokedBearer;
    private static String password;
    private static long staticFlowsBundle;
    private static long maxBundleId;

    @BeforeAll
    static void start() {
        artifacts = ArtifactDirectory.forTest("RestFuzzIT");
        distribution = ControllerDistribution.copyOfBuilt(Path.of("/tmp"));
        controller = ControllerProcess.start(distribution, artifacts.resolve("controller.log"));
        controller.awaitHealthy(Duration.ofSeconds(60));
        // healthy means the platform is up; the profile's apps may still be activating, and the
        // fuzz's state includes static entries
        controller.awaitApi("/api/v1/staticflows/flows", Duration.ofSeconds(60));
        testbed = Testbed.start("RestFuzzIT");
        bridge = testbed.addSwitch(1, List.of("OpenFlow13"));
        Host h1 = testbed.addHost(1, bridge);
        Host h2 = testbed.addHost(2, bridge);
        bridge.setController(testbed.controllerTarget("tcp", controller.openflowPort()));
        controller.awaitSwitches(1, Duration.ofSeconds(60));
        h1.awaitReachable(h2, Duration.ofSeconds(30));

        admin = controller.rest();
        http = new RawHttp(controller.httpPort());
        ControllerProcess.Credentials credentials = controller.credentials(Duration.ofSeconds(10));
        password = credentials.password();
        basic = "Basic " + base64(credentials.user() + ":" + password);
        JsonNode token = ok(admin.post("/api/v1/auth/tokens", Map.of("name", "RestFuzzIT")), 201);
        bearer = "Bearer " + token.get("token").asText();
        bearerId = token.get("id").asText();
        JsonNode revoked = ok(admin.post("/api/v1/auth/tokens", Map.of("name", "RestFuzzIT revoked")), 201);
        revokedBearer = revoked.get("token").asText();
        assertEquals(204, admin.delete("/api/v1/auth/tokens/" + revoked.get("id").asText()).status());

        // State the fuzz must leave as it is: static entries on the switch, a shared setting.
        ok(admin.post("/api/v1/staticflows/flows", WEB_FLOW), 201);
        ok(admin.post("/api/v1/staticflows/groups", GROUP), 201);
        ok(admin.put("/api/v1/config/" + SHARED_PID, Map.of("idleTimeout", "17")), 200);
        Poll.until("the static flow on the switch", Duration.ofSeconds(20),
                () -> bridge.ofctl("dump-flows", STATIC_COOKIE), dump -> dump.contains("tp_dst=80"));
        for (JsonNode bundle : ok(admin.get("/api/v1/bundles"), 200)) {
            maxBundleId = Math.max(maxBundleId, bundle.get("id").asLong());
            if (bundle.get("symbolicName").asText().equals("io.heliograph.staticflows")) {
                staticFlowsBundle = bundle.get("id").asLong();
            }
        }
        assertTrue(staticFlowsBundle > 0, "the static-flows app is installed");
    }

    @AfterAll
    static void stop() {
        Cleanup cleanup = new Cleanup("RestFuzzIT");
        cleanup.close("testbed", testbed);
        cleanup.close("controller", controller);
        cleanup.close("distribution copy", distribution);
        cleanup.finish();
    }

    @Test
    void everyOperationAnswersHostileRequestsWithoutServerErrorsLeaksOrChanges() {
        System.out.println("RestFuzzIT seed " + SEED + " (replay with -Dfuzz.seed=" + SEED + ")");
        Random random = new Random(SEED);
        List<Operation> operations = operations(ok(admin.get("/api/v1/openapi.json"), 200));
        assertTrue(operations.size() >= 60, "the document lists the API: " + operations.size() + " operations");

        Map<String, Map<Integer, Integer>> statuses = new TreeMap<>();
        Map<String, Integer> categories = new TreeMap<>();
        List<String> violations = new ArrayList<>();
        Map<String, Integer> acceptedWrites = new TreeMap<>();
        long budgetNanos = BUDGET.toNanos() / operations.size();
        long started = System.nanoTime();
        int sent = 0;
        for (Operation op : operations) {
            Map<String, String> before = state();
            long opStart = System.nanoTime();
            List<Probe> probes = fixedProbes(op, random);
            Iterator<Probe> fixed = probes.iterator();
            int opSent = 0;
            List<String> opAccepted = new ArrayList<>();
            while (fixed.hasNext() || System.nanoTime() - opStart < budgetNanos) {
                Probe probe = fixed.hasNext() ? fixed.next() : randomProbe(op, random);
                RawHttp.Answer answer = http.send(probe.method(), probe.target(), probe.headers(), probe.body(), probe.chunked());
                opSent++;
                statuses.computeIfAbsent(op.toString(), k -> new TreeMap<>()).merge(answer.status(), 1, Integer::sum);
                categories.merge(probe.category(), 1, Integer::sum);
                String problem = check(op, probe, answer);
                if (problem != null) {
                    violations.add(problem + "\n    request: " + probe + "\n    answer: " + answer.status() + " "
                            + abbreviate(answer.body() + (answer.failure() == null ? "" : answer.failure()), 300));
                }
                if (probe.authenticated() && op.writes() && answer.status() >= 200 && answer.status() < 300
                        && !probe.category().equals("method")) {
                    acceptedWrites.merge(op + " (" + probe.category() + ")", 1, Integer::sum);
                    opAccepted.add(probe + " -> " + answer.status() + " " + abbreviate(answer.body(), 200));
                }
            }
            sent += opSent;
            Map<String, String> after = state();
            for (String part : before.keySet()) {
                if (!before.get(part).equals(after.get(part))) {
                    violations.add(op + " changed the stored " + part + ":\n    " + difference(before.get(part), after.get(part))
                            + "\n    writes it accepted: " + opAccepted);
                }
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;

        System.out.printf("RestFuzzIT: %d requests over %d operations in %.1f s (seed %d)%n", sent, operations.size(),
                seconds, SEED);
        System.out.println("RestFuzzIT requests by kind: " + categories);
        statuses.forEach((op, counts) -> System.out.printf("  %-62s %5d  %s%n", op,
                counts.values().stream().mapToInt(Integer::intValue).sum(), counts));
        Map<Integer, Integer> overall = new TreeMap<>();
        statuses.values().forEach(counts -> counts.forEach((s, n) -> overall.merge(s, n, Integer::sum)));
        System.out.println("RestFuzzIT statuses overall: " + overall);
        // Only what is valid whatever it is sent with may be here (a rebalance of one instance changes nothing).
        System.out.println("RestFuzzIT writes accepted with credentials: " + acceptedWrites);

        Map<String, Integer> kinds = new TreeMap<>();
        violations.forEach(v -> kinds.merge(v.substring(0, v.indexOf('\n') < 0 ? v.length() : v.indexOf('\n')), 1,
                Integer::sum));
        System.out.println("RestFuzzIT violations by kind: " + kinds);
        writeAll(artifacts.resolve("violations.txt"), violations);

        assertTrue(controller.isAlive(), "the controller is alive");
        assertEquals(1, controller.awaitSwitches(1, Duration.ofSeconds(10)).switches(), "the switch is still connected");
        assertTrue(violations.isEmpty(), violations.size() + " violations (seed " + SEED + "), the first 25:\n"
                + String.join("\n", violations.subList(0, Math.min(25, violations.size()))));
        assertTrue(!controller.log().contains("StackOverflowError"), "no StackOverflowError in the controller log");
    }

    // --- The operations --------------------------------------------------------------------------

    record Param(String name, boolean inPath) {
    }

    record Operation(String method, String template, List<Param> params, List<String> bodyTypes, JsonNode schema) {
        boolean writes() {
            return !method.equals("GET") || template.contains("/clear/");
        }

        boolean isPublic() {
            return method.equals("GET") && template.equals("/api/v1/health");
        }

        List<Param> pathParams() {
            return params.stream().filter(Param::inPath).toList();
        }

        List<Param> queryParams() {
            return params.stream().filter(p -> !p.inPath()).toList();
        }

        @Override
        public String toString() {
            return method + " " + template;
        }
    }

    private static List<Operation> operations(JsonNode document) {
        List<Operation> operations = new ArrayList<>();
        document.get("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(entry -> {
            JsonNode op = entry.getValue();
            List<Param> params = new ArrayList<>();
            for (JsonNode p : op.path("parameters")) {
                params.add(new Param(p.get("name").asText(), p.get("in").asText().equals("path")));
            }
            List<String> bodyTypes = new ArrayList<>();
            JsonNode schema = null;
            JsonNode content = op.path("requestBody").path("content");
            for (Iterator<Map.Entry<String, JsonNode>> it = content.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> type = it.next();
                bodyTypes.add(type.getKey());
                schema = resolve(document, type.getValue().path("schema"));
            }
            operations.add(new Operation(entry.getKey().toUpperCase(Locale.ROOT), path.getKey(), params, bodyTypes, schema));
        }));
        return operations;
    }

    private static JsonNode resolve(JsonNode document, JsonNode schema) {
        if (schema.has("$ref")) {
            return document.at(schema.get("$ref").asText().substring(1));
        }
        return schema;
    }

    // --- The requests ----------------------------------------------------------------------------

    enum Auth { NONE, BAD, BASIC, BEARER }

    record Probe(String category, Auth auth, String method, String target, List<String> headers, byte[] body,
            boolean chunked) {
        boolean authenticated() {
            return auth == Auth.BASIC || auth == Auth.BEARER;
        }

        @Override
        public String toString() {
            String shown = body == null ? "" : " body(" + body.length + (chunked ? ", chunked" : "") + ")="
                    + abbreviate(new String(body, StandardCharsets.UTF_8), 120);
            return category + " " + auth + " " + method + " " + abbreviate(target, 200) + " "
                    + headers.stream().filter(h -> !h.startsWith("Authorization")).toList() + shown;
        }
    }

    private static List<Probe> fixedProbes(Operation op, Random random) {
        List<Probe> probes = new ArrayList<>();
        String base = target(op, null, null, false);
        String dangerous = target(op, null, null, true);
        byte[] validBody = op.writes() ? seedBody(op, true).getBytes(StandardCharsets.UTF_8) : null;
        List<String> json = List.of("Content-Type: application/json");

        // Without credentials, and with bad ones: the destructive form of the request, valid body included.
        for (String target : bypasses(dangerous)) {
            probes.add(new Probe("no-credentials", Auth.NONE, op.method(), target, json, validBody, false));
        }
        for (String credential : badCredentials()) {
            probes.add(new Probe("bad-credentials", Auth.BAD, op.method(), dangerous,
                    List.of("Content-Type: application/json", "Authorization: " + credential), validBody, false));
        }

        int n = 0;
        byte[] body = op.writes() ? marked(seedBody(op, false)).getBytes(StandardCharsets.UTF_8) : null;
        for (Param param : op.pathParams()) {
            for (String value : HOSTILE_SEGMENTS) {
                if (safe(op, param.name(), value)) {
                    probes.add(authenticated("path", n++, op.method(), target(op, param.name(), value, false), json, body));
                }
            }
        }
        for (Param param : op.queryParams()) {
            for (String value : HOSTILE_VALUES) {
                probes.add(authenticated("query", n++, op.method(), base + "?" + param.name() + "=" + value, json, body));
            }
            probes.add(authenticated("query", n++, op.method(), base + "?" + param.name(), json, body));
            probes.add(authenticated("query", n++, op.method(), base + "?" + param.name() + "=1&" + param.name() + "=2",
                    json, body));
        }
        for (String query : List.of("?fuzz=1", "?&&&", "?=", "?%zz=1", "?a=" + "y".repeat(9_000))) {
            probes.add(authenticated("query", n++, op.method(), base + query, json, body));
        }
        for (String method : OTHER_METHODS) {
            probes.add(authenticated("method", n++, method, base, json, null));
        }
        // Every resource looks at the content type (a multipart one is parsed before any mapping): GETs too.
        for (String type : BAD_CONTENT_TYPES) {
            probes.add(authenticated("content-type", n++, op.method(), base, List.of("Content-Type: " + type),
                    body != null ? body : "{\"fuzz\":1}".getBytes(StandardCharsets.UTF_8)));
        }
        probes.add(authenticated("content-type", n++, op.method(), base, List.of(), body));
        if (!op.writes()) {
            return probes;
        }
        for (String text : MALFORMED) {
            probes.add(authenticated("malformed", n++, op.method(), base, json, text.getBytes(StandardCharsets.UTF_8)));
        }
        probes.add(authenticated("malformed", n++, op.method(), base, json,
                new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xff, (byte) 0xfe, (byte) 0xc0, '"', '}'}));
        probes.add(authenticated("malformed", n++, op.method(), base, json, new byte[0]));
        probes.add(authenticated("malformed", n++, op.method(), base, json, null));
        for (String text : WRONG_SHAPES) {
            if (text.equals("[]") && op.template().startsWith("/api/v1/pipelines/")) {
                continue;   // an empty order is valid: the listeners' default order
            }
            probes.add(authenticated("wrong-type", n++, op.method(), base, json, text.getBytes(StandardCharsets.UTF_8)));
        }
        for (String text : schemaViolations(op, random)) {
            probes.add(authenticated("wrong-type", n++, op.method(), base, json, text.getBytes(StandardCharsets.UTF_8)));
        }
        for (String text : List.of("[".repeat(10_000) + "]".repeat(10_000),
                "{\"a\":".repeat(10_000) + "1" + "}".repeat(10_000),
                "{\"name\":\"x\",\"actions\":" + "[".repeat(5_000) + "]".repeat(5_000) + "}",
                "[".repeat(100_000))) {
            probes.add(authenticated("deep", n++, op.method(), base, json, text.getBytes(StandardCharsets.UTF_8)));
        }
        byte[] huge = huge(BODY_LIMIT + 100_000);
        probes.add(authenticated("huge", n++, op.method(), base, json, huge));
        probes.add(new Probe("huge", n % 2 == 0 ? Auth.BASIC : Auth.BEARER, op.method(), base,
                List.of("Content-Type: application/json", "Authorization: " + (n++ % 2 == 0 ? basic : bearer)), huge, true));
        probes.add(authenticated("huge", n++, op.method(), base, List.of("Content-Type: multipart/form-data; boundary=zz"),
                huge));
        probes.add(authenticated("huge", n++, op.method(), base, json, huge(BODY_LIMIT - 1_000)));
        return probes;
    }

    private static Probe randomProbe(Operation op, Random random) {
        int n = random.nextInt();
        if (!op.writes() || random.nextInt(4) == 0) {
            Param param = op.params().isEmpty() ? null : op.params().get(random.nextInt(op.params().size()));
            String value = mutate(pick(random, param != null && param.inPath() ? HOSTILE_SEGMENTS : HOSTILE_VALUES), random);
            if (param == null) {
                return authenticated("random-query", n, op.method(), target(op, null, null, false) + "?fuzz=" + value,
                        List.of(), null);
            }
            if (param.inPath()) {
                while (!safe(op, param.name(), value)) {
                    value = mutate(pick(random, HOSTILE_SEGMENTS), random);
                }
                return authenticated("random-path", n, op.method(), target(op, param.name(), value, false), List.of(), null);
            }
            return authenticated("random-query", n, op.method(), target(op, null, null, false) + "?" + param.name() + "="
                    + value, List.of(), null);
        }
        String body = mutate(marked(seedBody(op, false)), random);
        while (!body.contains("fuzz-")) {
            body = mutate(marked(seedBody(op, false)), random);   // the marker is what keeps the body invalid
        }
        String type = random.nextInt(5) == 0 ? pick(random, BAD_CONTENT_TYPES) : "application/json";
        return authenticated("random-body", n, op.method(), target(op, null, null, false), List.of("Content-Type: " + type),
                body.getBytes(StandardCharsets.UTF_8));
    }

    private static Probe authenticated(String category, int n, String method, String target, List<String> headers,
            byte[] body) {
        boolean useBasic = Math.floorMod(n, 2) == 0;
        List<String> all = new ArrayList<>(headers);
        all.add("Authorization: " + (useBasic ? basic : bearer));
        return new Probe(category, useBasic ? Auth.BASIC : Auth.BEARER, method, target, all, body, false);
    }

    /** The operation's path with every parameter at a plausible value, {@code fuzzed} at {@code value}. */
    private static String target(Operation op, String fuzzed, String value, boolean dangerous) {
        String path = op.template();
        Matcher m = Pattern.compile("\\{(\\w+)}").matcher(path);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            String replacement = name.equals(fuzzed) ? value : plausible(op, name, dangerous);
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }

    /**
     * A value the parameter could take: the real switch, entry, pid, bundle... For an operation that
     * destroys what it names (a delete, a stop, a clear), one that names nothing, unless {@code dangerous}
     * asks for the real one (sent only without valid credentials).
     */
    private static String plausible(Operation op, String name, boolean dangerous) {
        String path = op.template();
        boolean harmless = !dangerous && destroys(op);
        switch (name) {
            case "dpid", "switchId", "src", "dst":
                return path.contains("/clear/") ? (harmless ? "zz" : "all") : DPID;
            case "port":
                return "1";
            case "mac":
                return "02:00:00:00:00:01";
            case "kind":
                return "flows";
            case "name":
                return harmless ? "no-such-entry" : "fuzz-web";
            case "type":
                return "PACKET_IN";
            case "pid":
                return harmless ? "io.heliograph.nosuchapp" : SHARED_PID;
            case "statType":
                return "port";
            case "id":
                if (path.startsWith("/api/v1/auth/tokens")) {
                    return harmless ? "0000" : bearerId;
                }
                return harmless ? Long.toString(maxBundleId + 1_000) : Long.toString(staticFlowsBundle);
            default:
                return "1";
        }
    }

    /** Whether the operation, accepted, would remove or stop what its path names. */
    private static boolean destroys(Operation op) {
        return op.method().equals("DELETE") || op.template().endsWith("/start") || op.template().endsWith("/stop")
                || op.template().contains("/clear/");
    }

    /** Whether {@code value} for {@code name} is harmless to send with credentials (see the class comment). */
    private static boolean safe(Operation op, String name, String value) {
        String decoded = decoded(value).strip();
        String path = op.template();
        if (path.startsWith("/api/v1/bundles/{id}") && !op.method().equals("GET")) {
            // any number could name a bundle (0 is the framework): only what cannot read as one
            return !decoded.matches("[+-]?(0x)?[0-9a-fA-F]{1,18}") || decoded.length() > 18;
        }
        if (path.contains("/clear/")) {
            return !decoded.equalsIgnoreCase("all") && !decoded.matches("[0-9a-fA-Fx:+-]*") && !decoded.isEmpty();
        }
        if (op.method().equals("DELETE") && name.equals("name")) {
            return !decoded.startsWith("fuzz-");
        }
        if (op.method().equals("DELETE") && name.equals("pid")) {
            return !decoded.equals(SHARED_PID);
        }
        if (op.method().equals("DELETE") && name.equals("id")) {
            return !decoded.equals(bearerId);
        }
        return true;
    }

    private static String decoded(String value) {
        try {
            return URLDecoder.decode(value.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return value;
        }
    }

    /** The public paths a request might try to pass through on its way to a protected one. */
    private static List<String> bypasses(String target) {
        String rest = target.startsWith("/api/v1/") ? target.substring("/api/v1/".length()) : target.substring(1);
        String fromRoot = target.substring(1);
        return List.of(target, "/api/v1/health/../" + rest, "/ui/../" + fromRoot, "/ui/%2e%2e/" + fromRoot,
                "/ui/..%2f" + fromRoot, "/ui/..;/" + fromRoot, "/webjars/../" + fromRoot, "/index.html/../" + fromRoot,
                "/ui/pages/../../" + fromRoot, "//" + fromRoot, "/./" + fromRoot, target + ";jsessionid=1",
                target.toUpperCase(Locale.ROOT), target + "/", target + "%20", target + "%00", target + "?health");
    }

    private static List<String> badCredentials() {
        return List.of("Basic " + base64("admin:wrong"), "Basic " + base64("root:" + password),
                "Basic " + base64("admin:" + password + "x"), "Basic " + base64("admin"), "Basic !!!not-base64",
                "Basic ", "Basic " + base64(":" + password), "Bearer " + revokedBearer, "Bearer " + "0".repeat(64),
                "Bearer " + bearer.substring("Bearer ".length()) + "x", "Bearer", "Bearer ", "Digest username=\"admin\"",
                "Negotiate abc", "x".repeat(10_000), base64("admin:" + password));
    }

    /**
     * A body such an operation takes when valid. A delete's names the test's own entry only when
     * {@code dangerous}: the pusher's delete reads the name alone, so no marker would make it invalid.
     */
    private static String seedBody(Operation op, boolean dangerous) {
        String path = op.template();
        if (path.equals("/api/v1/auth/tokens")) {
            return "{\"name\":\"fuzz\",\"expiresInSeconds\":60}";
        }
        if (path.startsWith("/api/v1/config/")) {
            return "{\"idleTimeout\":\"7\"}";
        }
        if (path.startsWith("/api/v1/pipelines/")) {
            return "[\"topology\",\"devices\",\"forwarding\",\"learningswitch\"]";
        }
        if (path.startsWith("/api/v1/cluster/masterships")) {
            return "{\"instance\":\"fuzz\"}";
        }
        if (path.contains("staticflows") || path.contains("pusher")) {
            return op.method().equals("DELETE") ? "{\"name\":\"" + (dangerous ? "fuzz-web" : "no-such-entry") + "\"}"
                    : WEB_FLOW.replace("fuzz-web", "fuzz-new");
        }
        return "{\"fuzz\":1}";
    }

    /** The body with an element or member nothing knows, so it is never valid. */
    private static String marked(String body) {
        if (body.startsWith("[")) {
            return "[\"" + MARKER + "\"," + body.substring(1);
        }
        if (body.startsWith("{")) {
            return "{\"" + MARKER + "\":[1]," + body.substring(1);
        }
        return body;
    }

    /** For each property of the operation's body schema: that property at every wrong value, the rest plausible. */
    private static List<String> schemaViolations(Operation op, Random random) {
        List<String> bodies = new ArrayList<>();
        JsonNode properties = op.schema() == null ? null : op.schema().get("properties");
        if (properties == null || op.bodyTypes().stream().noneMatch(t -> t.contains("json"))) {
            return bodies;
        }
        properties.fieldNames().forEachRemaining(property -> {
            for (String value : WRONG_VALUES) {
                ObjectNode body = JSON.createObjectNode();
                body.put(MARKER + random.nextInt(1000), 1);
                try {
                    body.set(property, JSON.readTree(value));
                } catch (java.io.IOException e) {
                    throw new IllegalStateException(e);
                }
                bodies.add(body.toString());
            }
        });
        return bodies;
    }

    private static String mutate(String text, Random random) {
        StringBuilder b = new StringBuilder(text);
        int edits = 1 + random.nextInt(3);
        for (int i = 0; i < edits && b.length() > 0; i++) {
            int at = random.nextInt(b.length());
            switch (random.nextInt(6)) {
                case 0 -> b.setCharAt(at, (char) (b.charAt(at) ^ (1 << random.nextInt(7))));
                case 1 -> b.delete(at, Math.min(b.length(), at + 1 + random.nextInt(8)));
                case 2 -> b.insert(at, b.substring(at, Math.min(b.length(), at + 1 + random.nextInt(16))));
                case 3 -> b.insert(at, pick(random, MUTATION_TOKENS));
                case 4 -> b.setLength(at);
                default -> b.insert(at, pick(random, HOSTILE_VALUES));
            }
        }
        return b.toString();
    }

    private static byte[] huge(int size) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(size + 16);
        out.write('[');
        while (out.size() < size) {
            out.writeBytes("1234567,".getBytes(StandardCharsets.US_ASCII));
        }
        out.writeBytes("1]".getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    // --- What is checked -------------------------------------------------------------------------

    /** A problem with this answer, or null. */
    private static String check(Operation op, Probe probe, RawHttp.Answer answer) {
        int status = answer.status();
        if (status == 0) {
            return "no answer";
        }
        if (status == 505 && !isRequestLine(probe.target())) {
            // Jetty's answer when what follows a target with a space or control character is no HTTP version
            return null;
        }
        if (status == 503 && op.template().equals("/api/v1/events") && answer.body().contains("too many event streams")) {
            // The documented bound on open event streams: the fuzz opens them faster than the keep-alive (15 s)
            // finds the ones it left.
            return null;
        }
        if (status >= 500) {
            return "server error " + status;
        }
        if (!probe.authenticated() && status < 400 && !publicTarget(probe)) {
            return "answered " + status + " without valid credentials";
        }
        if (status >= 400 && !probe.method().equals("HEAD")) {
            JsonNode error = jsonOrNull(answer.body());
            if (error == null || error.path("status").asInt() != status || !error.hasNonNull("message")) {
                return "an error that is not the API's JSON error body";
            }
            if (answer.body().contains("Exception") || answer.body().contains("\tat ")) {
                return "an error that shows an exception";
            }
        }
        return null;
    }

    /** Whether {@code target} can stand in an HTTP request line: no space, no control character. */
    private static boolean isRequestLine(String target) {
        return target.chars().noneMatch(c -> c <= ' ' || c == 0x7f);
    }

    /** What anyone may read: the health check, and the UI's static files (which are not in the document). */
    private static boolean publicTarget(Probe probe) {
        if (!probe.method().equals("GET") && !probe.method().equals("HEAD")) {
            return false;
        }
        String target = probe.target();
        return target.equals("/api/v1/health") || target.equals("/api/v1/health?health") || target.equals("/api/v1/health/")
                || target.startsWith("/api/v1/health;");
    }

    /** What the fuzz must not change, each part as text: compared before and after each operation's requests. */
    private static Map<String, String> state() {
        Map<String, String> state = new LinkedHashMap<>();
        state.put("static entries", ok(admin.get("/api/v1/staticflows"), 200).toString());
        state.put("shared configuration", ok(admin.get("/api/v1/config"), 200).toString());
        state.put("tokens", ok(admin.get("/api/v1/auth/tokens"), 200).toString());
        state.put("listener orders", ok(admin.get("/api/v1/pipelines"), 200).toString());
        state.put("bundles", ok(admin.get("/api/v1/bundles"), 200).toString());
        state.put("switch's static flows", withoutCounters(bridge.ofctl("dump-flows", STATIC_COOKIE)));
        state.put("switch's groups", withoutCounters(bridge.ofctl("dump-groups")));
        return state;
    }

    /** Where two snapshots first differ, with some text around it. */
    private static String difference(String before, String after) {
        int at = 0;
        while (at < before.length() && at < after.length() && before.charAt(at) == after.charAt(at)) {
            at++;
        }
        int from = Math.max(0, at - 150);
        return "before: ..." + before.substring(from, Math.min(before.length(), at + 250)) + "...\n    after:  ..."
                + after.substring(from, Math.min(after.length(), at + 250)) + "...";
    }

    private static String withoutCounters(String dump) {
        return dump.replaceAll("(duration|n_packets|n_bytes|idle_age|hard_age|packet_count|byte_count)=[^,\\s]*,?\\s*", "");
    }

    // --- Small things ----------------------------------------------------------------------------

    private static void writeAll(Path file, List<String> lines) {
        try {
            java.nio.file.Files.write(file, lines);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static JsonNode ok(Response response, int status) {
        assertEquals(status, response.status(), response.toString());
        return response.json();
    }

    private static JsonNode jsonOrNull(String text) {
        try {
            return JSON.readTree(text);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static <T> T pick(Random random, List<T> list) {
        return list.get(random.nextInt(list.size()));
    }

    private static String abbreviate(String text, int max) {
        String oneLine = text.replace("\r", "\\r").replace("\n", "\\n");
        return oneLine.length() <= max ? oneLine : oneLine.substring(0, max) + "... (" + oneLine.length() + " chars)";
    }
}
