package io.heliograph.openflow;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.projectfloodlight.openflow.exceptions.OFParseError;
import org.projectfloodlight.openflow.protocol.OFAggregateStatsReply;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowRemoved;
import org.projectfloodlight.openflow.protocol.OFFlowStatsEntry;
import org.projectfloodlight.openflow.protocol.OFFlowStatsReply;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFMessageReader;
import org.projectfloodlight.openflow.protocol.OFOxsList;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.oxs.OFOxs;
import org.projectfloodlight.openflow.protocol.oxs.OFOxss;
import org.projectfloodlight.openflow.protocol.stat.Stat;
import org.projectfloodlight.openflow.protocol.stat.StatField;
import org.projectfloodlight.openflow.types.U32;
import org.projectfloodlight.openflow.types.U64;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Reads the OpenFlow 1.5 messages whose counters are OXS fields (a {@code struct ofp_stats},
 * spec 1.5.1 section 7.2.4): the flow statistics reply (multipart type 1, OFPMP_FLOW_DESC, which
 * Open vSwitch and Loxi call flow statistics), the aggregate reply (type 2), and FLOW_REMOVED.
 *
 * <p>Why: OpenFlowJ-Loxi 3.6.605 numbers the OXS fields after idle_time one lower than the spec
 * (flow_count 2, packet_count 3, byte_count 4, where the spec and Open vSwitch say 3, 4, 5), so it
 * fails on a byte count ("Unknown value for discriminator typeLen of class OFOxsVer15:
 * -2147350008") and would take a packet count for a byte count. Here the OXS fields are read by the
 * spec's numbers, the message is handed to Loxi with empty statistics in their place (so that Loxi
 * still reads the header, match and instructions), and the counters are set back through Loxi's
 * builders as its own {@link StatField}s: {@code getStats().get(StatField.PACKET_COUNT)} answers
 * the packet count. (Encoding such a message again with Loxi would use Loxi's numbering; nothing in
 * the controller re-encodes what a switch sent.) Fields a {@link StatField} cannot say (an
 * experimenter's, or a number the spec does not define) are skipped.
 */
final class OxsStatsReader {

    private static final int TYPE_FLOW_REMOVED = 11;
    private static final int TYPE_MULTIPART_REPLY = 19;
    private static final int MULTIPART_FLOW = 1;
    private static final int MULTIPART_AGGREGATE = 2;
    /** Where the body of a multipart reply starts: header, type, flags, 4 bytes of padding. */
    private static final int MULTIPART_BODY = 16;
    /** Where the match starts in a flow statistics entry and in FLOW_REMOVED. */
    private static final int ENTRY_MATCH = 24;
    private static final int FLOW_REMOVED_MATCH = 24;
    /** An ofp_stats with no field: reserved, length 4, padded to 8. */
    private static final int EMPTY_STATS = 8;

    private static final int OXS_CLASS_OPENFLOW_BASIC = 0x8002;
    private static final int OXS_DURATION = 0;
    private static final int OXS_IDLE_TIME = 1;
    private static final int OXS_FLOW_COUNT = 3;
    private static final int OXS_PACKET_COUNT = 4;
    private static final int OXS_BYTE_COUNT = 5;

    private static final OFFactory FACTORY = OFFactories.getFactory(OFVersion.OF_15);
    private static final OFMessageReader<OFMessage> LOXI = FACTORY.getReader();

    private OxsStatsReader() {
    }

    /** Whether {@code frame} (one whole message, from its reader index) is one this reader reads. */
    static boolean reads(ByteBuf frame) {
        int start = frame.readerIndex();
        if (frame.getUnsignedByte(start) != OFVersion.OF_15.getWireVersion()) {
            return false;
        }
        int type = frame.getUnsignedByte(start + 1);
        if (type == TYPE_FLOW_REMOVED) {
            return true;
        }
        if (type != TYPE_MULTIPART_REPLY || frame.readableBytes() < MULTIPART_BODY) {
            return false;
        }
        int multipartType = frame.getUnsignedShort(start + 8);
        return multipartType == MULTIPART_FLOW || multipartType == MULTIPART_AGGREGATE;
    }

    /**
     * Reads a message {@link #reads} accepts.
     *
     * @throws OFParseError naming what does not fit: a length beyond its container, a statistics
     *                      field of the wrong size or given twice, or what Loxi finds wrong with the rest
     */
    static OFMessage read(ByteBuf frame) throws OFParseError {
        Rewrite rewrite = new Rewrite(frame);
        int type = frame.getUnsignedByte(frame.readerIndex() + 1);
        if (type == TYPE_FLOW_REMOVED) {
            rewrite.copyUpToStatsAfterMatch(FLOW_REMOVED_MATCH, rewrite.end, "FLOW_REMOVED");
            rewrite.copyRest(rewrite.end);
            OFFlowRemoved removed = (OFFlowRemoved) rewrite.readWithLoxi();
            return removed.createBuilder().setStats(rewrite.stats.get(0)).build();
        }
        if (frame.getUnsignedShort(frame.readerIndex() + 8) == MULTIPART_AGGREGATE) {
            rewrite.copyUpToStats(MULTIPART_BODY, "aggregate statistics reply");
            rewrite.copyRest(rewrite.end);
            OFAggregateStatsReply reply = (OFAggregateStatsReply) rewrite.readWithLoxi();
            return reply.createBuilder().setStats(rewrite.stats.get(0)).build();
        }
        rewrite.copyRest(MULTIPART_BODY);
        int at = MULTIPART_BODY;
        int number = 0;
        while (at < rewrite.end) {
            number++;
            if (rewrite.end - at < ENTRY_MATCH + 4) {
                throw new OFParseError("flow statistics entry " + number + " at byte " + at + ": " + (rewrite.end - at)
                        + " bytes left, less than its fixed part");
            }
            int length = rewrite.in.getUnsignedShort(rewrite.start + at);
            if (length < ENTRY_MATCH + 4 || at + length > rewrite.end) {
                throw new OFParseError("flow statistics entry " + number + " at byte " + at + " says it is " + length
                        + " bytes long; " + (rewrite.end - at) + " bytes are left in the message");
            }
            int lengthAt = rewrite.out.writerIndex();
            rewrite.copyUpToStatsAfterMatch(at + ENTRY_MATCH, at + length, "flow statistics entry " + number);
            rewrite.copyRest(at + length);
            rewrite.out.setShort(lengthAt, rewrite.out.writerIndex() - lengthAt);
            at += length;
        }
        OFFlowStatsReply reply = (OFFlowStatsReply) rewrite.readWithLoxi();
        List<OFFlowStatsEntry> entries = new ArrayList<>(reply.getEntries().size());
        for (int i = 0; i < reply.getEntries().size(); i++) {
            entries.add(reply.getEntries().get(i).createBuilder().setStats(rewrite.stats.get(i)).build());
        }
        return reply.createBuilder().setEntries(entries).build();
    }

    /**
     * The message copied with every ofp_stats replaced by an empty one, and the statistics read
     * from them in order. Offsets are from the message's start.
     */
    private static final class Rewrite {
        final ByteBuf in;
        final int start;
        final int end;
        final ByteBuf out;
        final List<Stat> stats = new ArrayList<>();
        /** How far {@code in} has been copied. */
        private int copied;

        Rewrite(ByteBuf frame) {
            in = frame;
            start = frame.readerIndex();
            end = frame.readableBytes();
            out = Unpooled.buffer(end);
        }

        /** Copies up to the match at {@code matchAt}, the match, and reads the statistics after it. */
        void copyUpToStatsAfterMatch(int matchAt, int limit, String what) throws OFParseError {
            if (limit - matchAt < 4) {
                throw new OFParseError(what + ": no room for its match");
            }
            int matchLength = in.getUnsignedShort(start + matchAt + 2);
            int statsAt = matchAt + padded(matchLength);
            if (matchLength < 4 || statsAt > limit) {
                throw new OFParseError(what + ": its match says it is " + matchLength + " bytes long; "
                        + (limit - matchAt) + " bytes are left for the match and the statistics");
            }
            copyUpToStats(statsAt, what, limit);
        }

        void copyUpToStats(int statsAt, String what) throws OFParseError {
            copyUpToStats(statsAt, what, end);
        }

        /** Copies up to {@code statsAt}, writes an empty ofp_stats, and reads the one there. */
        private void copyUpToStats(int statsAt, String what, int limit) throws OFParseError {
            copyRest(statsAt);
            if (limit - statsAt < 4) {
                throw new OFParseError(what + ": no room for its statistics");
            }
            int length = in.getUnsignedShort(start + statsAt + 2);
            if (length < 4 || statsAt + padded(length) > limit) {
                throw new OFParseError(what + ": its statistics say they are " + length + " bytes long (padded to "
                        + padded(length) + "); " + (limit - statsAt) + " bytes are left for them");
            }
            stats.add(oxsFields(statsAt + 4, statsAt + length, what));
            out.writeShort(0).writeShort(4).writeInt(0);
            copied = statsAt + padded(length);
        }

        /** Copies what is left up to {@code upTo}. */
        void copyRest(int upTo) {
            out.writeBytes(in, start + copied, upTo - copied);
            copied = upTo;
        }

        OFMessage readWithLoxi() throws OFParseError {
            out.setShort(2, out.writerIndex());
            OFMessage message = LOXI.readFrom(out);
            if (message == null) {
                throw new OFParseError("shorter than its fixed part");
            }
            return message;
        }

        /** The OXS fields from {@code from} to {@code to} as Loxi's statistics. */
        private Stat oxsFields(int from, int to, String what) throws OFParseError {
            OFOxss oxss = FACTORY.oxss();
            List<OFOxs<?>> fields = new ArrayList<>();
            Set<StatFieldName> seen = EnumSet.noneOf(StatFieldName.class);
            int at = from;
            while (at < to) {
                if (to - at < 4) {
                    throw new OFParseError(what + ": " + (to - at) + " bytes left in its statistics, less than an OXS"
                            + " field's header");
                }
                long header = in.getUnsignedInt(start + at);
                int oxsClass = (int) (header >>> 16);
                int field = (int) (header >>> 9) & 0x7f;
                boolean masked = (header & 0x100) != 0;
                int length = (int) (header & 0xff);
                if (at + 4 + length > to) {
                    throw new OFParseError(what + ": OXS field " + Long.toHexString(header) + " says it has " + length
                            + " bytes; " + (to - at - 4) + " are left in its statistics");
                }
                StatFieldName name = oxsClass == OXS_CLASS_OPENFLOW_BASIC ? StatFieldName.of(field) : null;
                if (name != null) {
                    if (masked || length != name.length) {
                        throw new OFParseError(what + ": OXS field " + name.label + " has " + length + " bytes"
                                + (masked ? " and a mask" : "") + "; the spec gives it " + name.length + " and no mask");
                    }
                    if (!seen.add(name)) {
                        throw new OFParseError(what + ": OXS field " + name.label + " appears twice");
                    }
                    long value = length == 8 ? in.getLong(start + at + 4) : in.getUnsignedInt(start + at + 4);
                    fields.add(switch (name) {
                        case DURATION -> oxss.duration(U64.of(value));
                        case IDLE_TIME -> oxss.idleTime(U64.of(value));
                        case FLOW_COUNT -> oxss.flowCount(U32.of(value));
                        case PACKET_COUNT -> oxss.packetCount(U64.of(value));
                        case BYTE_COUNT -> oxss.byteCount(U64.of(value));
                    });
                }
                at += 4 + length;
            }
            return FACTORY.buildStatV6().setOxsFields(OFOxsList.ofList(fields)).build();
        }
    }

    /** The OXS fields of OXS_CLASS_OPENFLOW_BASIC, by the spec's numbers and sizes. */
    private enum StatFieldName {
        DURATION(OXS_DURATION, 8, "duration"),
        IDLE_TIME(OXS_IDLE_TIME, 8, "idle_time"),
        FLOW_COUNT(OXS_FLOW_COUNT, 4, "flow_count"),
        PACKET_COUNT(OXS_PACKET_COUNT, 8, "packet_count"),
        BYTE_COUNT(OXS_BYTE_COUNT, 8, "byte_count");

        final int number;
        final int length;
        final String label;

        StatFieldName(int number, int length, String label) {
            this.number = number;
            this.length = length;
            this.label = label;
        }

        static StatFieldName of(int number) {
            for (StatFieldName f : values()) {
                if (f.number == number) {
                    return f;
                }
            }
            return null;
        }
    }

    private static int padded(int length) {
        return (length + 7) / 8 * 8;
    }
}
