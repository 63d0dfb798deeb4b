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
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * A bulk TCP transfer between two hosts with netcat: random bytes from a file on one side, written
 * to a file on the other, then compared. (iperf3's own byte counts can fall short of what was sent
 * when its end-of-test message overtakes the data, so they prove less than a byte-for-byte check.)
 */
public final class TcpTransfer {

    private static final int PORT = 5001;

    private TcpTransfer() {
    }

    /** What arrived, compared with what was sent. */
    public record Result(long sent, long received, boolean identical, Duration elapsed) {
        public double megabitsPerSecond() {
            return received * 8.0 / 1e6 / Math.max(1e-3, elapsed.toNanos() / 1e9);
        }
    }

    /** Sends {@code bytes} random bytes from {@code sender} to {@code receiver}; files go in {@code workDir}. */
    public static Result send(Host sender, Host receiver, long bytes, Duration timeout, Path workDir) {
        Path payload = workDir.resolve("tcp-payload.bin");
        Path arrived = workDir.resolve("tcp-received.bin");
        Path receiverLog = workDir.resolve("tcp-receiver.log");
        writeRandom(payload, bytes);
        Process listener = receiver.startBackground(receiverLog,
                "sh", "-c", "exec nc -l " + PORT + " > " + arrived);
        Poll.until("netcat listening on " + receiver.name(), Duration.ofSeconds(10),
                () -> receiver.exec("ss", "-ltnH", "sport", "=", ":" + PORT).stdout().contains(":" + PORT));
        long start = System.nanoTime();
        // -N: half-close after the last byte, so the receiver sees end of stream and exits
        sender.exec(timeout, "sh", "-c", "nc -N " + receiver.ip() + " " + PORT + " < " + payload).requireSuccess();
        try {
            if (!listener.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new CommandFailedException("the receiving netcat on " + receiver.name() + " did not finish within "
                        + timeout + "; " + size(arrived) + " of " + bytes + " bytes arrived");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
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
