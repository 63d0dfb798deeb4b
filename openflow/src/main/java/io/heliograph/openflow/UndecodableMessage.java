package io.heliograph.openflow;

/**
 * A framed message Loxi could not turn into an {@code OFMessage}: what we know of it, why it failed,
 * and which BAD_REQUEST code answers it. Passed up the pipeline so the switch handler, which knows
 * the switch, logs and answers it; the connection stays up.
 *
 * @param head the first bytes of the message (up to 64), echoed back in the error's data as the
 *             spec asks
 * @param answer the error to answer with
 */
record UndecodableMessage(int wireVersion, int wireType, long xid, byte[] head, ErrorAnswer answer, String reason) {

    /** The OFPT_ERROR type number, identical in every version: an error is never answered with an error. */
    static final int ERROR_TYPE = 1;

    boolean mayBeAnswered() {
        return wireType != ERROR_TYPE;
    }
}
