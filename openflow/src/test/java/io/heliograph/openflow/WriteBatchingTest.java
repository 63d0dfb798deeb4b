package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.TableId;

import io.heliograph.core.OFSwitch;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalServerChannel;

class WriteBatchingTest {

    private static final OFFactory F = OFFactories.getFactory(OFVersion.OF_13);

    /**
     * Counts flushes, buffers and the messages encoded in them below the batcher: what would be
     * system calls and outbound entries.
     */
    static final class FlushCounter extends ChannelDuplexHandler {
        final AtomicInteger flushes = new AtomicInteger();
        final AtomicInteger buffers = new AtomicInteger();
        final List<Long> written = new ArrayList<>();

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            ByteBuf b = (ByteBuf) msg;
            buffers.incrementAndGet();
            synchronized (written) {
                // every OpenFlow message in the buffer, by its header's length and xid
                for (int at = b.readerIndex(); at < b.writerIndex(); at += b.getUnsignedShort(at + 2)) {
                    written.add(b.getUnsignedInt(at + 4));
                }
            }
            ctx.write(msg, promise);
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {
            flushes.incrementAndGet();
            ctx.flush();
        }
    }

    /** The handler at whose context the batcher sits, like SwitchConnection. */
    static final class Host extends ChannelInboundHandlerAdapter {
        volatile WriteBatcher batcher;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            batcher = new WriteBatcher(ctx, new PendingWriteLimit(ctx.channel(), Long.MAX_VALUE, (p, m) -> { }));
        }
    }

    private static OFMessage echo(long xid) {
        return F.buildEchoRequest().setXid(xid).setData(new byte[0]).build();
    }

    @Test
    void writesDuringAReadBatchGoOutInOneFlush() {
        FlushCounter counter = new FlushCounter();
        Host host = new Host();
        EmbeddedChannel ch = new EmbeddedChannel(counter, OFMessageEncoder.INSTANCE, host);
        host.batcher.readBatchStarted();
        for (long xid = 1; xid <= 5; xid++) {
            host.batcher.write(echo(xid));
        }
        assertEquals(0, counter.flushes.get(), "nothing flushed while the batch runs");
        host.batcher.readBatchEnded();
        assertEquals(1, counter.flushes.get());
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), counter.written);
        assertEquals(1, counter.buffers.get(), "the batch's messages encoded into one buffer");
        assertEquals(1, ch.outboundMessages().size());
        ch.finishAndReleaseAll();
    }

    @Test
    void aBatchTheSizeOfTheLastIsEncodedWithoutGrowingItsBuffer() {
        List<Integer> asked = new ArrayList<>();
        ByteBufAllocator recording = new AbstractByteBufAllocator() {
            @Override
            protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
                asked.add(initialCapacity);
                return Unpooled.directBuffer(initialCapacity, maxCapacity);
            }

            @Override
            protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
                return Unpooled.buffer(initialCapacity, maxCapacity);
            }

            @Override
            public boolean isDirectBufferPooled() {
                return false;
            }
        };
        List<Integer> capacities = new ArrayList<>();
        ChannelDuplexHandler capacity = new ChannelDuplexHandler() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                capacities.add(((ByteBuf) msg).capacity());
                ctx.write(msg, promise);
            }
        };
        Host host = new Host();
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.config().setAllocator(recording);
        ch.pipeline().addLast(capacity, OFMessageEncoder.INSTANCE, host);
        int echoes = 500;
        int bytes = echoes * 8; // a batch: an echo request without data is its 8-byte header
        for (int batch = 0; batch < 2; batch++) {
            host.batcher.readBatchStarted();
            for (long xid = 1; xid <= echoes; xid++) {
                host.batcher.write(echo(xid));
            }
            host.batcher.readBatchEnded();
        }
        assertEquals(2, asked.size(), "one buffer per batch");
        assertTrue(asked.get(0) < bytes, "the first batch starts small: " + asked);
        assertTrue(asked.get(1) >= bytes, "the second starts with room for as much as the first held: " + asked);
        assertEquals(asked.get(1), capacities.get(1), "and was not grown");
        ch.finishAndReleaseAll();
    }

    /** A real channel (in-JVM transport, own event loop) with the batcher on it, as on a switch connection. */
    static final class LocalPair implements AutoCloseable {
        final DefaultEventLoopGroup group = new DefaultEventLoopGroup(1);
        final FlushCounter counter = new FlushCounter();
        final Host host = new Host();
        final Channel server;
        final Channel client;

        LocalPair() throws InterruptedException {
            LocalAddress address = new LocalAddress("batching-" + System.nanoTime());
            server = new ServerBootstrap().group(group).channel(LocalServerChannel.class)
                    .childHandler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            io.netty.util.ReferenceCountUtil.release(msg);
                        }
                    }).bind(address).sync().channel();
            client = new Bootstrap().group(group).channel(LocalChannel.class)
                    .handler(new ChannelInitializer<LocalChannel>() {
                        @Override
                        protected void initChannel(LocalChannel ch) {
                            ch.pipeline().addLast(counter, OFMessageEncoder.INSTANCE, host);
                        }
                    }).connect(address).sync().channel();
        }

        List<Long> awaitWritten(int n) {
            ControllerFixture.await(() -> {
                synchronized (counter.written) {
                    return counter.written.size() == n;
                }
            }, n + " messages written");
            ControllerFixture.await(() -> counter.flushes.get() >= 1, "flushed");
            synchronized (counter.written) {
                return new ArrayList<>(counter.written);
            }
        }

        @Override
        public void close() throws InterruptedException {
            client.close().sync();
            server.close().sync();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    @Test
    void writesOnTheLoopOutsideABatchShareOneFlushTask() throws Exception {
        try (LocalPair pair = new LocalPair()) {
            // e.g. a timer or a future completing on the switch's thread
            pair.client.eventLoop().submit(() -> {
                pair.host.batcher.write(echo(1));
                pair.host.batcher.write(echo(2));
                pair.host.batcher.write(echo(3));
                assertEquals(0, pair.counter.flushes.get(), "not flushed within the task");
            }).sync();
            assertEquals(List.of(1L, 2L, 3L), pair.awaitWritten(3));
            assertEquals(1, pair.counter.flushes.get());
        }
    }

    @Test
    void writesFromAnotherThreadAreDrainedByOneTaskWithOneFlush() throws Exception {
        try (LocalPair pair = new LocalPair()) {
            // Hold the loop so every foreign write below is queued before the drain can run.
            CountDownLatch hold = new CountDownLatch(1);
            pair.client.eventLoop().execute(() -> {
                try {
                    hold.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            List<Long> expected = new ArrayList<>();
            for (long xid = 1; xid <= 100; xid++) {
                pair.host.batcher.write(echo(xid));
                expected.add(xid);
            }
            hold.countDown();
            assertEquals(expected, pair.awaitWritten(100));
            assertEquals(1, pair.counter.flushes.get(), "one flush for the whole queue");
        }
    }

    @Test
    void aListenersWritesAndForeignWritesReachTheSwitchInOrder() throws Exception {
        try (ControllerFixture controller = new ControllerFixture();
                FakeSwitch fake = FakeSwitch.connect(controller.port(), 0x30, OFVersion.OF_13)) {
            OFSwitch sw = controller.awaitSwitch(0x30);
            OFFactory f = sw.getFactory();
            // A listener answering each packet-in with three packet-outs, on the switch's thread.
            controller.pipeline.hook = (s, m) -> {
                if (m instanceof OFPacketIn pin) {
                    for (int i = 0; i < 3; i++) {
                        s.write(f.buildPacketOut().setXid(pin.getXid() * 10 + i).setBufferId(OFBufferId.NO_BUFFER)
                                .setData(new byte[] {1}).build());
                    }
                }
            };
            for (long xid = 1; xid <= 5; xid++) {
                fake.send(f.buildPacketIn().setXid(xid).setBufferId(OFBufferId.NO_BUFFER)
                        .setReason(OFPacketInReason.NO_MATCH).setTableId(TableId.of(0))
                        .setMatch(f.buildMatch().build()).setData(new byte[] {1}).build());
            }
            for (long xid = 1; xid <= 5; xid++) {
                for (int i = 0; i < 3; i++) {
                    long expected = xid * 10 + i;
                    fake.expect(OFPacketOut.class, p -> p.getXid() == expected);
                }
            }
            Thread loop = controller.pipeline.threads.peek();
            assertTrue(controller.pipeline.threads.stream().allMatch(t -> t == loop), "one thread serves the switch");

            // Two foreign threads, each writing in its own order.
            Thread[] writers = new Thread[2];
            for (int t = 0; t < 2; t++) {
                long base = (t + 1) * 100_000L;
                writers[t] = new Thread(() -> {
                    for (long i = 0; i < 500; i++) {
                        sw.write(f.buildPacketOut().setXid(base + i).setBufferId(OFBufferId.NO_BUFFER)
                                .setData(new byte[0]).build());
                    }
                });
                writers[t].start();
            }
            for (Thread w : writers) {
                w.join();
            }
            long[] next = {100_000L, 200_000L};
            while (next[0] < 100_500L || next[1] < 200_500L) {
                OFPacketOut out = fake.expect(OFPacketOut.class, p -> p.getXid() >= 100_000L);
                int writer = out.getXid() >= 200_000L ? 1 : 0;
                assertEquals(next[writer], out.getXid(), "writes of one thread arrive in order");
                next[writer]++;
            }
        }
    }
}
