package io.heliograph.core;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.projectfloodlight.openflow.exceptions.OFParseError;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.protocol.ver12.ChannelUtilsVer12;
import org.projectfloodlight.openflow.protocol.ver13.ChannelUtilsVer13;
import org.projectfloodlight.openflow.protocol.ver14.ChannelUtilsVer14;
import org.projectfloodlight.openflow.protocol.ver15.ChannelUtilsVer15;
import org.projectfloodlight.openflow.types.Masked;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.OFValueType;

import com.google.common.hash.PrimitiveSink;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * An OXM match (OpenFlow 1.2 and later) kept in its wire form, for the flows a reactive app
 * installs at line rate. Loxi's own match keeps its fields in a map with a slot for every match
 * field: building one allocates that map and writing it walks every slot, which took nearly a fifth
 * of the learning switch's I/O thread on OpenFlow 1.3. This one is the bytes of the
 * {@code ofp_match}, written with one copy.
 *
 * <p>Everything else a {@link Match} answers (its fields and masks, its text, a builder) comes from
 * the same match decoded by Loxi when first asked. It equals that Loxi match, but Loxi's matches only
 * ever equal their own class: compare with this one on the left.
 */
public final class OxmMatch implements Match {

    private static final int TYPE_OXM = 1;
    private static final int HEADER_BYTES = 4;
    /**
     * OXM headers: the class OPENFLOW_BASIC (0x8000), then the field number shifted left by one (the low
     * bit, no mask, is 0), then the value's length in bytes.
     */
    private static final int OXM_IN_PORT = 0x8000_0004;
    private static final int OXM_ETH_DST = 0x8000_0606;
    private static final int OXM_ETH_SRC = 0x8000_0806;

    private final OFVersion version;
    private final byte[] wire;
    /** The same match decoded by Loxi; racy but safe: every thread decodes an equal, immutable match. */
    private Match decoded;

    private OxmMatch(OFVersion version, byte[] wire) {
        this.version = version;
        this.wire = wire;
    }

    /**
     * in_port, eth_src and eth_dst exact, everything else wildcarded: an Ethernet learning switch's
     * flow. The fields are written in the order Loxi writes them, so the bytes are the same as its.
     *
     * @throws IllegalArgumentException for OpenFlow 1.0 and 1.1, whose matches are not OXM
     */
    public static OxmMatch ofEthernetPair(OFVersion version, OFPort inPort, long ethSrc, long ethDst) {
        if (version.compareTo(OFVersion.OF_12) < 0) {
            throw new IllegalArgumentException("OpenFlow " + version + " has no OXM match");
        }
        ByteBuffer b = ByteBuffer.allocate(32); // 4 + 8 + 10 + 10: a multiple of 8, so no padding
        b.putShort((short) TYPE_OXM).putShort((short) b.capacity());
        b.putInt(OXM_IN_PORT).putInt(inPort.getPortNumber());
        b.putInt(OXM_ETH_DST).putShort((short) (ethDst >>> 32)).putInt((int) ethDst);
        b.putInt(OXM_ETH_SRC).putShort((short) (ethSrc >>> 32)).putInt((int) ethSrc);
        return new OxmMatch(version, b.array());
    }

    @Override
    public void writeTo(ByteBuf out) {
        out.writeBytes(wire);
    }

    @Override
    public OFVersion getVersion() {
        return version;
    }

    /** The same match as Loxi reads it from the wire. */
    private Match decoded() {
        Match match = decoded;
        if (match == null) {
            match = decode(version, Unpooled.wrappedBuffer(wire));
            decoded = match;
        }
        return match;
    }

    private static Match decode(OFVersion version, ByteBuf wire) {
        try {
            return switch (version) {
                case OF_12 -> ChannelUtilsVer12.readOFMatch(wire);
                case OF_13 -> ChannelUtilsVer13.readOFMatch(wire);
                case OF_14 -> ChannelUtilsVer14.readOFMatch(wire);
                case OF_15 -> ChannelUtilsVer15.readOFMatch(wire);
                default -> throw new IllegalStateException("OpenFlow " + version + " has no OXM match");
            };
        } catch (OFParseError e) {
            throw new IllegalStateException("an OXM match this class wrote does not parse: " + e.getMessage(), e);
        }
    }

    @Override
    public <F extends OFValueType<F>> F get(MatchField<F> field) {
        return decoded().get(field);
    }

    @Override
    public <F extends OFValueType<F>> Masked<F> getMasked(MatchField<F> field) {
        return decoded().getMasked(field);
    }

    @Override
    public boolean supports(MatchField<?> field) {
        return decoded().supports(field);
    }

    @Override
    public boolean supportsMasked(MatchField<?> field) {
        return decoded().supportsMasked(field);
    }

    @Override
    public boolean isExact(MatchField<?> field) {
        return decoded().isExact(field);
    }

    @Override
    public boolean isFullyWildcarded(MatchField<?> field) {
        return decoded().isFullyWildcarded(field);
    }

    @Override
    public boolean isPartiallyMasked(MatchField<?> field) {
        return decoded().isPartiallyMasked(field);
    }

    @Override
    public Iterable<MatchField<?>> getMatchFields() {
        return decoded().getMatchFields();
    }

    @Override
    public Builder createBuilder() {
        return decoded().createBuilder();
    }

    @Override
    public void putTo(PrimitiveSink sink) {
        decoded().putTo(sink);
    }

    /** Equal to a match of the same version and fields, whether another of these or Loxi's own. */
    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (other instanceof OxmMatch match) {
            return version == match.version && (Arrays.equals(wire, match.wire) || decoded().equals(match.decoded()));
        }
        return other instanceof Match match && decoded().equals(match);
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
