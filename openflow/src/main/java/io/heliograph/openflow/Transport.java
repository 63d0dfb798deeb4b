package io.heliograph.openflow;

import java.util.concurrent.ThreadFactory;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;

/**
 * The socket transport: native epoll on Linux when Netty's epoll bundle and its native library are
 * present, NIO otherwise. The epoll classes are only touched inside {@link Epoll}, so this bundle
 * imports them optionally and still runs without them.
 */
interface Transport {

    EventLoopGroup group(int threads, ThreadFactory threadFactory);

    Class<? extends ServerChannel> serverChannel();

    String name();

    static Transport best() {
        try {
            if (io.netty.channel.epoll.Epoll.isAvailable()) {
                return new EpollTransport();
            }
            LoggerFactory.getLogger(Transport.class).info("epoll unavailable ({}); using NIO",
                    String.valueOf(io.netty.channel.epoll.Epoll.unavailabilityCause()));
        } catch (LinkageError e) {
            Logger log = LoggerFactory.getLogger(Transport.class);
            log.info("Netty epoll classes not installed ({}); using NIO", e.toString());
        }
        return new NioTransport();
    }

    final class NioTransport implements Transport {
        @Override
        public EventLoopGroup group(int threads, ThreadFactory threadFactory) {
            return new NioEventLoopGroup(threads, threadFactory);
        }

        @Override
        public Class<? extends ServerChannel> serverChannel() {
            return NioServerSocketChannel.class;
        }

        @Override
        public String name() {
            return "nio";
        }
    }

    final class EpollTransport implements Transport {
        @Override
        public EventLoopGroup group(int threads, ThreadFactory threadFactory) {
            return new io.netty.channel.epoll.EpollEventLoopGroup(threads, threadFactory);
        }

        @Override
        public Class<? extends ServerChannel> serverChannel() {
            return io.netty.channel.epoll.EpollServerSocketChannel.class;
        }

        @Override
        public String name() {
            return "epoll";
        }
    }
}
