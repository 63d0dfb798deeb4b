package io.heliograph.testbed;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A real Prometheus server (Debian's {@code prometheus}) scraping one controller's {@code /metrics}
 * every second with the administrator's credentials, as an operator would set it up: its
 * configuration, data and password file in a temporary directory of its own, its HTTP API on a free
 * loopback port, its output in a log kept as a build artifact. Closing ends it by its pid and
 * deletes the directory.
 */
public final class PrometheusServer implements AutoCloseable {

    /** The job name the scrape is configured under (the {@code job} label of every series). */
    public static final String JOB = "heliograph";
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final Path dir;
    private final Path log;
    private final int port;
    private final Process process;
    private final RestClient api;

    private PrometheusServer(Path dir, Path log, int port, Process process) {
        this.dir = dir;
        this.log = log;
        this.port = port;
        this.process = process;
        this.api = RestClient.anonymous(URI.create("http://127.0.0.1:" + port));
    }

    public static void requireInstalled() {
        if (!Command.of("sh", "-c", "command -v prometheus").run().succeeded()) {
            throw new IllegalStateException("prometheus is not installed: apt-get install -y --no-install-recommends "
                    + "prometheus, or run deploy/heliograph test, which installs it");
        }
    }

    /**
     * Starts Prometheus scraping {@code http://127.0.0.1:<httpPort>/metrics} every second as {@code user};
     * it answers queries once {@link #awaitScraping} returns.
     */
    public static PrometheusServer start(int httpPort, ControllerProcess.Credentials user, Path log) {
        requireInstalled();
        int port = ControllerProcess.freePort();
        try {
            Path dir = Files.createTempDirectory("heliograph-prometheus-");
            Path password = dir.resolve("password");
            Files.writeString(password, user.password(), StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-------"));
            Path config = dir.resolve("prometheus.yml");
            Files.writeString(config, String.join("\n",
                    "global:",
                    "  scrape_interval: 1s",
                    "  scrape_timeout: 1s",
                    "  evaluation_interval: 1s",
                    "scrape_configs:",
                    "  - job_name: " + JOB,
                    "    metrics_path: /metrics",
                    "    basic_auth:",
                    "      username: '" + user.user() + "'",
                    "      password_file: " + password,
                    "    static_configs:",
                    "      - targets: ['127.0.0.1:" + httpPort + "']",
                    ""), StandardCharsets.UTF_8);
            List<String> argv = new ArrayList<>(List.of("prometheus", "--config.file=" + config,
                    "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port));
            Files.createDirectories(log.getParent());
            Files.writeString(log, "# " + String.join(" ", argv) + "\n", StandardCharsets.UTF_8);
            Process process = new ProcessBuilder(argv).directory(dir.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            return new PrometheusServer(dir, log, port, process);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start prometheus", e);
        }
    }

    public long pid() {
        return process.pid();
    }

    public int port() {
        return port;
    }

    /** Waits until Prometheus is ready and has scraped the controller successfully at least once. */
    public void awaitScraping(Duration timeout) {
        Poll.until("Prometheus (pid " + pid() + ", log " + log + ") to scrape the controller", timeout, () -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("prometheus exited with " + process.exitValue() + "; log:\n" + log());
            }
            return query("up{job=\"" + JOB + "\"} == 1").size();
        }, up -> up == 1);
    }

    /**
     * The result of an instant query through the HTTP API ({@code /api/v1/query}): one element per
     * series, each with {@code metric} (its labels) and {@code value} ([time, "number"]).
     */
    public JsonNode query(String promql) {
        RestClient.Response response = api.get("/api/v1/query?query="
                + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        JsonNode body = response.json();
        if (response.status() != 200 || !"success".equals(body.path("status").asText())) {
            throw new IllegalStateException("query " + promql + " failed: " + response);
        }
        return body.at("/data/result");
    }

    /** The one number an instant query gives, or NaN when it gives no series. */
    public double scalar(String promql) {
        JsonNode result = query(promql);
        if (result.size() > 1) {
            throw new IllegalStateException(promql + " gave " + result.size() + " series: " + result);
        }
        return result.isEmpty() ? Double.NaN : Double.parseDouble(result.get(0).at("/value/1").asText());
    }

    public String log() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGTERM by pid (Prometheus shuts down cleanly), SIGKILL if it does not; then its directory goes. */
    @Override
    public void close() {
        Signals.terminate(process, STOP_GRACE);
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
