package io.heliograph.core;

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
 * A flow-add kept as its wire bytes (made by a {@link FlowAddTemplate}): writing it is one copy.
 * Everything else an {@link OFFlowAdd} answers (its match, actions, text, a builder) comes from the
 * same message decoded by Loxi when first asked. It equals that Loxi message, but Loxi's messages
 * only ever equal their own class: compare with this one on the left.
 */
final class EncodedFlowAdd implements OFFlowAdd {

    private final OFVersion version;
    private final byte[] wire;
    /** The same message decoded by Loxi; racy but safe: every thread decodes an equal, immutable message. */
    private OFFlowAdd decoded;

    EncodedFlowAdd(OFVersion version, byte[] wire) {
        this.version = version;
        this.wire = wire;
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
                throw new IllegalStateException("a flow-add a template wrote does not parse: " + e.getMessage(), e);
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
        return decoded().equalsIgnoreXid(other instanceof EncodedFlowAdd flow ? flow.decoded() : other);
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
        if (other instanceof EncodedFlowAdd flow) {
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
