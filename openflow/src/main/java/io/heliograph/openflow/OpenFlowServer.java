package io.heliograph.openflow;

import io.heliograph.core.spi.PipelineDispatch;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import javax.net.ssl.SSLException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The OpenFlow listeners (plain and optionally TLS) and their event loops. Each accepted switch is
 * registered with one loop of the I/O group and stays on it until it disconnects, so the loop that
 * decodes its messages also runs the pipelines for them (run-to-completion). Plain Java: the OSGi
 * component is a thin shell around it.
 */
public final class OpenFlowServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OpenFlowServer.class);

    private final SwitchRegistry registry;
    private final PipelineDispatch pipeline;
    private final ChannelCounters counters = new ChannelCounters();
    private final LongSupplier nanoClock;
    private volatile OpenFlowSettings settings;

    private EventLoopGroup acceptors;
    private EventLoopGroup workers;
    private static final long RELEASE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(2);
    /**
     * How long one turn of an I/O thread through its flooding switches may take before their reads
     * shrink: a flooding switch is read, and so answered, at least this often (and at most 2 KiB
     * a read below it). Short enough for every switch to be answered many times a second; long
     * enough that 16 switches flooding the full profile keep their 64 KiB reads.
     */
    private static final Duration TURN = Duration.ofMillis(100);

    private Channel plain;
    private Channel tls;

    public OpenFlowServer(OpenFlowSettings settings, SwitchRegistry registry, PipelineDispatch pipeline) {
        this(settings, registry, pipeline, System::nanoTime);
    }

    /** With the clock the packet-in budgets refill by (tests stop it). */
    OpenFlowServer(OpenFlowSettings settings, SwitchRegistry registry, PipelineDispatch pipeline, LongSupplier nanoClock) {
        this.settings = settings;
        this.registry = registry;
        this.pipeline = pipeline;
        this.nanoClock = nanoClock;
    }

    public SwitchRegistry registry() {
        return registry;
    }

    /** The settings new connections get. */
    public OpenFlowSettings settings() {
        return settings;
    }

    ChannelCounters counters() {
        return counters;
    }

    /** Starts the loops and binds the listeners; fails (and cleans up) when a port cannot be bound. */
    public synchronized void start() throws InterruptedException, SSLException {
        acceptors = new NioEventLoopGroup(1, new DefaultThreadFactory("openflow-accept"));
        workers = new NioEventLoopGroup(settings.ioThreads(), new DefaultThreadFactory("openflow-io"));
        try {
            bind(settings);
        } catch (InterruptedException | SSLException | RuntimeException e) {
            stop();
            throw e;
        }
    }

    private void bind(OpenFlowSettings s) throws InterruptedException, SSLException {
        plain = listen(bootstrap(s, null), new InetSocketAddress(s.address(), s.port()));
        LOG.info("OpenFlow listening on {} ({} I/O threads, versions {})", plain.localAddress(), s.ioThreads(),
                s.versions());
        if (s.tlsEnabled()) {
            SslContext ssl = TlsContexts.server(s);
            tls = listen(bootstrap(s, ssl), new InetSocketAddress(s.address(), s.tlsPort()));
            LOG.info("OpenFlow over TLS listening on {}{}", tls.localAddress(),
                    s.tlsTrust() != null ? ", switch certificates verified against " + s.tlsTrust() : "");
        }
    }

    private Channel listen(ServerBootstrap bootstrap, InetSocketAddress address) throws InterruptedException {
        return bootstrap.bind(address).sync().channel();
    }

    private void unbind() {
        for (Channel c : new Channel[] {plain, tls}) {
            if (c != null) {
                InetSocketAddress address = (InetSocketAddress) c.localAddress();
                c.close().syncUninterruptibly();
                awaitReleased(c, address);
            }
        }
        plain = null;
        tls = null;
    }

    /**
     * With NIO a closed listener keeps its port until its loop's selector next selects, so the old
     * port could still accept switches, and a rebind to the same port could be refused. Waits, the
     * loop selecting in between, until the address can be bound again, for up to
     * {@link #RELEASE_WAIT_NANOS}: after that another process holds the port.
     */
    private static void awaitReleased(Channel closed, InetSocketAddress address) {
        long deadline = System.nanoTime() + RELEASE_WAIT_NANOS;
        while (true) {
            try (ServerSocket probe = new ServerSocket()) {
                probe.setReuseAddress(true);
                probe.bind(address);
                return;
            } catch (IOException taken) {
                if (System.nanoTime() - deadline >= 0) {
                    LOG.warn("{} is still taken after its listener closed: another process holds it", address);
                    return;
                }
            }
            closed.eventLoop().schedule(() -> { }, 10, TimeUnit.MILLISECONDS).syncUninterruptibly();
        }
    }

    /**
     * Applies new settings live: new connections use them at once; a changed port, address or TLS
     * material rebinds the listeners (connected switches stay); a changed thread count rebuilds the
     * loops, which drops connected switches (they reconnect).
     */
    public synchronized void reconfigure(OpenFlowSettings next) throws InterruptedException, SSLException {
        OpenFlowSettings previous = settings;
        settings = next;
        if (!previous.listenersDifferFrom(next)) {
            return;
        }
        if (previous.ioThreads() != next.ioThreads()) {
            LOG.info("I/O thread count changes from {} to {}: restarting the OpenFlow server", previous.ioThreads(),
                    next.ioThreads());
            stop();
            start();
            return;
        }
        unbind();
        bind(next);
    }

    private ServerBootstrap bootstrap(OpenFlowSettings s, SslContext ssl) {
        return new ServerBootstrap()
                .group(acceptors, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_SNDBUF, 1 << 20)
                // Switches sharing a loop take turns, one read (up to 64 KiB, less when turns grow
                // long) each. With Netty's 16 reads per turn, and with its epoll transport, which
                // continues a read from its task queue (64 tasks before it polls again), one flooding
                // switch was read for up to 64 MiB before the others: with hundreds flooding, most
                // were not read for seconds and their keepalives timed out. NIO's selector reports a
                // channel with data left at its next poll, beside the others.
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, new TurnBoundedReads(TURN, nanoClock))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        OpenFlowSettings now = settings;
                        // Per channel, not per bootstrap: a changed maxPendingWriteBytes applies to the next switch.
                        ch.config().setWriteBufferWaterMark(now.writeBufferWaterMark());
                        ChannelPipeline p = ch.pipeline();
                        if (ssl != null) {
                            p.addLast("tls", ssl.newHandler(ch.alloc()));
                        }
                        SwitchLimits limits = now.limits();
                        PacketInBudget packetIns = new PacketInBudget(limits.packetInRate(), limits.packetInBurst(),
                                nanoClock);
                        p.addLast("frame", new OFFrameDecoder(packetIns, counters.packetInsDropped));
                        p.addLast("encode", OFMessageEncoder.INSTANCE);
                        p.addLast("idle", new IdleStateHandler(now.echoIdle().toMillis(), 0, 0, TimeUnit.MILLISECONDS));
                        p.addLast("switch", new SwitchConnection(new ControllerContext(now, registry, pipeline, counters),
                                packetIns));
                        p.addLast("errors", LastExceptionHandler.INSTANCE);
                    }
                });
    }

    /** The bound plain port (useful with port 0). */
    public synchronized int port() {
        return ((InetSocketAddress) plain.localAddress()).getPort();
    }

    /** The bound TLS port, or -1 when TLS is off. */
    public synchronized int tlsPort() {
        return tls == null ? -1 : ((InetSocketAddress) tls.localAddress()).getPort();
    }

    public synchronized void stop() {
        unbind();
        if (acceptors != null) {
            acceptors.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
            workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
            acceptors = null;
            workers = null;
        }
    }

    @Override
    public void close() {
        stop();
    }
}
