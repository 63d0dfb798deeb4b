package io.heliograph.core;

import java.util.List;

import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.types.BundleId;

/**
 * A bundle was not committed because the switch refused it or one of its messages: nothing of it took
 * effect. {@link #getError()} is the refusal that decided it (the error answering the commit, or the
 * one answering a message as it was added); {@link #getMessageErrors()} are all the errors the switch
 * sent for the bundle's messages, each with the xid of the message it refuses.
 */
public class OFBundleException extends OFErrorException {
    private static final long serialVersionUID = 1L;

    private final BundleId bundleId;
    private final transient List<OFErrorMsg> messageErrors;

    public OFBundleException(String message, BundleId bundleId, OFErrorMsg error, List<OFErrorMsg> messageErrors) {
        super(message, error);
        this.bundleId = bundleId;
        this.messageErrors = List.copyOf(messageErrors);
    }

    public BundleId getBundleId() {
        return bundleId;
    }

    public List<OFErrorMsg> getMessageErrors() {
        return messageErrors;
    }
}
