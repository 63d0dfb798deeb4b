package io.heliograph.circuit.internal.exec;

import java.util.ArrayList;
import java.util.List;

import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowMod;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.IPv4AddressWithMask;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.circuit.engine.MatchingTransition;

/**
 * The executor's flow-mods, in the switch's version (1.1 and later: they need cookie masks). Every entry
 * is in table 0 at its owner's priority with its {@link ExecutorCookies} cookie; changes are strict and
 * filtered by the exact cookie, so no other app's entry is ever touched.
 */
final class CircuitFlows {

    private CircuitFlows() {
    }

    static void requireCookieMasks(OFFactory f) {
        if (f.getVersion() == OFVersion.OF_10) {
            throw new IllegalStateException("OpenFlow 1.0 has no cookie masks: the executor needs 1.1 or later");
        }
    }

    /** The circuit switch's entry for rack {@code input}: from its port out of rack {@code output}'s. */
    static OFFlowMod circuit(OFFactory f, Fabric fabric, MatchingTransition.Step step) {
        int in = fabric.rack(step.input()).circuitSwitchPort();
        Match match = f.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(in)).build();
        U64 cookie = U64.of(ExecutorCookies.circuit(step.input()));
        return switch (step.kind()) {
            case ADD -> f.buildFlowAdd().setCookie(cookie).setPriority(ScheduleExecutor.CIRCUIT_PRIORITY)
                    .setMatch(match).setInstructions(apply(f, fabric.rack(step.output()).circuitSwitchPort())).build();
            case MODIFY -> f.buildFlowModifyStrict().setCookie(cookie).setCookieMask(U64.NO_MASK)
                    .setPriority(ScheduleExecutor.CIRCUIT_PRIORITY).setMatch(match)
                    .setInstructions(apply(f, fabric.rack(step.output()).circuitSwitchPort())).build();
            case REMOVE -> f.buildFlowDeleteStrict().setCookie(cookie).setCookieMask(U64.NO_MASK)
                    .setPriority(ScheduleExecutor.CIRCUIT_PRIORITY).setMatch(match)
                    .setOutPort(OFPort.ANY).setOutGroup(OFGroup.ANY).build();
        };
    }

    /** Every entry whose cookie is {@code cookie} under {@code mask}, in every table. */
    static OFFlowMod deleteAll(OFFactory f, long cookie, long mask) {
        return f.buildFlowDelete().setTableId(TableId.ALL).setCookie(U64.of(cookie)).setCookieMask(U64.of(mask))
                .setOutPort(OFPort.ANY).setOutGroup(OFGroup.ANY).build();
    }

    /** The ToR entries of pair (src, dst): one per prefix of dst's hosts, out of {@code uplink}. */
    static List<OFFlowMod> pair(OFFactory f, RackPair pair, List<IPv4AddressWithMask> dstPrefixes, int uplink,
                                boolean add) {
        List<OFFlowMod> mods = new ArrayList<>(dstPrefixes.size());
        U64 cookie = U64.of(ExecutorCookies.pair(pair.src(), pair.dst()));
        for (IPv4AddressWithMask prefix : dstPrefixes) {
            Match match = f.buildMatch().setExact(MatchField.ETH_TYPE, EthType.IPv4)
                    .setMasked(MatchField.IPV4_DST, prefix).build();
            mods.add(add
                    ? f.buildFlowAdd().setCookie(cookie).setPriority(ScheduleExecutor.TOR_PRIORITY).setMatch(match)
                            .setInstructions(apply(f, uplink)).build()
                    : f.buildFlowModifyStrict().setCookie(cookie).setCookieMask(U64.NO_MASK)
                            .setPriority(ScheduleExecutor.TOR_PRIORITY).setMatch(match)
                            .setInstructions(apply(f, uplink)).build());
        }
        return mods;
    }

    private static List<org.projectfloodlight.openflow.protocol.instruction.OFInstruction> apply(OFFactory f, int port) {
        List<OFAction> actions = List.of(f.actions().output(OFPort.of(port), 0xffff));
        return List.of(f.instructions().applyActions(actions));
    }

    /** A host ("10.0.1.5") or prefix ("10.0.1.0/24") as a masked IPv4 address. */
    static IPv4AddressWithMask prefix(String hostOrPrefix) {
        String text = hostOrPrefix.strip();
        try {
            return IPv4AddressWithMask.of(text.contains("/") ? text : text + "/32");
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("\"" + hostOrPrefix + "\" is not an IPv4 host or prefix", e);
        }
    }
}
