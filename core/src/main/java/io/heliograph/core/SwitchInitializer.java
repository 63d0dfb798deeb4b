package io.heliograph.core;

import java.util.concurrent.CompletionStage;

/**
 * Runs before a switch is announced, after the OpenFlow handshake: decides what must be decided
 * before any app hears of the switch (its role in a cluster) and writes what the switch must see
 * first. Register an implementation as an OSGi service (whiteboard). Initializers run one after
 * another in name order; the switch is announced when all have completed. If one fails, or the
 * handshake timeout passes first, the switch is disconnected with a log line that names the
 * initializer.
 *
 * <p>An initializer must not wait for the switch to answer anything: the handshake waits only for
 * what OpenFlow requires, and a switch that ignores an optional request (statistics, a role request,
 * a barrier) must still be served. It writes its requests and completes; it handles their answers,
 * with timeouts and retries, after the announcement ({@link SwitchListener}). Messages written
 * before it completes reach the switch before anything the apps write after the announcement.
 */
public interface SwitchInitializer {

    /** The name used in logs and in the ordering. */
    String getName();

    /**
     * Starts initializing the switch; called on the switch's I/O thread, so it must not block. The
     * stage may complete on another thread (e.g. once a cluster has decided the role), but never
     * waits for an answer of the switch.
     */
    CompletionStage<Void> initialize(OFSwitch sw);
}
