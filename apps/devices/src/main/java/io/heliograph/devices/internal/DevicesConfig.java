package io.heliograph.devices.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

@ObjectClassDefinition(id = DevicesComponent.PID, name = "Heliograph device tracking",
        description = "Learns hosts (MAC, VLAN, IPv4, IPv6, attachment points) from packet-ins at edge ports.")
@interface DevicesConfig {

    @AttributeDefinition(description = "Milliseconds an attachment point is kept without being seen; a host "
            + "with none left is removed", min = "1000")
    long hostTimeoutMs() default 300_000;

    @AttributeDefinition(description = "Milliseconds an attachment point survives, unrefreshed, after the host "
            + "appeared at another port: sightings at both within it keep both (multi-homing), beyond it the "
            + "old one is dropped as a move. 0: one location per host, every new port is a move at once. "
            + "Equal to hostTimeoutMs: points only time out", min = "0")
    long multiHomeWindowMs() default 1_000;

    @AttributeDefinition(description = "The most attachment points kept per host", min = "1", max = "256")
    int maxAttachmentPoints() default 8;

    @AttributeDefinition(description = "The most IPv4 and the most IPv6 addresses kept per host (least recently "
            + "claimed go first)", min = "1", max = "1024")
    int maxAddressesPerHost() default 16;

    @AttributeDefinition(description = "The most hosts tracked. At the bound a new host takes the place of the "
            + "least recently seen one if that one was not seen for hostIdleMs, and is refused otherwise: a MAC flood "
            + "never pushes out hosts that are active", min = "1", max = "16777216")
    int maxHosts() default 65_536;

    @AttributeDefinition(description = "The most hosts tracked at one edge port, so a MAC flood on one port fills "
            + "only that port's share and never pushes out hosts elsewhere; the same rule as maxHosts applies at "
            + "this bound", min = "1", max = "16777216")
    int maxHostsPerPort() default 1_024;

    @AttributeDefinition(description = "Milliseconds without a sighting after which a host (at a port: its "
            + "attachment point) is idle, and may give way to a new host at a bound", min = "1000")
    long hostIdleMs() default 120_000;

    @AttributeDefinition(description = "The most sightings waiting for the tracker's thread; a burst beyond it is "
            + "dropped and counted", min = "1", max = "16777216")
    int maxPending() default 65_536;
}
