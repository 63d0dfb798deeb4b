package io.heliograph.forwarding.internal;

import java.util.ArrayList;
import java.util.List;

import org.projectfloodlight.openflow.protocol.OFFlowMod;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.action.OFActionOutput;
import org.projectfloodlight.openflow.protocol.instruction.OFInstruction;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionApplyActions;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.OFPort;

/** Reading what forwarding wrote. */
final class Messages {

    private Messages() {
    }

    /** The output ports of a flow-mod: its actions (1.0) or its one apply-actions instruction (1.1+). */
    static List<OFPort> outputs(OFFlowMod flow) {
        if (flow.getVersion() == OFVersion.OF_10) {
            return outputs(flow.getActions());
        }
        List<OFInstruction> instructions = flow.getInstructions();
        if (instructions.size() != 1 || !(instructions.get(0) instanceof OFInstructionApplyActions apply)) {
            throw new AssertionError("expected one apply-actions instruction: " + instructions);
        }
        return outputs(apply.getActions());
    }

    static List<OFPort> outputs(OFPacketOut out) {
        return outputs(out.getActions());
    }

    static List<OFPort> outputs(List<OFAction> actions) {
        List<OFPort> ports = new ArrayList<>();
        for (OFAction action : actions) {
            if (!(action instanceof OFActionOutput output)) {
                throw new AssertionError("not an output action: " + action);
            }
            ports.add(output.getPort());
        }
        return ports;
    }

    /** The in_port of a packet-out: a field up to 1.4, a match from 1.5 on. */
    static OFPort inPort(OFPacketOut out) {
        return out.getVersion().compareTo(OFVersion.OF_15) >= 0 ? out.getMatch().get(MatchField.IN_PORT)
                : out.getInPort();
    }

    static <T extends OFMessage> T as(Class<T> type, OFMessage message) {
        if (!type.isInstance(message)) {
            throw new AssertionError("expected a " + type.getSimpleName() + ", got " + message);
        }
        return type.cast(message);
    }
}
