package io.heliograph.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One external command (ovs-vsctl, ip, ping, ...) run to completion with a timeout.
 *
 * <p>Output goes to temporary files rather than pipes: daemons started by a command (ovsdb-server
 * --detach) may inherit its stdout, and a pipe would then never reach end of file.
 */
public final class Command {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private final List<String> argv;
    private final Map<String, String> env = new LinkedHashMap<>();
    private Duration timeout = DEFAULT_TIMEOUT;

    private Command(List<String> argv) {
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("a command needs at least a program name");
        }
        this.argv = List.copyOf(argv);
    }

    public static Command of(String... argv) {
        return new Command(Arrays.asList(argv));
    }

    public static Command of(List<String> argv) {
        return new Command(argv);
    }

    /** The same command run inside network namespace {@code namespace}. */
    public static Command inNamespace(String namespace, String... argv) {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        full.addAll(Arrays.asList(argv));
        return new Command(full);
    }

    public Command env(Map<String, String> vars) {
        env.putAll(vars);
        return this;
    }

    public Command timeout(Duration timeout) {
        this.timeout = timeout;
        return this;
    }

    public List<String> argv() {
        return argv;
    }

    /** Runs the command and returns its result whatever the exit code; a timeout still throws. */
    public CommandResult run() {
        Path out = null;
        Path err = null;
        try {
            out = Files.createTempFile("hg-cmd-", ".out");
            err = Files.createTempFile("hg-cmd-", ".err");
            ProcessBuilder builder = new ProcessBuilder(argv)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            builder.environment().putAll(env);
            Process process;
            try {
                process = builder.start();
            } catch (IOException e) {
                throw new CommandFailedException(
                        "cannot start " + String.join(" ", argv) + ": " + e.getMessage() + " (is it installed?)", e);
            }
            boolean finished;
            try {
                finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new CommandFailedException("interrupted while running " + String.join(" ", argv), e);
            }
            if (!finished) {
                process.destroyForcibly();
                throw new CommandFailedException(String.format("%s did not finish within %s%nstdout: %s%nstderr: %s",
                        String.join(" ", argv), timeout, read(out), read(err)));
            }
            return new CommandResult(argv, process.exitValue(), read(out), read(err));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deleteQuietly(out);
            deleteQuietly(err);
        }
    }

    /** Runs the command and throws, naming it with its exit code and stderr, unless it exits 0. */
    public CommandResult check() {
        return run().requireSuccess();
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a leftover temp file is harmless
            }
        }
    }
}
