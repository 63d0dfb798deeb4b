package io.heliograph.core;

import org.projectfloodlight.openflow.protocol.OFErrorMsg;

/** A request was answered by the switch with an OpenFlow ERROR message. */
public class OFErrorException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient OFErrorMsg error;

    public OFErrorException(OFErrorMsg error) {
        super("switch answered with " + error.getErrType() + ": " + error);
        this.error = error;
    }

    /** With a message of the caller's: what was refused and why, the error named in it. */
    protected OFErrorException(String message, OFErrorMsg error) {
        super(message);
        this.error = error;
    }

    public OFErrorMsg getError() {
        return error;
    }
}
