package io.heliograph.forwarding.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowDelete;
import org.projectfloodlight.openflow.protocol.OFFlowDeleteStrict;
import org.projectfloodlight.openflow.protocol.OFFlowModFlags;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

/**
 * Version-neutral forwarding messages built from a switch's own factory: 1.0 carries actions in the
 * flow-mod, 1.1+ an apply-actions instruction; a 1.5 packet-out names its in_port in a match.
 */
final class FlowMessages {

    private FlowMessages() {
    }

    /**
     * A flow that sends {@code headers} arriving at {@code inPort} out of {@code outPort}. It asks for a
     * FLOW_REMOVED when it expires, so the path registry forgets it. {@code buffer} is the switch buffer
     * to apply the flow to (the packet-in's, at the ingress), or NO_BUFFER.
     */
    static OFFlowAdd flowAdd(OFFactory factory, FlowEntry entry, OFPort outPort, ForwardingSettings settings,
            OFBufferId buffer) {
        List<OFAction> actions = List.of(factory.actions().output(outPort, 0));
        OFFlowAdd.Builder flow = factory.buildFlowAdd()
                .setCookie(entry.cookie())
                .setMatch(entry.match(factory))
                .setIdleTimeout(settings.idleTimeout())
                .setHardTimeout(settings.hardTimeout())
                .setPriority(entry.priority())
                .setBufferId(buffer)
                .setFlags(Set.of(OFFlowModFlags.SEND_FLOW_REM));
        if (factory.getVersion() == OFVersion.OF_10) {
            flow.setActions(actions);
        } else {
            flow.setInstructions(List.of(factory.instructions().applyActions(actions)));
        }
        return flow.build();
    }

    /**
     * Deletes every entry under our cookie namespace in every table (1.1+: a cookie mask; 1.0 has
     * none, so it has no such delete and this answers null).
     */
    static OFFlowDelete deleteAllOurs(OFFactory factory) {
        if (factory.getVersion() == OFVersion.OF_10) {
            return null;
        }
        return factory.buildFlowDelete()
                .setTableId(TableId.ALL)
                .setOutPort(OFPort.ANY)
                .setOutGroup(OFGroup.ANY)
                .setCookie(U64.of(InstalledPaths.NAMESPACE))
                .setCookieMask(U64.of(InstalledPaths.NAMESPACE_MASK))
                .build();
    }

    /**
     * Deletes the entry at this one's place in the table (strict match and priority), whichever of our
     * paths' cookies the switch holds there; from 1.1 on, only under our cookie namespace, so another
     * app's flow with the same match is left alone. Not the path's own cookie: two paths for the same
     * flow, recorded in one order by two switches' I/O threads, can have their adds reach a third switch
     * in the other order, so the entry there carries the cookie of a path the registry no longer holds.
     * Which path owns a place is the registry's to say; it hands out a place once.
     */
    static OFFlowDeleteStrict flowDelete(OFFactory factory, FlowEntry entry) {
        OFFlowDeleteStrict.Builder delete = factory.buildFlowDeleteStrict()
                .setMatch(entry.match(factory))
                .setPriority(entry.priority())
                .setOutPort(OFPort.ANY);
        if (factory.getVersion() != OFVersion.OF_10) {
            delete.setCookie(U64.of(InstalledPaths.NAMESPACE)).setCookieMask(U64.of(InstalledPaths.NAMESPACE_MASK))
                    .setOutGroup(OFGroup.ANY);
        }
        return delete.build();
    }

    /**
     * Sends a packet out of each of {@code outPorts}, in order: the packet-in's buffer when it has one,
     * else {@code data}. {@code inPort} is where the packet entered (CONTROLLER for one we inject).
     */
    static OFPacketOut packetOut(OFFactory factory, OFPort inPort, Collection<OFPort> outPorts, OFBufferId buffer,
            byte[] data) {
        List<OFAction> actions = new ArrayList<>(outPorts.size());
        for (OFPort port : outPorts) {
            actions.add(factory.actions().output(port, 0));
        }
        OFPacketOut.Builder out = factory.buildPacketOut().setBufferId(buffer).setActions(actions);
        if (factory.getVersion().compareTo(OFVersion.OF_15) >= 0) {
            out.setMatch(factory.buildMatch().setExact(MatchField.IN_PORT, inPort).build());
        } else {
            out.setInPort(inPort);
        }
        if (OFBufferId.NO_BUFFER.equals(buffer)) {
            out.setData(data);
        }
        return out.build();
    }
}
