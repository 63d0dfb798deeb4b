package io.heliograph.learningswitch;

import static io.heliograph.benchmarks.WirePackets.host;

import java.util.SplittableRandom;
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
import org.openjdk.jmh.annotations.Warmup;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFBufferId;

import io.heliograph.benchmarks.SinkSwitch;
import io.heliograph.benchmarks.WirePackets;
import io.heliograph.core.packet.Ethernet;

/**
 * The learning switch handling one decoded packet-in, up to the messages it writes (not encoded):
 * parsing the frame's addresses, the MAC table, and building the FLOW_MOD / PACKET_OUT. Every host
 * is learned in the setup, so the table is in its steady state; the packet-ins cycle through
 * random pairs of hosts, so lookups are not all the same cache line.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LearningSwitchBenchmark {

    private static final int PACKETS = 1 << 12;
    private static final int PORTS = 48;

    @Param({"OF_10", "OF_13"})
    public OFVersion version;

    /** Hosts on the switch (all learned). The default table holds 65,536. */
    @Param({"1000"})
    public int hosts;

    private LearningSwitch app;
    private SinkSwitch sw;
    private final OFPacketIn[] toKnown = new OFPacketIn[PACKETS];
    private final OFPacketIn[] toKnownBuffered = new OFPacketIn[PACKETS];
    private final OFPacketIn[] toUnknown = new OFPacketIn[PACKETS];
    private int next;

    @Setup
    public void setUp() {
        app = new LearningSwitch(LearningSwitchSettings.DEFAULTS);
        sw = new SinkSwitch(1, version);
        for (int h = 0; h < hosts; h++) {
            app.receive(sw, WirePackets.packetIn(version, portOf(h), Ethernet.BROADCAST, host(h),
                    OFBufferId.NO_BUFFER));
        }
        if (app.hostCount(sw.getId()) != hosts) {
            throw new IllegalStateException("learned " + app.hostCount(sw.getId()) + " hosts of " + hosts);
        }
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < PACKETS; i++) {
            int src = random.nextInt(hosts);
            int dst = random.nextInt(hosts);
            while (portOf(dst) == portOf(src)) {
                dst = random.nextInt(hosts);
            }
            toKnown[i] = WirePackets.packetIn(version, portOf(src), host(dst), host(src), OFBufferId.NO_BUFFER);
            toKnownBuffered[i] = WirePackets.packetIn(version, portOf(src), host(dst), host(src),
                    OFBufferId.of(0x100 + i));
            toUnknown[i] = WirePackets.packetIn(version, portOf(src), host(hosts + i), host(src),
                    OFBufferId.NO_BUFFER);
        }
        check(toKnown[0], OFPacketOut.class, 2);
        check(toKnownBuffered[0], OFFlowAdd.class, 1);
        check(toUnknown[0], OFPacketOut.class, 1);
    }

    private static int portOf(int host) {
        return 1 + host % PORTS;
    }

    /** The benchmarks measure what they say: each case writes the messages it should. */
    private void check(OFPacketIn in, Class<? extends OFMessage> lastType, int messages) {
        long before = sw.written();
        app.receive(sw, in);
        if (sw.written() - before != messages || !lastType.isInstance(sw.last())) {
            throw new IllegalStateException("expected " + messages + " messages ending with " + lastType.getSimpleName()
                    + ", got " + (sw.written() - before) + " ending with " + sw.last());
        }
    }

    /** A known destination, unbuffered (Open vSwitch from 1.3 on): FLOW_MOD and PACKET_OUT with the frame. */
    @Benchmark
    public OFMessage knownDestination() {
        app.receive(sw, toKnown[next++ & (PACKETS - 1)]);
        return sw.last();
    }

    /** A known destination, buffered (cbench, 1.0 switches): the FLOW_MOD alone releases the packet. */
    @Benchmark
    public OFMessage knownDestinationBuffered() {
        app.receive(sw, toKnownBuffered[next++ & (PACKETS - 1)]);
        return sw.last();
    }

    /** An unknown destination: a PACKET_OUT flooding the frame. */
    @Benchmark
    public OFMessage unknownDestination() {
        app.receive(sw, toUnknown[next++ & (PACKETS - 1)]);
        return sw.last();
    }
}
