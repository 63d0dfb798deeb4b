package io.heliograph.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
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
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A controller run from an assembled distribution, as a separate JVM with {@code --console}: the
 * test talks to its Gogo shell through stdin/stdout and reads its log from stderr.
 */
final class ControllerProcess implements AutoCloseable {

    /** One line of Gogo's {@code lb}: {@code "   5|Active     |    1|Name (version)|version"}. */
    private static final Pattern LB_LINE = Pattern.compile("^\\s*(\\d+)\\|(\\w+)\\s*\\|\\s*\\d+\\|(.*)\\|[^|]*$");

    record BundleLine(long id, String state, String name) {
    }

    final int openflowPort;
    final int httpPort;
    private final Process process;
    private final StringBuffer stdout = new StringBuffer();
    /** A file, not a pipe: what the JVM logs as it exits would be lost from a pipe read concurrently. */
    private final Path stderr;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private int markers;

    private ControllerProcess(Process process, Path stderr, int openflowPort, int httpPort) {
        this.process = process;
        this.stderr = stderr;
        this.openflowPort = openflowPort;
        this.httpPort = httpPort;
        pump(process.getInputStream(), stdout, "stdout");
    }

    static ControllerProcess start(Path distribution, Path dataDir, String... extraArgs) throws IOException {
        int openflowPort = freePort();
        int httpPort = freePort();
        while (httpPort == openflowPort) {
            httpPort = freePort();
        }
        List<String> command = new ArrayList<>(List.of(javaBinary(), "-jar",
                distribution.resolve("heliograph.jar").toString(),
                "--openflow-port", Integer.toString(openflowPort), "--http-port", Integer.toString(httpPort),
                "--data-dir", dataDir.toString()));
        command.addAll(List.of(extraArgs));
        Files.createDirectories(dataDir);
        Path stderr = Files.createTempFile(dataDir.getParent(), "controller-", ".log");
        Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        return new ControllerProcess(process, stderr, openflowPort, httpPort);
    }

    static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Runs a console command and returns its output, delimited by an echoed marker. */
    String console(String command, Duration timeout) throws IOException, InterruptedException {
        String marker = "--end-of-command-" + (++markers) + "--";
        int from = stdout.length();
        OutputStream in = process.getOutputStream();
        in.write((command + "\necho " + marker + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        // The marker appears twice only if the shell echoes input; it never does on a pipe.
        awaitTrue(() -> stdout.indexOf(marker, from) >= 0, timeout, "console answer to '" + command + "'");
        return stdout.substring(from, stdout.indexOf(marker, from));
    }

    /** End of input on the console, as when a piped script ends. */
    void closeConsoleInput() throws IOException {
        process.getOutputStream().close();
    }

    List<BundleLine> bundles(Duration timeout) throws IOException, InterruptedException {
        List<BundleLine> lines = new ArrayList<>();
        for (String line : console("lb", timeout).split("\\R")) {
            Matcher m = LB_LINE.matcher(line.replace("g! ", ""));
            if (m.matches()) {
                lines.add(new BundleLine(Long.parseLong(m.group(1)), m.group(2), m.group(3).trim()));
            }
        }
        return lines;
    }

    /** The health endpoint's status code and body, or null while nothing answers. */
    HttpResponse<String> health() throws InterruptedException {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/api/v1/health"))
                    .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return null;
        }
    }

    /** Polls until the condition holds, failing with the controller's output after the deadline. */
    void awaitTrue(BooleanSupplier condition, Duration timeout, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what
                        + "\n" + output());
            }
            if (!process.isAlive() && !condition.getAsBoolean()) {
                throw new AssertionError("the controller exited (" + process.exitValue() + ") while waiting for "
                        + what + "\n" + output());
            }
            Thread.sleep(50);
        }
    }

    String log() {
        try {
            return Files.readString(stderr);
        } catch (IOException e) {
            return "(cannot read " + stderr + ": " + e + ")";
        }
    }

    String output() {
        return "--- controller stdout ---\n" + stdout + "\n--- controller stderr ---\n" + log();
    }

    /** SIGTERM, as from a service manager or Ctrl-C; returns the exit code. */
    int terminate(Duration timeout) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the controller did not exit within " + timeout.toSeconds()
                    + " s of SIGTERM\n" + output());
        }
        return process.exitValue();
    }

    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the controller did not exit within " + timeout.toSeconds() + " s\n" + output());
        }
        return process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static void pump(InputStream stream, StringBuffer into, String name) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (stream) {
                int n;
                while ((n = stream.read(buffer)) > 0) {
                    into.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                into.append("\n[").append(name).append(" closed: ").append(e).append("]\n");
            }
        }, "controller-" + name);
        t.setDaemon(true);
        t.start();
    }
}
