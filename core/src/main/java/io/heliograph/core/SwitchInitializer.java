package io.heliograph.core;

import java.util.concurrent.CompletionStage;

/**
 * Runs before a switch is announced, after the OpenFlow handshake: clearing tables, pushing
 * permanent flows, setting a role. Register an implementation as an OSGi service (whiteboard).
 * Initializers run one after another in name order; the switch is announced when all have completed.
 * If one fails, or the handshake timeout passes first, the switch is disconnected with a log line
 * that names the initializer.
 */
public interface SwitchInitializer {

    /** The name used in logs and in the ordering. */
    String getName();

    /** Starts initializing the switch; called on the switch's I/O thread, so it must not block. */
    CompletionStage<Void> initialize(OFSwitch sw);
}
