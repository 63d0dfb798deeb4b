package io.heliograph.openflow;

import org.projectfloodlight.openflow.protocol.OFBadPropertyCode;
import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFErrorCauseData;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * The OpenFlow error that answers an undecodable message: BAD_REQUEST for the message itself, or,
 * from OpenFlow 1.4 on, BAD_PROPERTY for a property inside it. Built in the connection's version,
 * whatever the offending message's: where that version has no such error (BAD_PROPERTY before 1.4,
 * a code it does not know) the nearest BAD_REQUEST code it has answers instead.
 */
record ErrorAnswer(OFBadRequestCode request, OFBadPropertyCode property) {

    static ErrorAnswer badRequest(OFBadRequestCode code) {
        return new ErrorAnswer(code, null);
    }

    static ErrorAnswer badProperty(OFBadPropertyCode code) {
        return new ErrorAnswer(null, code);
    }

    /** The error in {@code f}'s version, carrying the offending message's first bytes as its data. Never throws. */
    OFErrorMsg build(OFFactory f, long xid, byte[] offending) {
        OFErrorCauseData data = OFErrorCauseData.of(offending, f.getVersion());
        if (property != null && f.getVersion().compareTo(OFVersion.OF_14) >= 0) {
            return f.errorMsgs().buildBadPropertyErrorMsg().setXid(xid).setCode(property).setData(data).build();
        }
        try {
            OFErrorMsg error = badRequest(f, xid, requestCode(f.getVersion()), data);
            // Loxi checks a code against the version when it writes it: try, as the channel would.
            if (encodable(error)) {
                return error;
            }
        } catch (RuntimeException e) {
            // a code this version does not have: answered below with one every version has
        }
        return badRequest(f, xid, OFBadRequestCode.BAD_LEN, data);
    }

    /** The BAD_REQUEST code that says this in {@code version}. */
    private OFBadRequestCode requestCode(OFVersion version) {
        OFBadRequestCode code = request;
        if (property != null) {
            code = switch (property) {
                case BAD_EXPERIMENTER -> OFBadRequestCode.BAD_EXPERIMENTER;
                case BAD_EXP_TYPE -> OFBadRequestCode.BAD_EXPERIMENTER_TYPE;
                default -> OFBadRequestCode.BAD_LEN; // a property's type, length or value: its message is malformed
            };
        }
        // An experimenter's unknown subtype: OFPBRC_BAD_SUBTYPE in 1.0, OFPBRC_BAD_EXP_TYPE from 1.1 on.
        if (version == OFVersion.OF_10 && code == OFBadRequestCode.BAD_EXPERIMENTER_TYPE) {
            return OFBadRequestCode.BAD_SUBTYPE;
        }
        if (version != OFVersion.OF_10 && code == OFBadRequestCode.BAD_SUBTYPE) {
            return OFBadRequestCode.BAD_EXPERIMENTER_TYPE;
        }
        return code;
    }

    private static OFErrorMsg badRequest(OFFactory f, long xid, OFBadRequestCode code, OFErrorCauseData data) {
        return f.errorMsgs().buildBadRequestErrorMsg().setXid(xid).setCode(code).setData(data).build();
    }

    private static boolean encodable(OFErrorMsg error) {
        ByteBuf scratch = Unpooled.buffer(128);
        try {
            error.writeTo(scratch);
            return true;
        } finally {
            scratch.release();
        }
    }

    @Override
    public String toString() {
        return property != null ? "BAD_PROPERTY/" + property : "BAD_REQUEST/" + request;
    }
}
