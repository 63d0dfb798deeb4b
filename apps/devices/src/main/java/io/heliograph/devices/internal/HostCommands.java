package io.heliograph.devices.internal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.MacAddress;

import io.heliograph.devices.AttachmentPoint;
import io.heliograph.devices.DeviceService;
import io.heliograph.devices.Host;

/**
 * Gogo shell command to see the tracked hosts: {@code heliograph:hosts}, or {@code hosts <query>}
 * where the query is a MAC, an IPv4 or IPv6 address, or a switch's datapath id. The shell finds it
 * by the service properties; no Gogo type is needed.
 */
@Component(service = Object.class, property = {
    "osgi.command.scope=heliograph",
    "osgi.command.function=hosts",
    "heliograph.command.help=hosts [MAC|IP|DPID]|tracked hosts: MAC, VLAN, addresses, attachment points, last seen"})
public final class HostCommands {

    private static final Comparator<Host> BY_MAC_AND_VLAN = Comparator.comparingLong((Host host) -> host.mac().getLong())
            .thenComparingInt(host -> host.vlan().getVlan());

    private final DeviceService devices;
    private final Clock clock;

    @Activate
    public HostCommands(@Reference DeviceService devices) {
        this(devices, Clock.systemUTC());
    }

    HostCommands(DeviceService devices, Clock clock) {
        this.devices = devices;
        this.clock = clock;
    }

    /** Every host, one line each: MAC, VLAN, addresses, attachment points (most recent first), last seen. */
    public String hosts() {
        return format(devices.getHosts());
    }

    /** The hosts with this MAC, IPv4 or IPv6 address, or attached to this switch (datapath id). */
    public String hosts(String query) {
        String q = query.trim();
        try {
            if (q.contains(":") && q.length() == 17 && q.chars().filter(c -> c == ':').count() == 5) {
                return format(devices.getHostsByMac(MacAddress.of(q)));
            }
            if (q.chars().filter(c -> c == ':').count() == 7 && q.length() == 23) {
                DatapathId dpid = DatapathId.of(q);
                return format(devices.getHosts().stream()
                        .filter(host -> host.attachmentPoints().stream().anyMatch(p -> p.port().dpid().equals(dpid)))
                        .toList());
            }
            if (q.contains(":")) {
                return format(devices.getHostsByIpv6(IPv6Address.of(q)));
            }
            if (q.contains(".")) {
                return format(devices.getHostsByIpv4(IPv4Address.of(q)));
            }
        } catch (IllegalArgumentException e) {
            // fall through to the explanation
        }
        return "'" + query + "' is not a MAC (02:00:00:00:00:01), an IPv4 or IPv6 address, or a datapath id "
                + "(00:00:00:00:00:00:00:01)";
    }

    private String format(Collection<Host> hosts) {
        if (hosts.isEmpty()) {
            return "no hosts";
        }
        Instant now = clock.instant();
        List<Host> sorted = hosts.stream().sorted(BY_MAC_AND_VLAN).toList();
        StringBuilder out = new StringBuilder();
        out.append(sorted.size()).append(sorted.size() == 1 ? " host" : " hosts").append('\n');
        for (Host host : sorted) {
            out.append(host.mac());
            if (host.vlan().getVlan() != 0) {
                out.append(" vlan ").append(host.vlan().getVlan());
            }
            String addresses = Stream.concat(host.ipv4Addresses().stream().map(Object::toString),
                    host.ipv6Addresses().stream().map(Object::toString)).collect(Collectors.joining(","));
            out.append("  ip ").append(addresses.isEmpty() ? "-" : addresses);
            out.append("  at ").append(host.attachmentPoints().stream().map(AttachmentPoint::port)
                    .map(Object::toString).collect(Collectors.joining(",")));
            out.append("  seen ").append(age(host.lastSeen(), now)).append(" ago\n");
        }
        return out.toString().stripTrailing();
    }

    private static String age(Instant then, Instant now) {
        Duration age = Duration.between(then, now);
        if (age.isNegative()) {
            age = Duration.ZERO;
        }
        return age.toSeconds() < 120 ? age.toSeconds() + "s" : age.toMinutes() + "m";
    }
}
