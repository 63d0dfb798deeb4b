package io.heliograph.openflow;

import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadActionErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadInstructionErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadMatchErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadRequestErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFBundleFailedErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFFlowModFailedErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFGroupModFailedErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFMeterModFailedErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFPortModFailedErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFTableModFailedErrorMsg;

/** An OpenFlow error as an operator reads it: its type and code ("FLOW_MOD_FAILED/OVERLAP"), without its data bytes. */
final class ErrorNames {

    private ErrorNames() {
    }

    static String name(OFErrorMsg e) {
        Object code = null;
        if (e instanceof OFFlowModFailedErrorMsg m) {
            code = m.getCode();
        } else if (e instanceof OFBundleFailedErrorMsg m) {
            code = m.getCode();
        } else if (e instanceof OFBadActionErrorMsg m) {
            code = m.getCode();
        } else if (e instanceof OFBadMatchErrorMsg m) {
            code = m.getCode();
        } else if (e instanceof OFBadInstructionErrorMsg m) {
            code = m.getCode();
        } else if (e instanceof OFBadRequestErrorMsg m) {
            code = m.getCode();
        } else if (e instanceof OFGroupModFailedErrorMsg m) {
            code = m.getCode();
        } else if (e instanceof OFMeterModFailedErrorMsg m) {
            code = m.getCode();
        } else if (e instanceof OFPortModFailedErrorMsg m) {
            code = m.getCode();
        } else if (e instanceof OFTableModFailedErrorMsg m) {
            code = m.getCode();
        }
        return e.getErrType() + (code == null ? "" : "/" + code);
    }
}
