package io.heliograph.topology.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.action.OFActionOutput;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.MessageListener.Command;
import io.heliograph.core.SwitchPort;
import io.heliograph.core.testing.FakeSwitch;
import io.heliograph.core.testing.TableMiss;

/**
 * Fake switches joined by cables: a packet-out a switch is told to send out of a cabled port comes
 * back as a packet-in at the port on the cable's other end, as a real switch with a table-miss flow
 * to the controller would send it.
 */
final class Fabric {

    final Map<DatapathId, FakeSwitch> switches = new LinkedHashMap<>();
    /** Where a frame sent out of the key port arrives; a one-way cable has one entry. */
    final Map<SwitchPort, SwitchPort> cables = new HashMap<>();
    private final Receiver receiver;
    final List<Command> commands = new ArrayList<>();

    /** Where packet-ins go: the probe receiver, or the whole component. */
    interface Receiver {
        Command receive(io.heliograph.core.OFSwitch sw, OFMessage message);
    }

    Fabric(Receiver receiver) {
        this.receiver = receiver;
    }

    FakeSwitch add(FakeSwitch sw) {
        switches.put(sw.getId(), sw);
        return sw;
    }

    void cable(long a, int aPort, long b, int bPort) {
        oneWay(a, aPort, b, bPort);
        oneWay(b, bPort, a, aPort);
    }

    void oneWay(long from, int fromPort, long to, int toPort) {
        cables.put(end(from, fromPort), end(to, toPort));
    }

    void cut(long a, int aPort, long b, int bPort) {
        cables.remove(end(a, aPort));
        cables.remove(end(b, bPort));
    }

    static SwitchPort end(long dpid, int port) {
        return SwitchPort.of(DatapathId.of(dpid), OFPort.of(port));
    }

    /**
     * Delivers every packet-out written so far, and those the deliveries cause, until the fabric is
     * quiet. Returns the number of packet-ins delivered.
     */
    int deliver() {
        int delivered = 0;
        for (int round = 0; round < 100; round++) {
            List<Runnable> arrivals = new ArrayList<>();
            for (FakeSwitch sw : switches.values()) {
                for (OFMessage message : sw.take()) {
                    if (message instanceof OFPacketOut out) {
                        for (OFAction action : out.getActions()) {
                            SwitchPort peer = cables.get(SwitchPort.of(sw.getId(), ((OFActionOutput) action).getPort()));
                            FakeSwitch peerSwitch = peer == null ? null : switches.get(peer.dpid());
                            if (peerSwitch != null && peerSwitch.isConnected()) {
                                OFPacketIn in = packetIn(peerSwitch.getFactory(), peer.port(), out.getData());
                                arrivals.add(() -> commands.add(receiver.receive(peerSwitch, in)));
                            }
                        }
                    }
                }
            }
            if (arrivals.isEmpty()) {
                return delivered;
            }
            arrivals.forEach(Runnable::run);
            delivered += arrivals.size();
        }
        throw new AssertionError("the fabric never went quiet: discovery keeps probing");
    }

    /** Drops everything written so far. */
    void discardWrites() {
        switches.values().forEach(FakeSwitch::take);
    }

    static OFPacketIn packetIn(OFFactory f, OFPort inPort, byte[] frame) {
        return TableMiss.packetIn(f, inPort, frame);
    }
}
