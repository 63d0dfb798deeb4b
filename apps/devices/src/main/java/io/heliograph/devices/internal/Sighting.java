package io.heliograph.devices.internal;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

import io.heliograph.core.SwitchPort;

/**
 * What one packet-in says about one host: it is at {@code port} (null when the packet only speaks
 * about the host, as a DHCP server's ACK does about its client) and has these addresses.
 */
record Sighting(HostKey host, SwitchPort port, List<AddressClaim> claims, Instant at) {

    Sighting {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(at, "at");
        claims = List.copyOf(claims);
    }

    /** Whether the packet came from the host itself, so it places the host at a port. */
    boolean locates() {
        return port != null;
    }
}
