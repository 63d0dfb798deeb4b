package io.heliograph.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A timed iperf3 TCP transfer between two hosts: a one-off server on the receiver, a client on the
 * sender sending for a fixed time. The client runs in the background, so a test can watch the
 * network while the traffic flows; {@link Transfer#awaitResult} then reads what iperf3 reported.
 * (For a check that bytes arrive intact, {@link TcpTransfer} compares them; iperf3 measures rate.)
 */
public final class Iperf {

    private static final int PORT = 5201;
    /** "[  5]   0.00-15.00  sec  34.2 MBytes  19073 Kbits/sec                  receiver" */
    private static final Pattern SUMMARY = Pattern.compile(
            "^\\[\\s*\\d+]\\s+\\S+\\s+sec\\s+.*?([\\d.]+) Kbits/sec.*\\b(sender|receiver)\\s*$", Pattern.MULTILINE);

    private Iperf() {
    }

    /** Fails, saying what to install, when iperf3 is not there. */
    public static void requireInstalled() {
        if (!Command.of("sh", "-c", "command -v iperf3").run().succeeded()) {
            throw new IllegalStateException("iperf3 is not installed: apt-get install -y iperf3, or run "
                    + "deploy/heliograph test, which installs it");
        }
    }

    /**
     * Starts a one-off iperf3 server on {@code receiver}, waits until it listens, then starts a client
     * on {@code sender} sending TCP to it for {@code duration}; their output goes to files in {@code logDir}.
     */
    public static Transfer start(Host sender, Host receiver, Duration duration, Path logDir) {
        return run(sender, receiver, duration, logDir);
    }

    /**
     * As {@link #start}, UDP datagrams of {@code payloadBytes} at {@code bitsPerSecond} of payload: a
     * transfer of known rate, which TCP's congestion control would not keep. On the wire each datagram
     * is a frame of {@code payloadBytes + }{@value #UDP_FRAME_OVERHEAD} bytes.
     */
    public static Transfer startUdp(Host sender, Host receiver, Duration duration, long bitsPerSecond, int payloadBytes,
                                    Path logDir) {
        return run(sender, receiver, duration, logDir, "--udp", "--bitrate", Long.toString(bitsPerSecond),
                "--length", Integer.toString(payloadBytes));
    }

    private static Transfer run(Host sender, Host receiver, Duration duration, Path logDir, String... options) {
        if (duration.toSeconds() < 1) {
            throw new IllegalArgumentException("an iperf3 transfer lasts whole seconds, at least 1; was " + duration);
        }
        requireInstalled();
        Path serverLog = logDir.resolve("iperf3-server-" + receiver.name() + ".log");
        Path clientLog = logDir.resolve("iperf3-client-" + sender.name() + ".log");
        receiver.startBackground(serverLog, "iperf3", "--server", "--one-off", "--port", Integer.toString(PORT));
        Poll.until("iperf3 listening on " + receiver.name(), Duration.ofSeconds(10),
                () -> receiver.exec("ss", "-ltnH", "sport", "=", ":" + PORT).stdout().contains(":" + PORT));
        List<String> argv = new ArrayList<>(List.of("iperf3", "--client", receiver.ip(), "--port",
                Integer.toString(PORT), "--time", Long.toString(duration.toSeconds()), "--format", "k"));
        argv.addAll(List.of(options));
        Process client = sender.startBackground(clientLog, argv.toArray(String[]::new));
        return new Transfer(sender, receiver, duration, client, clientLog);
    }

    /** Ethernet (14), IPv4 (20) and UDP (8) headers: a UDP datagram's frame is its payload plus these. */
    public static final int UDP_FRAME_OVERHEAD = 42;

    /** A running transfer. */
    public static final class Transfer {
        private final Host sender;
        private final Host receiver;
        private final Duration duration;
        private final Process client;
        private final Path clientLog;

        private Transfer(Host sender, Host receiver, Duration duration, Process client, Path clientLog) {
            this.sender = sender;
            this.receiver = receiver;
            this.duration = duration;
            this.client = client;
            this.clientLog = clientLog;
        }

        public boolean isRunning() {
            return client.isAlive();
        }

        /** Waits for the client to finish (its duration and then some) and reads its summary. */
        public Result awaitResult(Duration grace) {
            Duration limit = duration.plus(grace);
            try {
                if (!client.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new CommandFailedException("iperf3 from " + sender.name() + " to " + receiver.name()
                            + " still running after " + limit + ": " + output());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            String output = output();
            if (client.exitValue() != 0) {
                throw new CommandFailedException("iperf3 from " + sender.name() + " to " + receiver.name()
                        + " exited with " + client.exitValue() + ": " + output);
            }
            double sender = -1;
            double receiver = -1;
            Matcher m = SUMMARY.matcher(output);
            while (m.find()) {
                double kbits = Double.parseDouble(m.group(1));
                if (m.group(2).equals("sender")) {
                    sender = kbits * 1e3;
                } else {
                    receiver = kbits * 1e3;
                }
            }
            if (sender < 0 || receiver < 0) {
                throw new CommandFailedException("no sender and receiver summary in iperf3's output: " + output);
            }
            return new Result(sender, receiver);
        }

        private String output() {
            try {
                return Files.exists(clientLog) ? Files.readString(clientLog) : "";
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * iperf3's summary: the application bytes (TCP payload, no headers) per second that the sender
     * wrote and the receiver read, in bit/s.
     */
    public record Result(double senderBitsPerSecond, double receiverBitsPerSecond) {
    }
}
