package io.heliograph.devices.internal.rest;

import java.util.List;

import io.heliograph.devices.AttachmentPoint;
import io.heliograph.devices.Host;

/**
 * A host: its MAC and VLAN (0 when untagged), addresses (sorted), the edge ports it is attached at
 * (most recently seen first), and when it was first and last seen (ISO-8601, UTC).
 */
public record HostView(String mac, int vlan, List<String> ipv4, List<String> ipv6, List<Attachment> attachmentPoints,
        String firstSeen, String lastSeen) {

    public record Attachment(String dpid, int port, String firstSeen, String lastSeen) {

        static Attachment of(AttachmentPoint point) {
            return new Attachment(point.port().dpid().toString(), point.port().port().getPortNumber(),
                    point.firstSeen().toString(), point.lastSeen().toString());
        }
    }

    static HostView of(Host host) {
        return new HostView(host.mac().toString(), host.vlan().getVlan(),
                host.ipv4Addresses().stream().sorted().map(Object::toString).toList(),
                host.ipv6Addresses().stream().sorted().map(Object::toString).toList(),
                host.attachmentPoints().stream().map(Attachment::of).toList(),
                host.firstSeen().toString(), host.lastSeen().toString());
    }
}
