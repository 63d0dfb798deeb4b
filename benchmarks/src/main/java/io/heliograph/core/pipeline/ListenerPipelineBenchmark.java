package io.heliograph.core.pipeline;

import static io.heliograph.benchmarks.WirePackets.host;

import java.util.Set;
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
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFBufferId;

import io.heliograph.benchmarks.SinkSwitch;
import io.heliograph.benchmarks.WirePackets;
import io.heliograph.core.MessageListener;
import io.heliograph.core.MessageListener.Command;
import io.heliograph.core.OFSwitch;

/**
 * A PACKET_IN through its pipeline of {@code listeners} listeners that each read one field and
 * continue: the cost of the dispatch itself (the chain walk, the virtual calls, the failure guard).
 * The listeners are of four classes, as several apps are, so from three on the call is megamorphic,
 * as in the running controller. Listeners for other types are registered too and must not be called.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ListenerPipelineBenchmark {

    @Param({"1", "4", "8"})
    public int listeners;

    private ListenerPipelines pipelines;
    private OFSwitch sw;
    private OFPacketIn packetIn;
    /** What the listeners read, summed; a field so their reads cannot be dropped. */
    private long tally;
    private long failures;

    @Setup
    public void setUp() {
        pipelines = new ListenerPipelines((s, m, l, e) -> failures++);
        for (int i = 0; i < listeners; i++) {
            pipelines.add(reader(i));
        }
        pipelines.add(new Reader("port-status", OFType.PORT_STATUS) {
            @Override
            long read(OFMessage message) {
                throw new IllegalStateException("a PORT_STATUS listener was given a " + message.getType());
            }
        });
        sw = new SinkSwitch(1, OFVersion.OF_13);
        packetIn = WirePackets.packetIn(OFVersion.OF_13, 1, host(2), host(1), OFBufferId.NO_BUFFER);
        tally = 0;
        pipelines.dispatch(sw, packetIn);
        if (tally == 0 || failures != 0) {
            throw new IllegalStateException("the listeners did not all run cleanly: tally " + tally + ", failures "
                    + failures);
        }
    }

    @Benchmark
    public Command dispatchPacketIn() {
        return pipelines.dispatch(sw, packetIn);
    }

    /** Four listener classes, each reading a different field, cycled through. */
    private Reader reader(int i) {
        String name = "reader-" + i;
        return switch (i % 4) {
            case 0 -> new Reader(name, OFType.PACKET_IN) {
                @Override
                long read(OFMessage message) {
                    return message.getVersion().getWireVersion();
                }
            };
            case 1 -> new Reader(name, OFType.PACKET_IN) {
                @Override
                long read(OFMessage message) {
                    return ((OFPacketIn) message).getTotalLen();
                }
            };
            case 2 -> new Reader(name, OFType.PACKET_IN) {
                @Override
                long read(OFMessage message) {
                    return ((OFPacketIn) message).getBufferId().getInt();
                }
            };
            default -> new Reader(name, OFType.PACKET_IN) {
                @Override
                long read(OFMessage message) {
                    return ((OFPacketIn) message).getData().length;
                }
            };
        };
    }

    /** A listener that reads something from the message, adds it to the tally and lets the message go on. */
    private abstract class Reader implements MessageListener {

        private final String name;
        private final Set<OFType> types;

        Reader(String name, OFType type) {
            this.name = name;
            this.types = Set.of(type);
        }

        abstract long read(OFMessage message);

        @Override
        public String getName() {
            return name;
        }

        @Override
        public Set<OFType> getTypes() {
            return types;
        }

        @Override
        public Command receive(OFSwitch sw, OFMessage message) {
            tally += read(message);
            return Command.CONTINUE;
        }
    }
}
