package io.heliograph.testbed;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A bulk TCP transfer between two hosts with netcat: random bytes from a file on one side, written
 * to a file on the other, then compared. (iperf3's own byte counts can fall short of what was sent
 * when its end-of-test message overtakes the data, so they prove less than a byte-for-byte check.)
 * {@link #start} runs it in the background, so a test can watch {@link #received} grow and break the
 * network under it; {@link #await} waits for the end and compares.
 */
public final class TcpTransfer {

    /** The receiver's TCP port: flows of the transfer carry it as their destination port. */
    public static final int PORT = 5001;
    private static final Pattern BYTES_ACKED = Pattern.compile("\\bbytes_acked:(\\d+)");

    private final Host sender;
    private final Host receiver;
    private final long bytes;
    private final Path payload;
    private final Path arrived;
    private final Process senderProcess;
    private final Process receiverProcess;
    private final long startNanos;

    private TcpTransfer(Host sender, Host receiver, long bytes, Path payload, Path arrived, Process senderProcess,
                        Process receiverProcess, long startNanos) {
        this.sender = sender;
        this.receiver = receiver;
        this.bytes = bytes;
        this.payload = payload;
        this.arrived = arrived;
        this.senderProcess = senderProcess;
        this.receiverProcess = receiverProcess;
        this.startNanos = startNanos;
    }

    /** What arrived, compared with what was sent. */
    public record Result(long sent, long received, boolean identical, Duration elapsed) {
        public double megabitsPerSecond() {
            return received * 8.0 / 1e6 / Math.max(1e-3, elapsed.toNanos() / 1e9);
        }
    }

    /** Sends {@code bytes} random bytes from {@code sender} to {@code receiver}; files go in {@code workDir}. */
    public static Result send(Host sender, Host receiver, long bytes, Duration timeout, Path workDir) {
        return start(sender, receiver, bytes, workDir).await(timeout);
    }

    /**
     * Starts sending {@code bytes} random bytes from {@code sender} to {@code receiver} and returns once
     * the sender runs; files go in {@code workDir}. The host's cleanup ends the programs if the test
     * does not {@link #await} them.
     */
    public static TcpTransfer start(Host sender, Host receiver, long bytes, Path workDir) {
        Path payload = workDir.resolve("tcp-payload.bin");
        Path arrived = workDir.resolve("tcp-received.bin");
        writeRandom(payload, bytes);
        delete(arrived);
        Process listener = receiver.startBackground(workDir.resolve("tcp-receiver.log"),
                "sh", "-c", "exec nc -l " + PORT + " > " + arrived);
        Poll.until("netcat listening on " + receiver.name(), Duration.ofSeconds(10),
                () -> receiver.exec("ss", "-ltnH", "sport", "=", ":" + PORT).stdout().contains(":" + PORT));
        long start = System.nanoTime();
        // -N: half-close after the last byte, so the receiver sees end of stream and exits
        Process client = sender.startBackground(workDir.resolve("tcp-sender.log"),
                "sh", "-c", "exec nc -N " + receiver.ip() + " " + PORT + " < " + payload);
        return new TcpTransfer(sender, receiver, bytes, payload, arrived, client, listener, start);
    }

    /**
     * Bytes the receiver's TCP has acknowledged so far, as the sender's kernel counts them ({@code ss}'s
     * bytes_acked): data that crossed the network, unlike {@link #received}, which also grows while
     * the receiving netcat drains its socket buffer. 0 before the connection is up or after it closed.
     */
    public long acknowledged() {
        String out = sender.exec("ss", "-tinH", "dst", receiver.ip(), "dport", "=", ":" + PORT).stdout();
        Matcher m = BYTES_ACKED.matcher(out);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /** Bytes that have arrived at the receiver so far. */
    public long received() {
        return size(arrived);
    }

    /** Waits until both ends are done, then compares what arrived with what was sent. */
    public Result await(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            for (Process process : List.of(senderProcess, receiverProcess)) {
                String side = process == senderProcess ? "sending netcat on " + sender.name()
                        : "receiving netcat on " + receiver.name();
                if (!process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    throw new CommandFailedException("the " + side + " did not finish within " + timeout + "; "
                            + received() + " of " + bytes + " bytes arrived");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (senderProcess.exitValue() != 0) {
            throw new CommandFailedException("the sending netcat on " + sender.name() + " exited with "
                    + senderProcess.exitValue() + "; " + received() + " of " + bytes + " bytes arrived");
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - startNanos);
        Result result = new Result(bytes, size(arrived), Arrays.equals(sha256(payload), sha256(arrived)), elapsed);
        delete(payload);
        delete(arrived);
        return result;
    }

    private static void writeRandom(Path file, long bytes) {
        Random random = new Random(bytes);
        byte[] block = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long left = bytes; left > 0; left -= block.length) {
                random.nextBytes(block);
                out.write(block, 0, (int) Math.min(block.length, left));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] sha256(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[64 * 1024];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
            return digest.digest();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long size(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
