package io.heliograph.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.action.OFActionOutput;
import org.projectfloodlight.openflow.protocol.instruction.OFInstruction;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionApplyActions;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionWriteActions;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.OFValueType;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

/**
 * A flow-add for a hot path (a flow per packet-in, at line rate), built once with Loxi and then
 * written per flow as bytes: the per-flow fields (xid, buffer id, the port of the one output action,
 * the values of chosen exact match fields) are put into a copy of Loxi's encoding. Building the same
 * flow with Loxi's builders costs a builder, a match, actions and instructions per flow, and a write
 * that walks them all; this costs one array copy. The bytes are the ones Loxi writes for the same
 * fields, on every OpenFlow version.
 *
 * <pre>{@code
 * FlowAddTemplate flows = FlowAddTemplate.of(factory -> factory.buildFlowAdd()
 *         .setMatch(factory.buildMatch()
 *                 .setExact(MatchField.IN_PORT, OFPort.of(1))
 *                 .setExact(MatchField.ETH_DST, MacAddress.NONE).build())
 *         ... // priority, timeouts, an output action: as for any flow of this version
 *         .build(), MatchField.IN_PORT, MatchField.ETH_DST);
 * // per packet-in:
 * sw.write(flows.newFlow(sw.getFactory())
 *         .set(MatchField.IN_PORT, inPort.getPortNumber())
 *         .set(MatchField.ETH_DST, destination)
 *         .outPort(out)
 *         .build());
 * }</pre>
 *
 * <p>The sample is built for every OpenFlow version at once (but 1.1, for which Loxi builds no match;
 * the controller does not speak it), so a sample that does not suit one (an importance on 1.0) fails
 * here rather than at a switch's first flow. Where each field lies in the
 * bytes is not written down by version but found: the sample is encoded with two values of the field
 * that differ in every bit, and where the encodings differ is the field; each place is then checked
 * by patching one encoding into the other. Varying match fields must be exact in the sample and hold
 * an {@link OFPort}, a {@link MacAddress} or an {@link IPv4Address}. Anything the flow should not
 * share with the sample (another match field, a mask, a second output) needs its own template or
 * Loxi's builder.
 *
 * <p>The flows it builds are {@link OFFlowAdd}s equal to Loxi's of the same fields; Loxi's messages
 * only ever equal their own class, so compare with one of these on the left.
 */
public final class FlowAddTemplate {

    /** Two values that differ in every bit, so that every byte of a field differs between them. */
    private static final long ONES = 0x5a5a_5a5a_5a5a_5a5aL;
    private static final long OTHERS = ~ONES;
    private static final int XID_OFFSET = 4;
    private static final int BUFFER_ID = 0;
    private static final int OUT_PORT = 1;
    private static final int FIRST_FIELD = 2;
    private static final VarHandle SHORTS = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private final MatchField<?>[] fields;
    /** By {@link OFVersion#ordinal()}; none for 1.1. */
    private final Encoding[] encodings;

    private FlowAddTemplate(MatchField<?>[] fields, Encoding[] encodings) {
        this.fields = fields;
        this.encodings = encodings;
    }

    /**
     * A template of the flow {@code sample} builds from a version's factory, whose buffer id, output
     * port and the values of {@code varying} match fields change from flow to flow.
     *
     * @throws IllegalArgumentException naming the version and the field, where the sample does not
     *         build, a varying field is not exact in its match or of another type, or it has more than
     *         one output action
     */
    public static FlowAddTemplate of(Function<OFFactory, OFFlowAdd> sample, MatchField<?>... varying) {
        List<MatchField<?>> fields = List.of(varying);
        Encoding[] encodings = new Encoding[OFVersion.values().length];
        for (OFVersion version : OFVersion.values()) {
            if (version == OFVersion.OF_11) {
                continue;
            }
            OFFactory factory = OFFactories.getFactory(version);
            OFFlowAdd flow;
            try {
                flow = sample.apply(factory);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("the sample flow does not build for OpenFlow " + version + ": " + e,
                        e);
            }
            encodings[version.ordinal()] = Encoding.of(factory, flow, fields);
        }
        return new FlowAddTemplate(varying.clone(), encodings);
    }

    /**
     * A flow for the switch of {@code factory}, with the factory's next xid (a switch's own counter,
     * for the factory of {@link OFSwitch#getFactory()}) and the sample's other fields.
     */
    public Flow newFlow(OFFactory factory) {
        Encoding encoding = encodings[factory.getVersion().ordinal()];
        if (encoding == null) {
            throw new IllegalArgumentException("a flow-add template has no OpenFlow " + factory.getVersion()
                    + " (Loxi builds no 1.1 match)");
        }
        Flow flow = new Flow(encoding, fields, encoding.wire.clone());
        INTS.set(flow.wire, XID_OFFSET, (int) factory.nextXid());
        return flow;
    }

    /** One flow being filled in; {@link #build()} it once. */
    public static final class Flow {

        private final Encoding encoding;
        private final MatchField<?>[] fields;
        private final byte[] wire;
        /** Where the next field is looked for first: apps set the fields in the template's order. */
        private int next;

        private Flow(Encoding encoding, MatchField<?>[] fields, byte[] wire) {
            this.encoding = encoding;
            this.fields = fields;
            this.wire = wire;
        }

        public Flow bufferId(OFBufferId bufferId) {
            return put(BUFFER_ID, bufferId.getInt());
        }

        /** @throws IllegalStateException where the sample has no output action */
        public Flow outPort(OFPort port) {
            if (encoding.widths[OUT_PORT] == 0) {
                throw new IllegalStateException("the template's sample has no output action whose port to set");
            }
            return put(OUT_PORT, port.getPortNumber());
        }

        /**
         * Sets a varying match field's value: a port number, a MAC address in the low 48 bits, an
         * IPv4 address as its int. Only the bytes the field takes in this version are written (an
         * OpenFlow 1.0 port number is 16 bits, as Loxi writes it).
         *
         * @throws IllegalArgumentException for a field the template was not made to vary
         */
        public Flow set(MatchField<?> field, long value) {
            int index = next < fields.length && fields[next] == field ? next : indexOf(field);
            next = index + 1;
            return put(FIRST_FIELD + index, value);
        }

        private int indexOf(MatchField<?> field) {
            for (int index = 0; index < fields.length; index++) {
                if (fields[index] == field) {
                    return index;
                }
            }
            throw new IllegalArgumentException(field.getName() + " is not one of the template's varying fields "
                    + Arrays.stream(fields).map(MatchField::getName).toList());
        }

        private Flow put(int slot, long value) {
            FlowAddTemplate.put(wire, encoding.offsets[slot], encoding.widths[slot], value);
            return this;
        }

        public OFFlowAdd build() {
            return new EncodedFlowAdd(encoding.version, wire);
        }
    }

    /**
     * Writes the low {@code width} bytes of {@code value} at {@code offset}, big-endian as OpenFlow is.
     * The widths a flow's fields take (2, 4, 6) are written as whole shorts and ints: this runs a few
     * times per packet-in.
     */
    private static void put(byte[] wire, int offset, int width, long value) {
        switch (width) {
            case 2 -> SHORTS.set(wire, offset, (short) value);
            case 4 -> INTS.set(wire, offset, (int) value);
            case 6 -> {
                SHORTS.set(wire, offset, (short) (value >>> 32));
                INTS.set(wire, offset + 2, (int) value);
            }
            default -> {
                for (int i = offset + width - 1; i >= offset; i--) {
                    wire[i] = (byte) value;
                    value >>>= 8;
                }
            }
        }
    }

    /**
     * A version's encoding of the sample and where each slot lies in it: the buffer id, the output
     * port (width 0: none), then the varying match fields in order.
     */
    private record Encoding(OFVersion version, byte[] wire, int[] offsets, int[] widths) {

        static Encoding of(OFFactory factory, OFFlowAdd sample, List<MatchField<?>> fields) {
            int slots = FIRST_FIELD + fields.size();
            int[] offsets = new int[slots];
            int[] widths = new int[slots];
            Slot[] variants = new Slot[slots];
            variants[BUFFER_ID] = value -> sample.createBuilder().setBufferId(OFBufferId.of((int) value)).build();
            if (outputs(sample) > 1) {
                throw new IllegalArgumentException("the sample flow has " + outputs(sample) + " output actions on "
                        + factory.getVersion() + "; a template sets the port of one");
            }
            if (outputs(sample) == 1) {
                variants[OUT_PORT] = value -> withOutPort(factory, sample, OFPort.of((int) value));
            }
            for (int i = 0; i < fields.size(); i++) {
                MatchField<?> field = fields.get(i);
                Match match = sample.getMatch();
                if (!match.isExact(field)) {
                    throw new IllegalArgumentException("the sample flow's match has no exact " + field.getName()
                            + " to vary on " + factory.getVersion());
                }
                variants[FIRST_FIELD + i] = value -> sample.createBuilder().setMatch(with(factory, match, field, value))
                        .build();
            }
            byte[] wire = encode(sample);
            for (int slot = 0; slot < slots; slot++) {
                if (variants[slot] != null) {
                    locate(factory.getVersion(), wire, variants[slot], slot, offsets, widths);
                }
            }
            return new Encoding(factory.getVersion(), wire, offsets, widths);
        }

        /**
         * Finds where a slot's value lies: the bytes in which two encodings with opposite values
         * differ. Checked: either value put there in the sample's encoding gives that value's.
         */
        private static void locate(OFVersion version, byte[] wire, Slot variant, int slot, int[] offsets,
                int[] widths) {
            byte[] ones = encode(variant.with(ONES));
            byte[] others = encode(variant.with(OTHERS));
            int first = Arrays.mismatch(ones, others);
            if (first < 0 || ones.length != others.length) {
                throw new IllegalArgumentException("OpenFlow " + version + " does not write slot " + slot
                        + " of the template as one fixed field");
            }
            int last = first;
            while (last + 1 < ones.length && ones[last + 1] != others[last + 1]) {
                last++;
            }
            offsets[slot] = first;
            widths[slot] = last - first + 1;
            byte[] patchedOnes = wire.clone();
            put(patchedOnes, first, widths[slot], ONES);
            byte[] patchedOthers = wire.clone();
            put(patchedOthers, first, widths[slot], OTHERS);
            if (!Arrays.equals(patchedOnes, ones) || !Arrays.equals(patchedOthers, others)) {
                throw new IllegalArgumentException("OpenFlow " + version + " does not write slot " + slot
                        + " of the template as one fixed field");
            }
        }
    }

    /** The sample with one field's value changed. */
    private interface Slot {
        OFFlowAdd with(long value);
    }

    /**
     * The match with one field's value changed, built afresh: Loxi's {@code Match.createBuilder()}
     * on 1.2+ starts empty rather than from the match.
     */
    private static Match with(OFFactory factory, Match match, MatchField<?> field, long value) {
        OFValueType<?> current = match.get(field);
        OFValueType<?> next;
        if (current instanceof OFPort) {
            next = OFPort.of((int) value);
        } else if (current instanceof MacAddress) {
            next = MacAddress.of(value & 0xffff_ffff_ffffL);
        } else if (current instanceof IPv4Address) {
            next = IPv4Address.of((int) value);
        } else {
            throw new IllegalArgumentException("a template varies ports, MAC and IPv4 addresses; "
                    + field.getName() + " holds " + current.getClass().getSimpleName());
        }
        Match.Builder changed = factory.buildMatch();
        for (MatchField<?> each : match.getMatchFields()) {
            copy(changed, match, each, each == field ? next : null);
        }
        return changed.build();
    }

    /** Sets {@code field} as {@code match} has it, or exact to {@code value} where one is given. */
    @SuppressWarnings("unchecked")   // a field's value is of the field's type: value is made for it above
    private static <F extends OFValueType<F>> void copy(Match.Builder builder, Match match, MatchField<F> field,
            OFValueType<?> value) {
        if (value != null) {
            builder.setExact(field, (F) value);
        } else if (match.isExact(field)) {
            builder.setExact(field, match.get(field));
        } else {
            builder.setMasked(field, match.getMasked(field));
        }
    }

    private static int outputs(OFFlowAdd flow) {
        int outputs = 0;
        for (List<OFAction> actions : actionLists(flow)) {
            for (OFAction action : actions) {
                outputs += action instanceof OFActionOutput ? 1 : 0;
            }
        }
        return outputs;
    }

    /** The flow's action lists: its actions on 1.0, its apply- and write-actions instructions' on 1.1+. */
    private static List<List<OFAction>> actionLists(OFFlowAdd flow) {
        if (flow.getVersion() == OFVersion.OF_10) {
            return List.of(flow.getActions());
        }
        List<List<OFAction>> lists = new ArrayList<>();
        for (OFInstruction instruction : flow.getInstructions()) {
            if (instruction instanceof OFInstructionApplyActions apply) {
                lists.add(apply.getActions());
            } else if (instruction instanceof OFInstructionWriteActions write) {
                lists.add(write.getActions());
            }
        }
        return lists;
    }

    private static OFFlowAdd withOutPort(OFFactory factory, OFFlowAdd flow, OFPort port) {
        if (flow.getVersion() == OFVersion.OF_10) {
            return flow.createBuilder().setActions(withOutPort(factory, flow.getActions(), port)).build();
        }
        List<OFInstruction> instructions = new ArrayList<>();
        for (OFInstruction instruction : flow.getInstructions()) {
            if (instruction instanceof OFInstructionApplyActions apply) {
                instruction = factory.instructions().applyActions(withOutPort(factory, apply.getActions(), port));
            } else if (instruction instanceof OFInstructionWriteActions write) {
                instruction = factory.instructions().writeActions(withOutPort(factory, write.getActions(), port));
            }
            instructions.add(instruction);
        }
        return flow.createBuilder().setInstructions(instructions).build();
    }

    private static List<OFAction> withOutPort(OFFactory factory, List<OFAction> actions, OFPort port) {
        List<OFAction> changed = new ArrayList<>(actions.size());
        for (OFAction action : actions) {
            changed.add(action instanceof OFActionOutput output ? factory.actions().output(port, output.getMaxLen())
                    : action);
        }
        return changed;
    }

    private static byte[] encode(OFFlowAdd flow) {
        var out = Unpooled.buffer();
        flow.writeTo(out);
        return ByteBufUtil.getBytes(out);
    }
}
