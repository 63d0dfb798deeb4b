package io.heliograph.staticflows.internal;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadActionErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadInstructionErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadMatchErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadRequestErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFFlowModFailedErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFGroupModFailedErrorMsg;
import org.projectfloodlight.openflow.protocol.errormsg.OFMeterModFailedErrorMsg;

import io.heliograph.core.OFErrorException;

/** Readable descriptions of switch errors and failed requests. */
final class Errors {

    private Errors() {
    }

    static String describe(OFErrorMsg e) {
        String code;
        if (e instanceof OFFlowModFailedErrorMsg m) {
            code = String.valueOf(m.getCode());
        } else if (e instanceof OFBadMatchErrorMsg m) {
            code = String.valueOf(m.getCode());
        } else if (e instanceof OFBadActionErrorMsg m) {
            code = String.valueOf(m.getCode());
        } else if (e instanceof OFBadInstructionErrorMsg m) {
            code = String.valueOf(m.getCode());
        } else if (e instanceof OFBadRequestErrorMsg m) {
            code = String.valueOf(m.getCode());
        } else if (e instanceof OFGroupModFailedErrorMsg m) {
            code = String.valueOf(m.getCode());
        } else if (e instanceof OFMeterModFailedErrorMsg m) {
            code = String.valueOf(m.getCode());
        } else {
            code = "";
        }
        return e.getErrType() + (code.isEmpty() ? "" : "/" + code);
    }

    /** Why a request failed, for a person: the switch's error, a timeout, or a lost connection. */
    static String describe(Throwable t) {
        Throwable c = t;
        while ((c instanceof CompletionException || c instanceof ExecutionException) && c.getCause() != null) {
            c = c.getCause();
        }
        if (c instanceof OFErrorException e) {
            return "the switch answered " + describe(e.getError());
        }
        if (c instanceof TimeoutException) {
            return "the switch did not answer in time (" + c.getMessage() + ")";
        }
        return c.getMessage() == null ? c.toString() : c.getMessage();
    }

    static boolean is(OFErrorMsg e, Enum<?> code) {
        if (e instanceof OFGroupModFailedErrorMsg m) {
            return m.getCode() == code;
        }
        if (e instanceof OFMeterModFailedErrorMsg m) {
            return m.getCode() == code;
        }
        return false;
    }
}
