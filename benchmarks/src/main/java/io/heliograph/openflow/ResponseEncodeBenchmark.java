package io.heliograph.openflow;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFVersion;

import io.heliograph.learningswitch.LearningSwitchResponses;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;

/**
 * The learning switch's answer to a packet-in for a known destination (a FLOW_MOD and, the packet
 * being unbuffered, a PACKET_OUT with the frame) to bytes: straight into a reused buffer, and through
 * {@link OFMessageEncoder} into the pooled buffers Netty writes to the socket.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
// Netty's pipeline takes longer to compile than the rest: give it more warm-up.
@Warmup(iterations = 6, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ResponseEncodeBenchmark {

    @Param({"OF_10", "OF_13"})
    public OFVersion version;

    private OFFlowAdd flowMod;
    private OFPacketOut packetOut;
    private ByteBuf buffer;
    private EmbeddedChannel channel;

    @Setup
    public void setUp() {
        List<OFMessage> response = LearningSwitchResponses.toKnownDestination(version);
        flowMod = (OFFlowAdd) response.get(0);
        packetOut = (OFPacketOut) response.get(1);
        buffer = Unpooled.directBuffer(1024);
        channel = new EmbeddedChannel(OFMessageEncoder.INSTANCE);
    }

    @TearDown
    public void tearDown() {
        channel.finishAndReleaseAll();
        buffer.release();
    }

    /** Loxi's serialisation alone: both messages into one reused direct buffer. */
    @Benchmark
    public int writeToReusedBuffer() {
        buffer.clear();
        flowMod.writeTo(buffer);
        packetOut.writeTo(buffer);
        return buffer.writerIndex();
    }

    /** As a connection writes them: each through the encoder into a pooled direct buffer, then one flush. */
    @Benchmark
    public int encodeThroughTheChannel() {
        channel.write(flowMod, channel.voidPromise());
        channel.write(packetOut, channel.voidPromise());
        channel.flush();
        int bytes = 0;
        for (ByteBuf encoded; (encoded = channel.readOutbound()) != null; ) {
            bytes += encoded.readableBytes();
            encoded.release();
        }
        return bytes;
    }
}
