package io.heliograph.openflow;

import org.projectfloodlight.openflow.protocol.OFBadPropertyCode;
import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.types.OFErrorCauseData;

/**
 * The OpenFlow error that answers an undecodable message: BAD_REQUEST for the message itself, or,
 * from OpenFlow 1.4 on, BAD_PROPERTY for a property inside it.
 */
record ErrorAnswer(OFBadRequestCode request, OFBadPropertyCode property) {

    static ErrorAnswer badRequest(OFBadRequestCode code) {
        return new ErrorAnswer(code, null);
    }

    static ErrorAnswer badProperty(OFBadPropertyCode code) {
        return new ErrorAnswer(null, code);
    }

    /** The error, carrying the offending message's first bytes as its data. */
    OFErrorMsg build(OFFactory f, long xid, byte[] offending) {
        OFErrorCauseData data = OFErrorCauseData.of(offending, f.getVersion());
        if (property != null) {
            return f.errorMsgs().buildBadPropertyErrorMsg().setXid(xid).setCode(property).setData(data).build();
        }
        return f.errorMsgs().buildBadRequestErrorMsg().setXid(xid).setCode(request).setData(data).build();
    }

    @Override
    public String toString() {
        return property != null ? "BAD_PROPERTY/" + property : "BAD_REQUEST/" + request;
    }
}
