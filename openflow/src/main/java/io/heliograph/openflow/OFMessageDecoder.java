package io.heliograph.openflow;

import java.util.regex.Pattern;

import org.projectfloodlight.openflow.exceptions.OFParseError;
import org.projectfloodlight.openflow.protocol.OFBadPropertyCode;
import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFMessageReader;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.ver10.OFTypeSerializerVer10;
import org.projectfloodlight.openflow.protocol.ver11.OFTypeSerializerVer11;
import org.projectfloodlight.openflow.protocol.ver12.OFTypeSerializerVer12;
import org.projectfloodlight.openflow.protocol.ver13.OFTypeSerializerVer13;
import org.projectfloodlight.openflow.protocol.ver14.OFTypeSerializerVer14;
import org.projectfloodlight.openflow.protocol.ver15.OFTypeSerializerVer15;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

/**
 * Turns one framed message (a buffer holding exactly it) into a Loxi {@link OFMessage}, a {@link HelloMessage}, or, when Loxi
 * cannot read it, an {@link UndecodableMessage} that says why and which error answers it. Never
 * throws: bad input is data for the switch handler, not an exception for Netty.
 */
final class OFMessageDecoder {

    /** How much of an offending message an error carries (the spec asks for at least 64 bytes). */
    static final int ERROR_DATA_BYTES = 64;

    private static final OFMessageReader<OFMessage> READER = OFFactories.getGenericReader();

    private OFMessageDecoder() {
    }

    static Object decode(ByteBuf frame) {
        int start = frame.readerIndex();
        int wireVersion = frame.getUnsignedByte(start);
        int wireType = frame.getUnsignedByte(start + 1);
        if (wireType == HelloMessage.TYPE) {
            return HelloMessage.read(frame);
        }
        OFVersion version = OpenFlowVersions.ofWire(wireVersion);
        if (version == null) {
            return undecodable(frame, ErrorAnswer.badRequest(OFBadRequestCode.BAD_VERSION), "unknown OpenFlow version 0x"
                    + Integer.toHexString(wireVersion));
        }
        OFType type;
        try {
            type = typeOf(version, (byte) wireType);
        } catch (IllegalArgumentException e) {
            return undecodable(frame, ErrorAnswer.badRequest(OFBadRequestCode.BAD_TYPE), "unknown message type " + wireType
                    + " for OpenFlow " + OpenFlowVersions.name(version));
        }
        try {
            // Loxi cannot read 1.5's OXS statistics (see OxsStatsReader): those messages are read our way
            OFMessage message = OxsStatsReader.reads(frame) ? OxsStatsReader.read(frame) : READER.readFrom(frame);
            if (message == null) {
                frame.readerIndex(start);
                return undecodable(frame, ErrorAnswer.badRequest(OFBadRequestCode.BAD_LEN), type + " shorter than its fixed part");
            }
            return message;
        } catch (OFParseError | RuntimeException e) {
            frame.readerIndex(start); // Loxi may have read part of the body before it gave up
            return undecodable(frame, answerFor(version, type, e), "malformed " + type + ": " + e.getMessage());
        }
    }

    /** Loxi's parse errors name the class whose discriminator it did not know, e.g. "of class OFPortDescPropVer14". */
    private static final Pattern PROPERTY_CLASS = Pattern.compile("of class OF\\w*Prop\\w*Ver1[45]");

    /**
     * Which error answers a body Loxi could not read. Loxi names the field whose value it did not
     * know ("Unknown value for discriminator experimenter/subtype/statsType/type of class ...");
     * anything else is a body that does not fit its declared length.
     */
    static ErrorAnswer answerFor(OFVersion version, OFType type, Exception e) {
        String reason = String.valueOf(e.getMessage());
        boolean unknownExperimenter = reason.contains("discriminator experimenter");
        boolean unknownValue = reason.contains("discriminator");
        if (version.compareTo(OFVersion.OF_14) >= 0 && PROPERTY_CLASS.matcher(reason).find()) {
            // An unknown property inside a known message (1.4+ has an error type for exactly that).
            if (unknownExperimenter) {
                return ErrorAnswer.badProperty(OFBadPropertyCode.BAD_EXPERIMENTER);
            }
            if (unknownValue && (reason.contains("exp_type") || reason.contains("subtype"))) {
                return ErrorAnswer.badProperty(OFBadPropertyCode.BAD_EXP_TYPE);
            }
            return ErrorAnswer.badProperty(unknownValue ? OFBadPropertyCode.BAD_TYPE : OFBadPropertyCode.BAD_LEN);
        }
        if (type == OFType.EXPERIMENTER && unknownValue) {
            if (unknownExperimenter) {
                return ErrorAnswer.badRequest(OFBadRequestCode.BAD_EXPERIMENTER); // 1.0: OFPBRC_BAD_VENDOR, same number
            }
            // A known experimenter with an unknown subtype: 1.0 calls it BAD_SUBTYPE, 1.2+ BAD_EXP_TYPE.
            return ErrorAnswer.badRequest(version == OFVersion.OF_10 ? OFBadRequestCode.BAD_SUBTYPE
                    : OFBadRequestCode.BAD_EXPERIMENTER_TYPE);
        }
        if ((type == OFType.STATS_REQUEST || type == OFType.STATS_REPLY) && reason.contains("discriminator statsType")) {
            return ErrorAnswer.badRequest(OFBadRequestCode.BAD_STAT); // 1.3+: OFPBRC_BAD_MULTIPART, same number
        }
        return ErrorAnswer.badRequest(OFBadRequestCode.BAD_LEN);
    }

    private static OFType typeOf(OFVersion version, byte wireType) {
        return switch (version) {
            case OF_10 -> OFTypeSerializerVer10.ofWireValue(wireType);
            case OF_11 -> OFTypeSerializerVer11.ofWireValue(wireType);
            case OF_12 -> OFTypeSerializerVer12.ofWireValue(wireType);
            case OF_13 -> OFTypeSerializerVer13.ofWireValue(wireType);
            case OF_14 -> OFTypeSerializerVer14.ofWireValue(wireType);
            case OF_15 -> OFTypeSerializerVer15.ofWireValue(wireType);
        };
    }

    private static UndecodableMessage undecodable(ByteBuf frame, ErrorAnswer answer, String reason) {
        int start = frame.readerIndex();
        byte[] head = ByteBufUtil.getBytes(frame, start, Math.min(ERROR_DATA_BYTES, frame.readableBytes()));
        return new UndecodableMessage(frame.getUnsignedByte(start), frame.getUnsignedByte(start + 1),
                frame.getUnsignedInt(start + 4), head, answer, reason);
    }
}
