package io.heliograph.devices;

/** Told about host changes. Register as an OSGi service (whiteboard); must not block. */
public interface HostListener {

    default void hostAdded(Host host) {
    }

    /** The host was seen at a new attachment point and left its old one. */
    default void hostMoved(Host before, Host after) {
    }

    /** Addresses or attachment points changed without a move. */
    default void hostUpdated(Host before, Host after) {
    }

    /** The host expired or was removed. */
    default void hostRemoved(Host host) {
    }
}
