package io.heliograph.topology.internal;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.types.OFPort;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.MessageListener.Command;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.PacketIns;
import io.heliograph.core.packet.Ethernet;
import io.heliograph.topology.internal.LldpProbeCodec.Outcome;
import io.heliograph.topology.internal.LldpProbeCodec.Verdict;

/**
 * The packet-in side of discovery, run on the switches' I/O threads for every packet-in: a frame
 * that is not LLDP costs two byte reads and goes on down the pipeline. LLDP is checked right here
 * (the check needs no state but the key), and only a verified probe is handed to the topology
 * thread, so a flood of forged LLDP never reaches the topology's queue.
 *
 * <p>Every LLDP frame stops here, ours or not: LLDP is link-local (bridges never forward it), and a
 * forged one must not teach the later listeners a host behind an inter-switch port.
 */
public final class ProbeReceiver {

    private static final Logger LOG = LoggerFactory.getLogger(ProbeReceiver.class);

    private final LldpProbeCodec codec;
    private final LongSupplier clockMs;
    private final Supplier<TopologySettings> settings;
    private final Executor topologyThread;
    private final LinkDiscovery discovery;
    private final Map<Outcome, LongAdder> counts = new EnumMap<>(Outcome.class);

    public ProbeReceiver(LldpProbeCodec codec, LongSupplier clockMs, Supplier<TopologySettings> settings,
            Executor topologyThread, LinkDiscovery discovery) {
        this.codec = codec;
        this.clockMs = clockMs;
        this.settings = settings;
        this.topologyThread = topologyThread;
        this.discovery = discovery;
        for (Outcome outcome : Outcome.values()) {
            counts.put(outcome, new LongAdder());
        }
    }

    public Command receive(OFSwitch sw, OFMessage message) {
        if (!(message instanceof OFPacketIn packetIn)) {
            return Command.CONTINUE;
        }
        byte[] data = packetIn.getData();
        if (!mayBeLldp(data)) {
            return Command.CONTINUE;
        }
        Ethernet frame = Ethernet.wrap(data);
        if (frame.etherType() != Ethernet.TYPE_LLDP) {
            return Command.CONTINUE; // a VLAN-tagged frame of another type
        }
        OFPort inPort = PacketIns.inPort(packetIn);
        Verdict verdict = codec.check(frame, clockMs.getAsLong(), settings.get().lldpMaxAgeMs());
        counts.get(verdict.outcome()).increment();
        if (!verdict.accepted()) {
            LOG.debug("Switch {} port {}: LLDP refused ({}): {}", sw.getId(), inPort, verdict.outcome(),
                    verdict.detail());
            return Command.STOP;
        }
        if (inPort == null) {
            LOG.debug("Switch {}: probe from {} without an in_port, ignored", sw.getId(), verdict.probe().source());
            return Command.STOP;
        }
        try {
            topologyThread.execute(() -> discovery.probeReceived(sw, inPort, verdict.probe()));
        } catch (RejectedExecutionException e) {
            // The component is stopping; the probe no longer matters.
        }
        return Command.STOP;
    }

    /** The EtherType field, or the first tag's protocol id, says LLDP or tagged: worth a closer look. */
    private static boolean mayBeLldp(byte[] data) {
        if (data == null || data.length < 14) {
            return false;
        }
        int type = (data[12] & 0xff) << 8 | data[13] & 0xff;
        return type == Ethernet.TYPE_LLDP || type == Ethernet.TYPE_VLAN || type == Ethernet.TYPE_QINQ
                || type == Ethernet.TYPE_QINQ_LEGACY;
    }

    /** How many LLDP frames had each outcome since the start. */
    public Map<Outcome, Long> counts() {
        Map<Outcome, Long> out = new EnumMap<>(Outcome.class);
        counts.forEach((outcome, adder) -> out.put(outcome, adder.sum()));
        return out;
    }
}
