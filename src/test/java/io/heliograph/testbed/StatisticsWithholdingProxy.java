package io.heliograph.testbed;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Stands between a real switch and the controller and makes the switch look like one that ignores
 * statistics requests, or answers them late, as simple switches, emulators and some hardware do:
 * it forwards every message either way, except the controller's statistics (multipart) requests for
 * flows, ports, tables, groups, meters and the like, which it drops ({@link Mode#IGNORE}) or hands to
 * the switch only after a delay ({@link Mode#LATE}), so the switch's reply comes that much later.
 * The handshake's own requests (the switch description and the port description) go through at once.
 * {@link #answer()} lets every request through from then on.
 *
 * <p>It listens on a given address (the control link's controller end, which the switches' namespace
 * reaches) and forwards to the controller's OpenFlow port on the loopback address. One thread
 * accepts; per connection, one copies the switch's bytes as they are, one frames the controller's
 * messages, and a timer delivers the late ones.
 */
public final class StatisticsWithholdingProxy implements AutoCloseable {

    /** What happens to a withheld request. */
    public enum Mode { IGNORE, LATE }

    /** OpenFlow 1.0's STATS_REQUEST; 1.1 on call it MULTIPART_REQUEST, type 18. */
    private static final int STATS_REQUEST_10 = 16;
    private static final int MULTIPART_REQUEST = 18;
    /** The multipart types the handshake asks for: the switch description and (1.3+) the port description. */
    private static final int DESC = 0;
    private static final int PORT_DESC = 13;

    private final String name;
    private final int controllerPort;
    private final ServerSocket listener;
    private final Thread acceptor;
    private final ScheduledExecutorService late;
    private final Mode mode;
    private final Duration delay;
    private final AtomicLong withheld = new AtomicLong();
    /** Guarded by this. */
    private final Set<Socket> sockets = new HashSet<>();
    private volatile boolean answering;
    private boolean closed;

    private StatisticsWithholdingProxy(String name, ServerSocket listener, int controllerPort, Mode mode, Duration delay) {
        this.name = name;
        this.listener = listener;
        this.controllerPort = controllerPort;
        this.mode = mode;
        this.delay = delay;
        this.acceptor = new Thread(this::acceptLoop, "of-proxy-" + name);
        this.acceptor.setDaemon(true);
        this.late = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "of-proxy-" + name + "-late");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Listens on a free port of {@code host} (an address of this namespace) and forwards to the
     * controller's OpenFlow port on 127.0.0.1; {@code delay} is how late a request reaches the switch
     * in {@link Mode#LATE}.
     */
    public static StatisticsWithholdingProxy start(String name, String host, int controllerPort, Mode mode, Duration delay) {
        try {
            ServerSocket listener = new ServerSocket(0, 50, InetAddress.getByName(host));
            StatisticsWithholdingProxy proxy = new StatisticsWithholdingProxy(name, listener, controllerPort, mode, delay);
            proxy.acceptor.start();
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException("proxy " + name + ": cannot listen on " + host, e);
        }
    }

    /** The OpenFlow target a bridge connects to, e.g. {@code tcp:198.18.0.1:40123}. */
    public String target() {
        return "tcp:" + listener.getInetAddress().getHostAddress() + ":" + listener.getLocalPort();
    }

    /** Statistics requests dropped or delayed so far. */
    public long withheld() {
        return withheld.get();
    }

    /** From now on every request reaches the switch at once: a switch that started answering. */
    public void answer() {
        answering = true;
    }

    private void acceptLoop() {
        while (true) {
            Socket fromSwitch;
            try {
                fromSwitch = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            Socket toController = new Socket();
            try {
                toController.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), controllerPort), 2000);
                fromSwitch.setTcpNoDelay(true);
                toController.setTcpNoDelay(true);
            } catch (IOException e) {
                closeQuietly(fromSwitch);
                closeQuietly(toController);
                continue;
            }
            synchronized (this) {
                if (closed) {
                    closeQuietly(fromSwitch);
                    closeQuietly(toController);
                    return;
                }
                sockets.add(fromSwitch);
                sockets.add(toController);
            }
            start(() -> copy(fromSwitch, toController), "up");
            start(() -> filter(toController, fromSwitch), "down");
        }
    }

    private void start(Runnable pump, String direction) {
        Thread t = new Thread(pump, "of-proxy-" + name + "-" + direction);
        t.setDaemon(true);
        t.start();
    }

    /** The switch's bytes, as they are. */
    private void copy(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                synchronized (out) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            }
        } catch (IOException e) {
            // either side closed
        }
        closeBoth(from, to);
    }

    /** The controller's messages, one at a time: forwarded, or withheld when they are statistics requests. */
    private void filter(Socket from, Socket to) {
        try {
            DataInputStream in = new DataInputStream(from.getInputStream());
            OutputStream out = to.getOutputStream();
            byte[] header = new byte[8];
            while (true) {
                in.readFully(header);
                int length = ((header[2] & 0xff) << 8) | (header[3] & 0xff);
                if (length < 8) {
                    throw new IOException("a message of length " + length + " cannot be framed");
                }
                byte[] message = new byte[length];
                System.arraycopy(header, 0, message, 0, 8);
                in.readFully(message, 8, length - 8);
                if (answering || !isWithheld(message)) {
                    write(out, message);
                } else {
                    withheld.incrementAndGet();
                    if (mode == Mode.LATE) {
                        late.schedule(() -> write(out, message), delay.toMillis(), TimeUnit.MILLISECONDS);
                    }
                }
            }
        } catch (EOFException e) {
            // the controller closed
        } catch (IOException e) {
            // either side closed
        }
        closeBoth(from, to);
    }

    private static boolean isWithheld(byte[] message) {
        int type = message[1] & 0xff;
        boolean stats = message[0] == 0x01 ? type == STATS_REQUEST_10 : type == MULTIPART_REQUEST;
        if (!stats || message.length < 10) {
            return false;
        }
        int statsType = ((message[8] & 0xff) << 8) | (message[9] & 0xff);
        return statsType != DESC && statsType != PORT_DESC;
    }

    private static void write(OutputStream out, byte[] message) {
        synchronized (out) {
            try {
                out.write(message);
                out.flush();
            } catch (IOException e) {
                // the connection is gone: the late message goes with it
            }
        }
    }

    private void closeBoth(Socket a, Socket b) {
        synchronized (this) {
            sockets.remove(a);
            sockets.remove(b);
        }
        closeQuietly(a);
        closeQuietly(b);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing is all we wanted
        }
    }

    /** Stops listening and closes every connection. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            sockets.forEach(StatisticsWithholdingProxy::closeQuietly);
            sockets.clear();
        }
        late.shutdownNow();
        try {
            listener.close();
        } catch (IOException e) {
            throw new UncheckedIOException("proxy " + name + ": cannot close its listener", e);
        }
    }

    @Override
    public String toString() {
        return "statistics-withholding proxy " + name + " (" + mode + ") at " + target();
    }
}
