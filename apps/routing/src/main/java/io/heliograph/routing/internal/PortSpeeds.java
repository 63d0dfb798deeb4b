package io.heliograph.routing.internal;

import io.heliograph.core.SwitchPort;

/** The current speed of switch ports. */
@FunctionalInterface
interface PortSpeeds {

    /** The port's current speed in bits per second, or 0 when the port or its speed is unknown. */
    long bitsPerSecond(SwitchPort port);
}
