package io.heliograph.core;

import org.projectfloodlight.openflow.protocol.OFPortDesc;

/**
 * Told when switches come and go and when their ports change. Register an implementation as an
 * OSGi service (whiteboard); it is called on the switch's I/O thread and must not block.
 */
public interface SwitchListener {

    /** The switch completed its handshake and every initializer; it is now in {@link SwitchService}. */
    default void switchAdded(OFSwitch sw) {
    }

    /** The switch disconnected; it is no longer in {@link SwitchService}. */
    default void switchRemoved(OFSwitch sw) {
    }

    /** A port was added, removed or modified (PORT_STATUS). The switch's port table is already updated. */
    default void portChanged(OFSwitch sw, OFPortDesc port, PortChange change) {
    }

    /**
     * This controller's role for the switch changed ({@link OFSwitch#requestRole}): to MASTER when
     * the switch confirmed it, to SLAVE as soon as it was asked for. Called after {@link #switchAdded}
     * for a role set during the handshake.
     */
    default void roleChanged(OFSwitch sw, Role role) {
    }

    enum PortChange { ADDED, DELETED, MODIFIED }
}
