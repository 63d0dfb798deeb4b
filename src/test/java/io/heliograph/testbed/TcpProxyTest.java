package io.heliograph.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link TcpProxy} in front of an echo server: forwarding, a cut, a silenced path, healing. */
@Timeout(60)
class TcpProxyTest {

    private static final int QUIET_MS = 300;

    private ServerSocket echo;
    private TcpProxy proxy;

    @BeforeEach
    void start() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread server = new Thread(this::echoLoop, "echo");
        server.setDaemon(true);
        server.start();
        proxy = TcpProxy.start("echo", "127.0.0.1", echo.getLocalPort());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    @Test
    void forwardsBothWays() throws IOException {
        try (Socket s = connect()) {
            assertEquals("hello", roundTrip(s, "hello"));
            assertEquals("again", roundTrip(s, "again"));
        }
        assertTrue(proxy.address().startsWith("127.0.0.1:"), proxy.address());
    }

    @Test
    void aCutClosesConnectionsBlackHolesNewOnesAndHealingForwardsAgain() throws IOException {
        try (Socket before = connect()) {
            assertEquals("up", roundTrip(before, "up"));
            proxy.cut();
            assertEquals(-1, readOrEnd(before), "the forwarded connection is closed by the cut");
        }
        try (Socket during = connect()) {
            // accepted (a connect succeeds) but nothing comes back
            send(during, "anyone?");
            assertThrows(SocketTimeoutException.class, () -> during.getInputStream().read());
            proxy.heal();
            assertEquals(-1, readOrEnd(during), "a black-holed connection is closed when the path heals");
        }
        try (Socket after = connect()) {
            assertEquals("back", roundTrip(after, "back"));
        }
    }

    @Test
    void aSilencedConnectionStaysOpenButCarriesNothing() throws IOException {
        try (Socket s = connect()) {
            assertEquals("before", roundTrip(s, "before"));
            proxy.silence();
            send(s, "lost");
            assertThrows(SocketTimeoutException.class, () -> s.getInputStream().read(),
                    "open, with nothing coming back");
            proxy.heal();
            assertEquals(-1, readOrEnd(s), "closed when the path heals: its stream lost bytes");
        }
        try (Socket after = connect()) {
            assertEquals("healed", roundTrip(after, "healed"));
        }
        assertEquals(2, proxy.accepted());
    }

    @Test
    void aBadTargetPortIsRefusedNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TcpProxy.start("bad", "127.0.0.1", 0));
        assertTrue(e.getMessage().contains("target port must be 1-65535, was 0"), e.getMessage());
    }

    private Socket connect() throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        s.setSoTimeout(QUIET_MS);
        return s;
    }

    private static String roundTrip(Socket s, String text) throws IOException {
        send(s, text);
        s.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
        byte[] buffer = new byte[text.length()];
        int read = 0;
        InputStream in = s.getInputStream();
        while (read < buffer.length) {
            int n = in.read(buffer, read, buffer.length - read);
            if (n < 0) {
                throw new IOException("closed after " + read + " bytes");
            }
            read += n;
        }
        s.setSoTimeout(QUIET_MS);
        return new String(buffer, java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static void send(Socket s, String text) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(text.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        out.flush();
    }

    /** The next byte, or -1 at the end of the stream; a reset counts as the end. */
    private static int readOrEnd(Socket s) throws IOException {
        s.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
        try {
            return s.getInputStream().read();
        } catch (java.net.SocketException reset) {
            return -1;
        }
    }

    private void echoLoop() {
        while (true) {
            Socket s;
            try {
                s = echo.accept();
            } catch (IOException closed) {
                return;
            }
            Thread t = new Thread(() -> {
                try (s) {
                    s.getInputStream().transferTo(s.getOutputStream());
                } catch (IOException ignored) {
                    // the proxy closed it
                }
            }, "echo-connection");
            t.setDaemon(true);
            t.start();
        }
    }
}
