package io.heliograph.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throwaway copy of this machine's root file system in which a test may install packages, add
 * users and write to /etc and /var without changing the host: an overlay whose lower layer is the
 * host's {@code /} and whose upper layer is a tmpfs, in a mount and PID namespace of its own
 * ({@code unshare}), chrooted. The network is the host's, so a server started inside listens on the
 * host's loopback. Needs root.
 *
 * <p>A process of the namespace (its init: {@code sleep infinity}) holds it; {@link #command} runs a
 * command inside with {@code nsenter} (that process's namespaces and root), {@link #path} reaches a
 * file inside through {@code /proc/PID/root}. Closing kills the init, which takes every process of the
 * PID namespace with it, and the mounts go with the last of them.
 */
public final class CleanRoot implements AutoCloseable {

    private static final Duration SETUP = Duration.ofSeconds(20);

    /**
     * Run by {@code unshare}, in the new namespaces: the tmpfs first (an upper layer on the same file
     * system as the lower one, inside it, is refused as overlapping), the overlay, /proc of the new
     * PID namespace and the host's /dev; then the init, chrooted, says it is ready.
     */
    private static final String HOLD = String.join("\n",
            "set -e",
            "dir=$1",
            "mount -t tmpfs -o size=4g,mode=0700 heliograph-clean-root \"$dir\"",
            "mkdir \"$dir/upper\" \"$dir/work\" \"$dir/merged\"",
            "mount -t overlay heliograph-clean-root -o lowerdir=/,upperdir=\"$dir/upper\",workdir=\"$dir/work\" \"$dir/merged\"",
            "mount -t proc proc \"$dir/merged/proc\"",
            "mount --rbind /dev \"$dir/merged/dev\"",
            "exec chroot \"$dir/merged\" /bin/sh -c 'echo ready; exec sleep infinity'");

    private final Path dir;
    private final Path out;
    private final Process holder;
    private final long init;
    private final Thread shutdownHook;

    private CleanRoot(Path dir, Path out, Process holder, long init) {
        this.dir = dir;
        this.out = out;
        this.holder = holder;
        this.init = init;
        this.shutdownHook = new Thread(this::close, "clean-root-" + init);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Sets up a clean root; its mount point and the holder's output go in a fresh directory under {@code parent}. */
    public static CleanRoot start(Path parent) {
        Path dir;
        Path out;
        try {
            dir = Files.createTempDirectory(parent, "clean-root-");
            out = Files.createTempFile(parent, "clean-root-", ".out");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for a clean root in " + parent, e);
        }
        Process holder;
        try {
            holder = new ProcessBuilder("unshare", "--mount", "--pid", "--fork", "--kill-child",
                    "--propagation", "private", "bash", "-c", HOLD, "clean-root", dir.toString())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run unshare (util-linux) for a clean root", e);
        }
        try {
            Poll.until("the clean root in " + dir + " to be ready (unshare pid " + holder.pid() + ")", SETUP, () -> {
                if (!holder.isAlive()) {
                    throw new IllegalStateException("setting up the clean root failed (exit " + holder.exitValue()
                            + "): " + read(out));
                }
                return read(out).contains("ready");
            });
        } catch (RuntimeException | AssertionError e) {
            holder.destroyForcibly();
            throw e;
        }
        // unshare --fork: its one child is the namespace's init, chrooted by now
        long init = holder.toHandle().children().findFirst().orElseThrow(
                () -> new IllegalStateException("unshare (pid " + holder.pid() + ") has no child")).pid();
        return new CleanRoot(dir, out, holder, init);
    }

    /** {@code argv} run inside the root, as root, by {@link #run} or {@link Command#check}. */
    public Command command(String... argv) {
        List<String> full = new ArrayList<>(List.of("nsenter", "--target", Long.toString(init), "--mount", "--pid",
                "--root", "--wd"));
        full.addAll(Arrays.asList(argv));
        return Command.of(full);
    }

    public CommandResult run(String... argv) {
        return command(argv).run();
    }

    public CommandResult check(String... argv) {
        return command(argv).check();
    }

    /**
     * Starts {@code argv} inside the root in the background, its output appended to {@code log}. The
     * returned process is nsenter's, on the host: its one child runs {@code argv} (exec'd, so a program
     * that execs further keeps that pid), and it exits with the child's status.
     */
    public Process startInside(Path log, String... argv) {
        List<String> full = new ArrayList<>(command(argv).argv());
        try {
            Files.createDirectories(log.getParent());
            Files.writeString(log, "# " + String.join(" ", argv) + "\n");
            return new ProcessBuilder(full)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + String.join(" ", argv) + " in the clean root", e);
        }
    }

    /** The file at {@code absolute} inside the root, as the host reaches it. */
    public Path path(String absolute) {
        return Path.of("/proc", Long.toString(init), "root", absolute.replaceFirst("^/+", ""));
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is exiting: this is the hook
        }
        // SIGKILL to the PID namespace's init kills every process in it (unshare ignores SIGTERM)
        ProcessHandle.of(init).ifPresent(ProcessHandle::destroyForcibly);
        try {
            if (!holder.waitFor(20, TimeUnit.SECONDS)) {
                holder.destroyForcibly();
                throw new IllegalStateException("unshare (pid " + holder.pid() + ") still runs 20 s after its namespace's"
                        + " init (pid " + init + ") was killed");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        // the tmpfs was mounted in the namespace only: on the host, dir is an empty folder
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
            Files.deleteIfExists(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
