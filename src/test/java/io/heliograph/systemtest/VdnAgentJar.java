package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.testbed.Signals;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The VDN agent jar of a distribution ({@code tools/heliograph-vdn-agent.jar}) as the VDN system tests
 * run it: agents with small heaps (eleven JVMs share two cores), their status, and the jar's client
 * playing a plan of channels.
 */
final class VdnAgentJar {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Path jar;

    VdnAgentJar(Path jar) {
        assertTrue(Files.isRegularFile(jar), jar + " in the distribution");
        this.jar = jar;
    }

    /** Starts an agent on {@code config}, its output appended to {@code log}; {@code wrapper} runs it (e.g. ip netns exec). */
    Process start(List<String> wrapper, Path config, Path log) {
        List<String> argv = new ArrayList<>(wrapper);
        argv.addAll(List.of(java(), "-Xmx48m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k", "-jar",
                jar.toString(), "--config", config.toString()));
        try {
            return new ProcessBuilder(argv).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + argv, e);
        }
    }

    /** An agent's {@code GET /vdn/status}. */
    static JsonNode status(URI agent) {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(agent + "/vdn/status"))
                    .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(agent + " answered " + response.statusCode());
            }
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Tells an agent the capacity of the link from one of its parents now, as a capacity estimator would. */
    static void linkCapacity(URI agent, String parent, long kbps) {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(agent + "/vdn/links/" + parent))
                    .timeout(Duration.ofSeconds(5)).PUT(HttpRequest.BodyPublishers.ofString("{\"capacityKbps\":" + kbps + "}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(agent + " answered " + response.statusCode() + ": " + response.body());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Whether every parent of the agent whose status this is was heard. */
    static boolean allParentsHeard(JsonNode status) {
        for (JsonNode parent : status.path("parents")) {
            if (!parent.path("heard").asBoolean()) {
                return false;
            }
        }
        return true;
    }

    /** Starts the jar's client on {@code plan}: a channel per session, {@code chunks} chunks each. */
    Process client(Path plan, int chunks, int chunkSeconds, List<Integer> bitrates, Path log) {
        List<String> argv = List.of(java(), "-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-jar",
                jar.toString(), "client", "--plan", plan.toString(), "--chunks", Integer.toString(chunks),
                "--chunk-seconds", Integer.toString(chunkSeconds), "--bitrates",
                String.join(",", bitrates.stream().map(String::valueOf).toList()));
        try {
            return new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + argv, e);
        }
    }

    /**
     * Waits for a client started by {@link #client} to finish; its session lines, then its summary, last
     * (sessions, complete, median join, mean bitrate, stalls, denied).
     */
    static List<JsonNode> played(Process client, Path log, Duration limit) throws IOException, InterruptedException {
        try {
            if (!client.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
                throw new AssertionError("the client did not finish within " + limit + "; " + log);
            }
        } finally {
            if (client.isAlive()) {
                Signals.terminate(client, Duration.ofSeconds(5));
            }
        }
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (line.startsWith("{\"edge\"") || line.startsWith("{\"summary\"")) {
                lines.add(JSON.readTree(line));
            }
        }
        assertTrue(!lines.isEmpty() && lines.get(lines.size() - 1).has("summary"), "the client's summary line in " + log);
        return lines;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
