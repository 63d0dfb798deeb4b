package io.heliograph.testbed;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One of the demos ({@code deploy/heliograph demo}, {@code cluster-demo}) run as a user runs it: the
 * {@code heliograph} script and its {@code lib/*.sh} copied into a scratch tree whose
 * {@code deploy/target/heliograph} is a distribution, so the script finds nothing to rebuild. Its
 * output (stdout and stderr) goes to a file the test reads while it runs. Closing ends it (SIGTERM,
 * then SIGKILL) if it is still running; what the demo itself started is the test's to check.
 */
public final class DemoScript implements AutoCloseable {

    private static final Duration STOP_GRACE = Duration.ofMinutes(2);

    private final Process process;
    private final Path output;

    private DemoScript(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    /**
     * A scratch tree under {@code scratch} with the source tree's deploy/heliograph and
     * deploy/lib/*.sh and {@code distribution} as deploy/target/heliograph; returns its deploy/heliograph.
     */
    public static Path tree(Path scratch, Path distribution) {
        Path source = ControllerDistribution.built().getParent().getParent();
        try {
            Path deploy = Files.createDirectories(scratch.resolve("tree/deploy"));
            Files.copy(source.resolve("heliograph"), deploy.resolve("heliograph"));
            Path lib = Files.createDirectories(deploy.resolve("lib"));
            try (var scripts = Files.list(source.resolve("lib"))) {
                for (Path s : scripts.filter(p -> p.toString().endsWith(".sh")).toList()) {
                    Files.copy(s, lib.resolve(s.getFileName()));
                }
            }
            Files.createDirectories(deploy.resolve("target"));
            Files.createSymbolicLink(deploy.resolve("target/heliograph"), distribution);
            return deploy.resolve("heliograph");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a scratch tree in " + scratch, e);
        }
    }

    /** Starts {@code bash heliograph args...}, stdin from /dev/null, its output to {@code output}. */
    public static DemoScript start(Path heliograph, Path output, String... args) {
        List<String> argv = new ArrayList<>(List.of("bash", heliograph.toString()));
        argv.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(output.toFile())
                    .redirectInput(new File("/dev/null")).start();
            return new DemoScript(process, output);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + argv, e);
        }
    }

    /** Everything it printed so far. */
    public String output() {
        return read(output);
    }

    /**
     * Waits until its output satisfies {@code ready} and returns it; fails at once, with the output,
     * if the script exits before that, and after {@code timeout} naming {@code what}.
     */
    public String awaitOutput(String what, Duration timeout, Predicate<String> ready) {
        return Poll.until(what + " (output " + output + ")", timeout, () -> {
            String now = output();
            if (!process.isAlive() && !ready.test(now)) {
                throw new AssertionError("the demo exited with " + process.exitValue() + " before " + what + ":\n"
                        + now);
            }
            return now;
        }, ready);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGTERM, as Ctrl-C or a service manager would end it; returns its exit status, or -1 if it is still running after {@code timeout}. */
    public int terminate(Duration timeout) {
        process.destroy();
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Moves the logs ({@code *.log}) a demo left in its work directory to {@code artifacts} and deletes
     * the rest of the directory.
     */
    public static void keepLogs(Path workDir, Path artifacts) {
        try (var files = Files.walk(workDir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                if (Files.isRegularFile(p) && p.getFileName().toString().endsWith(".log")) {
                    Files.move(p, artifacts.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                } else {
                    Files.deleteIfExists(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clear " + workDir, e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        if (terminate(STOP_GRACE) < 0) {
            process.destroyForcibly();
        }
    }

    @Override
    public String toString() {
        return "demo script " + process.info().commandLine().orElse("?");
    }
}
