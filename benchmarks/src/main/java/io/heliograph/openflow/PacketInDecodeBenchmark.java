package io.heliograph.openflow;

import static io.heliograph.benchmarks.WirePackets.host;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFBufferId;

import io.heliograph.benchmarks.WirePackets;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;

/**
 * PACKET_IN from bytes to the Loxi message the pipeline gets: one framed message through
 * {@link OFMessageDecoder}, and a socket read's worth of messages through the connection's
 * decoder ({@link OFFrameDecoder}, which frames and decodes in one step) as the server installs it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
// Netty's pipeline takes longer to compile than the rest: give it more warm-up.
@Warmup(iterations = 6, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PacketInDecodeBenchmark {

    /** Messages in one read: what a busy switch's socket holds when the loop gets to it. */
    static final int READ_BATCH = 32;

    @Param({"OF_10", "OF_13"})
    public OFVersion version;

    private ByteBuf frame;
    private byte[] read;
    private EmbeddedChannel channel;

    @Setup
    public void setUp() {
        byte[] packetIn = WirePackets.packetInBytes(version, 1, host(2), host(1), OFBufferId.NO_BUFFER);
        frame = Unpooled.directBuffer(packetIn.length).writeBytes(packetIn);
        read = new byte[packetIn.length * READ_BATCH];
        for (int i = 0; i < READ_BATCH; i++) {
            System.arraycopy(packetIn, 0, read, i * packetIn.length, packetIn.length);
        }
        channel = new EmbeddedChannel(new OFFrameDecoder());
        if (!(OFMessageDecoder.decode(frame) instanceof OFPacketIn)) {
            throw new IllegalStateException("the decoder did not read a packet-in from " + frame);
        }
    }

    @TearDown
    public void tearDown() {
        channel.finishAndReleaseAll();
        frame.release();
    }

    /** One framed packet-in to an OFPacketIn (Loxi's reader, behind the decoder's checks). */
    @Benchmark
    public Object decodeOne() {
        frame.readerIndex(0);
        return OFMessageDecoder.decode(frame);
    }

    /** A read of 32 packet-ins in a pooled direct buffer, framed and decoded; the time is per message. */
    @Benchmark
    @OperationsPerInvocation(READ_BATCH)
    public int frameAndDecodeARead(Blackhole sink) {
        ByteBuf buffer = PooledByteBufAllocator.DEFAULT.directBuffer(read.length).writeBytes(read);
        channel.writeInbound(buffer);
        int messages = 0;
        for (Object message; (message = channel.readInbound()) != null; messages++) {
            sink.consume(message);
        }
        if (messages != READ_BATCH) {
            throw new IllegalStateException("decoded " + messages + " messages of " + READ_BATCH);
        }
        return messages;
    }
}
