package io.heliograph.testbed;

import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A bulk TCP transfer between two hosts with iperf3, reporting the bytes the receiver got. */
public final class TcpTransfer {

    private static final Pattern RECEIVED = Pattern.compile(
            "\"sum_received\"\\s*:\\s*\\{[^}]*?\"bytes\"\\s*:\\s*(\\d+)", Pattern.DOTALL);
    private static final int PORT = 5201;

    private TcpTransfer() {
    }

    /**
     * Sends {@code bytes} from {@code sender} to {@code receiver} and returns how many bytes the
     * receiver got; fails if iperf3 fails or takes longer than {@code timeout}.
     */
    public static long send(Host sender, Host receiver, long bytes, Duration timeout, Path serverLog) {
        receiver.startBackground(serverLog, "iperf3", "--server", "--one-off", "--port", Integer.toString(PORT));
        Poll.until("iperf3 listening on " + receiver.name(), Duration.ofSeconds(10),
                () -> receiver.exec("ss", "-ltnH", "sport", "=", ":" + PORT).stdout().contains(":" + PORT));
        CommandResult client = sender.exec(timeout, "iperf3", "--client", receiver.ip(), "--port", Integer.toString(PORT),
                "--bytes", Long.toString(bytes), "--json").requireSuccess();
        Matcher m = RECEIVED.matcher(client.stdout());
        if (!m.find()) {
            throw new CommandFailedException("no received byte count in iperf3's report: " + client.stdout());
        }
        return Long.parseLong(m.group(1));
    }
}
