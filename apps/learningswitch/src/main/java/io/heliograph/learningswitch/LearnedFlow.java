package io.heliograph.learningswitch;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import org.projectfloodlight.openflow.exceptions.OFParseError;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowModCommand;
import org.projectfloodlight.openflow.protocol.OFFlowModFlags;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.instruction.OFInstruction;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

import com.google.common.hash.PrimitiveSink;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * The flow the learning switch installs, kept as its wire bytes: a FLOW_MOD that adds in_port,
 * eth_src and eth_dst exact (everything else wildcarded) → output to one port, in table 0 with no
 * flags. It is built once per packet-in at line rate, and Loxi's flow-mod costs there: a builder,
 * the match (on 1.2+ a map with a slot for every match field), an instruction and an action, each an
 * object, then a write that walks them all. These are the same bytes Loxi writes, put down with one
 * copy: x1.32 on the learning switch's throughput on OpenFlow 1.0 and x1.14 on 1.3, in an A/B
 * (docs/performance.md).
 *
 * <p>Everything else an {@link OFFlowAdd} answers (its match, actions, text, a builder) comes from
 * the same message decoded by Loxi when first asked. It equals that Loxi message, but Loxi's messages
 * only ever equal their own class: compare with this one on the left.
 */
final class LearnedFlow implements OFFlowAdd {

    private static final int FLOW_MOD = 14;
    private static final int OF10_BYTES = 80;      // header 8, ofp_match 40, body 24, output action 8
    private static final int OXM_BYTES = 104;      // header 8, body 40, OXM match 32, apply-actions 8 + output 16
    /** OpenFlow 1.0 wildcards: all but in_port (bit 0), dl_src (bit 2) and dl_dst (bit 3). */
    private static final int OF10_WILDCARDS = 0x003f_ffff & ~0b1101;
    private static final short OF10_PORT_NONE = (short) 0xffff;
    private static final int ANY = 0xffff_ffff;    // out_port and out_group: no restriction
    private static final int OXM_IN_PORT = 0x8000_0004;
    private static final int OXM_ETH_DST = 0x8000_0606;
    private static final int OXM_ETH_SRC = 0x8000_0806;
    private static final short APPLY_ACTIONS = 4;
    private static final short OUTPUT = 0;

    private final OFVersion version;
    private final byte[] wire;
    /** The same message decoded by Loxi; racy but safe: every thread decodes an equal, immutable message. */
    private OFFlowAdd decoded;

    private LearnedFlow(OFVersion version, byte[] wire) {
        this.version = version;
        this.wire = wire;
    }

    /**
     * The flow for a packet from {@code ethSrc} on {@code inPort} to {@code ethDst}, learned on
     * {@code outPort}, applied to the switch's buffered packet {@code bufferId} (or none). Fields are
     * written in the order and form Loxi writes them, so the bytes are the same as its.
     *
     * @throws IllegalArgumentException for OpenFlow 1.1, whose match is neither 1.0's nor OXM
     */
    static LearnedFlow of(OFVersion version, long xid, U64 cookie, int idleTimeout, int hardTimeout, int priority,
            OFBufferId bufferId, OFPort inPort, long ethSrc, long ethDst, OFPort outPort) {
        if (version == OFVersion.OF_11) {
            throw new IllegalArgumentException("OpenFlow " + version + " is not written by the learning switch");
        }
        boolean of10 = version == OFVersion.OF_10;
        ByteBuffer b = ByteBuffer.allocate(of10 ? OF10_BYTES : OXM_BYTES);
        b.put((byte) version.getWireVersion()).put((byte) FLOW_MOD).putShort((short) b.capacity()).putInt((int) xid);
        if (of10) {
            b.putInt(OF10_WILDCARDS).putShort(inPort.getShortPortNumber());
            putMac(putMac(b, ethSrc), ethDst);
            b.position(b.position() + 22);                 // the wildcarded fields, zero
            b.putLong(cookie.getValue()).putShort((short) 0);   // ADD
            b.putShort((short) idleTimeout).putShort((short) hardTimeout).putShort((short) priority);
            b.putInt(bufferId.getInt()).putShort(OF10_PORT_NONE).putShort((short) 0);   // flags
            b.putShort(OUTPUT).putShort((short) 8).putShort(outPort.getShortPortNumber()).putShort((short) 0);
        } else {
            b.putLong(cookie.getValue()).putLong(0);       // cookie mask
            b.put((byte) 0).put((byte) 0);                 // table 0, ADD
            b.putShort((short) idleTimeout).putShort((short) hardTimeout).putShort((short) priority);
            b.putInt(bufferId.getInt()).putInt(ANY).putInt(ANY).putInt(0);   // flags, pad (1.4+: importance)
            b.putShort((short) 1).putShort((short) 32);    // OXM match of 32 bytes: a multiple of 8, no padding
            b.putInt(OXM_IN_PORT).putInt(inPort.getPortNumber());
            putMac(b.putInt(OXM_ETH_DST), ethDst);
            putMac(b.putInt(OXM_ETH_SRC), ethSrc);
            b.putShort(APPLY_ACTIONS).putShort((short) 24).putInt(0);
            b.putShort(OUTPUT).putShort((short) 16).putInt(outPort.getPortNumber()).putShort((short) 0);   // max_len
            b.position(b.position() + 6);
        }
        return new LearnedFlow(version, b.array());
    }

    private static ByteBuffer putMac(ByteBuffer b, long mac) {
        return b.putShort((short) (mac >>> 32)).putInt((int) mac);
    }

    @Override
    public void writeTo(ByteBuf out) {
        out.writeBytes(wire);
    }

    @Override
    public OFVersion getVersion() {
        return version;
    }

    @Override
    public OFType getType() {
        return OFType.FLOW_MOD;
    }

    @Override
    public long getXid() {
        return ByteBuffer.wrap(wire).getInt(4) & 0xffff_ffffL;
    }

    /** The same message as Loxi reads it from the wire. */
    private OFFlowAdd decoded() {
        OFFlowAdd message = decoded;
        if (message == null) {
            try {
                message = (OFFlowAdd) OFFactories.getGenericReader().readFrom(Unpooled.wrappedBuffer(wire));
            } catch (OFParseError e) {
                throw new IllegalStateException("a flow-mod this class wrote does not parse: " + e.getMessage(), e);
            }
            decoded = message;
        }
        return message;
    }

    @Override
    public Match getMatch() {
        return decoded().getMatch();
    }

    @Override
    public U64 getCookie() {
        return decoded().getCookie();
    }

    @Override
    public OFFlowModCommand getCommand() {
        return OFFlowModCommand.ADD;
    }

    @Override
    public int getIdleTimeout() {
        return decoded().getIdleTimeout();
    }

    @Override
    public int getHardTimeout() {
        return decoded().getHardTimeout();
    }

    @Override
    public int getPriority() {
        return decoded().getPriority();
    }

    @Override
    public OFBufferId getBufferId() {
        return decoded().getBufferId();
    }

    @Override
    public OFPort getOutPort() {
        return decoded().getOutPort();
    }

    @Override
    public Set<OFFlowModFlags> getFlags() {
        return decoded().getFlags();
    }

    @Override
    public List<OFAction> getActions() {
        return decoded().getActions();
    }

    @Override
    public U64 getCookieMask() {
        return decoded().getCookieMask();
    }

    @Override
    public TableId getTableId() {
        return decoded().getTableId();
    }

    @Override
    public OFGroup getOutGroup() {
        return decoded().getOutGroup();
    }

    @Override
    public List<OFInstruction> getInstructions() {
        return decoded().getInstructions();
    }

    @Override
    public int getImportance() {
        return decoded().getImportance();
    }

    @Override
    public OFFlowAdd.Builder createBuilder() {
        return decoded().createBuilder();
    }

    @Override
    public void putTo(PrimitiveSink sink) {
        decoded().putTo(sink);
    }

    @Override
    public boolean equalsIgnoreXid(Object other) {
        return decoded().equalsIgnoreXid(other instanceof LearnedFlow flow ? flow.decoded() : other);
    }

    @Override
    public int hashCodeIgnoreXid() {
        return decoded().hashCodeIgnoreXid();
    }

    /** Equal to a flow-add of the same version and fields, whether another of these or Loxi's own. */
    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (other instanceof LearnedFlow flow) {
            return Arrays.equals(wire, flow.wire);
        }
        return decoded().equals(other);
    }

    @Override
    public int hashCode() {
        return decoded().hashCode();
    }

    @Override
    public String toString() {
        return decoded().toString();
    }
}
