package io.heliograph.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * The least a controller can do: answer each switch's HELLO with HELLO and FEATURES_REQUEST, each
 * ECHO_REQUEST with its reply, and every PACKET_IN with the same pre-encoded FLOW_MOD on the
 * packet-in's buffer; everything else is ignored. One thread, one selector; what one read brings is answered with one write.
 * Run against it, the generator measures its own ceiling on the machine.
 *
 * <p>When the switch stops reading (its socket is full), the responder stops reading too, so the
 * generator meets back-pressure as it would from a real controller.
 */
final class TrivialResponder implements Runnable, AutoCloseable {

    private static final int BUFFER_BYTES = 256 * 1024;

    private final ServerSocketChannel server;
    private final Selector selector;
    private final PrintStream log;
    private final List<SocketChannel> connections = new ArrayList<>();
    private volatile boolean closing;

    private TrivialResponder(ServerSocketChannel server, Selector selector, PrintStream log) {
        this.server = server;
        this.selector = selector;
        this.log = log;
    }

    /** Listens on {@code port} (0: any free port) on every interface. */
    static TrivialResponder listen(int port, PrintStream log) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        try {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(new InetSocketAddress(port), 1024);
            server.configureBlocking(false);
            Selector selector = Selector.open();
            server.register(selector, SelectionKey.OP_ACCEPT);
            return new TrivialResponder(server, selector, log);
        } catch (IOException e) {
            server.close();
            throw new IOException("cannot listen on port " + port + ": " + e.getMessage(), e);
        }
    }

    int port() throws IOException {
        return ((InetSocketAddress) server.getLocalAddress()).getPort();
    }

    /** Serves until {@link #close()}. */
    @Override
    public void run() {
        try {
            while (!closing) {
                selector.select(this::ready);
            }
        } catch (IOException e) {
            if (!closing) {
                log.println("heliograph bench responder: " + e.getMessage());
            }
        } finally {
            release();
        }
    }

    private void ready(SelectionKey key) {
        if (key.isAcceptable()) {
            accept();
            return;
        }
        Connection c = (Connection) key.attachment();
        try {
            if (key.isWritable()) {
                c.flush();
            }
            if (key.isValid() && key.isReadable()) {
                c.read();
            }
            c.answerAndFlush();
        } catch (IOException e) {
            c.close();
        }
    }

    private void accept() {
        try {
            SocketChannel channel = server.accept();
            if (channel == null) {
                return;
            }
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            connections.add(channel);
            Connection c = new Connection(channel);
            c.key = channel.register(selector, SelectionKey.OP_READ, c);
        } catch (IOException e) {
            log.println("heliograph bench responder: accept failed: " + e.getMessage());
        }
    }

    @Override
    public void close() {
        closing = true;
        selector.wakeup();
    }

    private void release() {
        for (SocketChannel c : connections) {
            try {
                c.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
        try {
            server.close();
            selector.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    /** One switch: its version (from its HELLO), what it sent that is not answered yet, and our answers. */
    private static final class Connection {
        final SocketChannel channel;
        final ByteBuffer in = ByteBuffer.allocateDirect(BUFFER_BYTES);
        final ByteBuffer out = ByteBuffer.allocateDirect(BUFFER_BYTES);
        SelectionKey key;
        OpenFlowVersion version;
        ByteBuffer flowMod;

        Connection(SocketChannel channel) {
            this.channel = channel;
        }

        void read() throws IOException {
            if (in.hasRemaining() && channel.read(in) < 0) {
                throw new IOException("closed by the switch");
            }
        }

        /** Answers every whole message it can find room for, sends, and picks what to wait for next. */
        void answerAndFlush() throws IOException {
            answer();
            flush();
            int ops = out.position() > 0 ? SelectionKey.OP_WRITE : SelectionKey.OP_READ;
            if (key.interestOps() != ops) {
                key.interestOps(ops);
            }
        }

        private void answer() throws IOException {
            int limit = in.position();
            int at = 0;
            while (limit - at >= Header.LENGTH) {
                int length = Header.length(in, at);
                if (length < Header.LENGTH) {
                    throw new IOException("unframeable stream");
                }
                if (limit - at < length) {
                    break;
                }
                int type = Header.type(in, at);
                if (type == OpenFlowVersion.PACKET_IN && flowMod != null) {
                    if (out.remaining() < ControllerMessages.FLOW_MOD_LENGTH) {
                        break;   // answered once the switch has read what we sent
                    }
                    out.put(out.position(), flowMod, 0, ControllerMessages.FLOW_MOD_LENGTH);
                    if (length >= OpenFlowVersion.PACKET_IN_BUFFER_ID + 4) {
                        out.putInt(out.position() + version.flowModBufferId(), in.getInt(at + OpenFlowVersion.PACKET_IN_BUFFER_ID));
                    }
                    out.position(out.position() + ControllerMessages.FLOW_MOD_LENGTH);
                } else if (out.remaining() < 64 + length) {
                    break;
                } else if (type == OpenFlowVersion.HELLO) {
                    version = OpenFlowVersion.ofWire(Header.version(in, at));
                    if (version == null) {
                        throw new IOException("unsupported OpenFlow wire version " + Header.version(in, at));
                    }
                    flowMod = ControllerMessages.flowMod(version);
                    ControllerMessages.hello(out, version);
                    ControllerMessages.featuresRequest(out, version);
                } else if (type == OpenFlowVersion.ECHO_REQUEST && version != null) {
                    ControllerMessages.echoReply(out, version, in, at, length);
                }
                at += length;
            }
            in.limit(limit).position(at);
            in.compact();
        }

        void flush() throws IOException {
            if (out.position() == 0) {
                return;
            }
            out.flip();
            channel.write(out);
            out.compact();
        }

        void close() {
            key.cancel();
            try {
                channel.close();
            } catch (IOException e) {
                // gone anyway
            }
        }
    }
}
