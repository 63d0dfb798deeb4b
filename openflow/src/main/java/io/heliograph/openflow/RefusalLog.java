package io.heliograph.openflow;

import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFErrorType;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadRequestErrorMsg;
import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs the ERRORs a switch sends for messages no request waits on (a refused flow-mod or
 * packet-out), at most one line per second per connection with a count of the ones in between, so
 * a burst of refusals cannot flood the log. A refusal because this controller is SLAVE says so: it
 * is what a deposed master's late writes get.
 */
final class RefusalLog {

    private static final Logger LOG = LoggerFactory.getLogger(RefusalLog.class);
    private static final long INTERVAL_NANOS = 1_000_000_000L;

    private long lastLogged = System.nanoTime() - INTERVAL_NANOS;
    private long suppressed;

    /** On the switch's loop. */
    void refused(SwitchConnection sw, OFErrorMsg error) {
        long now = System.nanoTime();
        if (now - lastLogged < INTERVAL_NANOS) {
            suppressed++;
            return;
        }
        lastLogged = now;
        String more = suppressed == 0 ? "" : " (and " + suppressed + " more refusals in the last second)";
        suppressed = 0;
        if (isSlaveRefusal(error)) {
            LOG.warn("{} refused xid {}: IS_SLAVE, this controller is SLAVE for the switch (a write after losing "
                    + "mastership){}", sw, error.getXid(), more);
        } else {
            LOG.warn("{} refused xid {}: {}{}", sw, error.getXid(), error, more);
        }
    }

    static boolean isSlaveRefusal(OFErrorMsg error) {
        return error.getErrType() == OFErrorType.BAD_REQUEST && error instanceof OFBadRequestErrorMsg bad
                && bad.getCode() == OFBadRequestCode.IS_SLAVE;
    }
}
