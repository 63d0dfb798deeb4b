package io.heliograph.testbed;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A TCP forwarder on a free loopback port to one target, with a switch to cut the path, as a network
 * fault between a controller and one ZooKeeper server would: give the controller the proxy's
 * {@link #address()} instead of the server's.
 *
 * <ul>
 * <li>{@link #cut()}: every forwarded connection is closed; a new one is accepted and then
 * black-holed (held open, nothing forwarded either way), as a peer behind a cut network looks to
 * a client that got as far as connecting.</li>
 * <li>{@link #silence()}: forwarded connections stay open but carry nothing more either way (what an
 * unplugged cable looks like: the client notices only by its own timeouts); new ones are black-holed.</li>
 * <li>{@link #heal()}: the black-holed and silenced connections are closed (their streams lost bytes)
 * and new connections are forwarded again.</li>
 * </ul>
 * One thread accepts, two per forwarded connection copy bytes; closing ends them all.
 */
public final class TcpProxy implements AutoCloseable {

    private enum State { FORWARDING, CUT, SILENT }

    private final String name;
    private final InetSocketAddress target;
    private final ServerSocket listener;
    private final Thread acceptor;
    /** Guarded by this: the state and every socket this proxy holds (both ends of forwarded ones). */
    private final Set<Socket> sockets = new HashSet<>();
    private final List<Socket> blackHoled = new ArrayList<>();
    private State state = State.FORWARDING;
    private int accepted;
    private boolean closed;

    private TcpProxy(String name, InetSocketAddress target, ServerSocket listener) {
        this.name = name;
        this.target = target;
        this.listener = listener;
        this.acceptor = new Thread(this::acceptLoop, "tcp-proxy-" + name);
        this.acceptor.setDaemon(true);
    }

    /** Starts forwarding from a free loopback port to {@code host:port}; {@code name} labels its threads and errors. */
    public static TcpProxy start(String name, String host, int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("proxy " + name + ": target port must be 1-65535, was " + port);
        }
        try {
            ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            TcpProxy proxy = new TcpProxy(name, new InetSocketAddress(host, port), listener);
            proxy.acceptor.start();
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException("proxy " + name + ": cannot listen on a loopback port", e);
        }
    }

    /** The loopback port clients connect to. */
    public int port() {
        return listener.getLocalPort();
    }

    /** {@code 127.0.0.1:PORT}, to put in a client's address list in place of the target's. */
    public String address() {
        return "127.0.0.1:" + port();
    }

    /** Connections accepted so far, forwarded or black-holed. */
    public synchronized int accepted() {
        return accepted;
    }

    /** Closes every forwarded connection; new ones are black-holed until {@link #heal()}. */
    public synchronized void cut() {
        state = State.CUT;
        for (Socket socket : List.copyOf(sockets)) {
            closeQuietly(socket);
        }
        sockets.clear();
    }

    /** Forwarded connections stay open but carry nothing more; new ones are black-holed until {@link #heal()}. */
    public synchronized void silence() {
        state = State.SILENT;
    }

    /** Forwards new connections again; the black-holed and silenced ones are closed. */
    public synchronized void heal() {
        if (state == State.SILENT) {
            for (Socket socket : List.copyOf(sockets)) {
                closeQuietly(socket);
            }
            sockets.clear();
        }
        blackHoled.forEach(TcpProxy::closeQuietly);
        blackHoled.clear();
        state = State.FORWARDING;
    }

    private void acceptLoop() {
        while (true) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            synchronized (this) {
                accepted++;
                if (closed) {
                    closeQuietly(client);
                    return;
                }
                if (state != State.FORWARDING) {
                    blackHoled.add(client);
                    continue;
                }
            }
            forward(client);
        }
    }

    private void forward(Socket client) {
        Socket server = new Socket();
        try {
            server.connect(target, 2000);
            client.setTcpNoDelay(true);
            server.setTcpNoDelay(true);
        } catch (IOException e) {
            // the target is down: the client sees its connection close, as it would connecting directly
            closeQuietly(client);
            closeQuietly(server);
            return;
        }
        synchronized (this) {
            if (state != State.FORWARDING || closed) {
                closeQuietly(server);
                if (closed) {
                    closeQuietly(client);
                } else {
                    blackHoled.add(client);
                }
                return;
            }
            sockets.add(client);
            sockets.add(server);
        }
        startPump(client, server, "up");
        startPump(server, client, "down");
    }

    private void startPump(Socket from, Socket to, String direction) {
        Thread pump = new Thread(() -> pump(from, to), "tcp-proxy-" + name + "-" + direction);
        pump.setDaemon(true);
        pump.start();
    }

    /** Copies bytes until either side ends; while silenced, what is read is dropped. */
    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                synchronized (this) {
                    if (state != State.FORWARDING || !sockets.contains(to)) {
                        continue; // silenced: the bytes vanish, as on a cut cable
                    }
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // either side closed or was cut: end both
        }
        synchronized (this) {
            if (state == State.SILENT && sockets.contains(from)) {
                return; // a silenced connection stays open until heal() or close()
            }
            sockets.remove(from);
            sockets.remove(to);
        }
        closeQuietly(from);
        closeQuietly(to);
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
            sockets.forEach(TcpProxy::closeQuietly);
            sockets.clear();
            blackHoled.forEach(TcpProxy::closeQuietly);
            blackHoled.clear();
        }
        try {
            listener.close();
        } catch (IOException e) {
            throw new UncheckedIOException("proxy " + name + ": cannot close its listener", e);
        }
    }

    @Override
    public String toString() {
        return "proxy " + name + " " + address() + " -> " + target.getHostString() + ":" + target.getPort();
    }
}
