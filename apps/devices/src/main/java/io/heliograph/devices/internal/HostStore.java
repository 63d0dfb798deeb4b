package io.heliograph.devices.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import org.projectfloodlight.openflow.types.IPAddress;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.VlanVid;

import io.heliograph.core.SwitchPort;
import io.heliograph.devices.AttachmentPoint;
import io.heliograph.devices.DeviceService;
import io.heliograph.devices.Host;

/**
 * The published hosts and their indexes (by MAC, IPv4, IPv6 and attachment port), written by one
 * thread (the tracker's) and read by any. Readers get immutable {@link Host} values from concurrent
 * maps, so they never lock and never see a half-built host. An index entry and the host it points to
 * are two writes, so a reader racing a change could see one without the other; lookups therefore
 * check the host they return still has the key they were asked for.
 */
final class HostStore implements DeviceService {

    private final Map<HostKey, Host> hosts = new ConcurrentHashMap<>();
    private final Index<MacAddress> byMac = new Index<>();
    private final Index<IPv4Address> byIpv4 = new Index<>();
    private final Index<IPv6Address> byIpv6 = new Index<>();
    private final Index<SwitchPort> byPort = new Index<>();

    /** Publishes a new or changed host; {@code before} is what was published for it, or null. */
    void put(Host before, Host after) {
        HostKey key = keyOf(after);
        hosts.put(key, after);
        byMac.add(after.mac(), key);
        byIpv4.update(key, before == null ? Set.of() : before.ipv4Addresses(), after.ipv4Addresses());
        byIpv6.update(key, before == null ? Set.of() : before.ipv6Addresses(), after.ipv6Addresses());
        byPort.update(key, before == null ? Set.of() : ports(before), ports(after));
    }

    void remove(Host host) {
        HostKey key = keyOf(host);
        hosts.remove(key);
        byMac.remove(host.mac(), key);
        byIpv4.update(key, host.ipv4Addresses(), Set.of());
        byIpv6.update(key, host.ipv6Addresses(), Set.of());
        byPort.update(key, ports(host), Set.of());
    }

    void clear() {
        hosts.clear();
        byMac.clear();
        byIpv4.clear();
        byIpv6.clear();
        byPort.clear();
    }

    Host get(HostKey key) {
        return hosts.get(key);
    }

    int size() {
        return hosts.size();
    }

    /** The most hosts published at one port now. */
    int fullestPort() {
        return byPort.largest();
    }

    /** The most IPv4 or IPv6 addresses one published host has now. */
    int mostAddresses() {
        int most = 0;
        for (Host host : hosts.values()) {
            most = Math.max(most, Math.max(host.ipv4Addresses().size(), host.ipv6Addresses().size()));
        }
        return most;
    }

    /** The most attachment points one published host has now. */
    int mostAttachmentPoints() {
        int most = 0;
        for (Host host : hosts.values()) {
            most = Math.max(most, host.attachmentPoints().size());
        }
        return most;
    }

    /** The keys of the hosts that have this IPv4 or IPv6 address. */
    Set<HostKey> keysWith(IPAddress<?> address) {
        return address instanceof IPv4Address v4 ? byIpv4.get(v4) : byIpv6.get((IPv6Address) address);
    }

    /** Whether a published host other than {@code claimant}, on its VLAN, has this address now; any thread. */
    boolean heldByAnother(HostKey claimant, IPAddress<?> address) {
        for (HostKey key : keysWith(address)) {
            if (!key.equals(claimant) && key.vlan().equals(claimant.vlan())) {
                return true;
            }
        }
        return false;
    }

    Set<HostKey> keysAt(SwitchPort port) {
        return byPort.get(port);
    }

    @Override
    public Collection<Host> getHosts() {
        return List.copyOf(hosts.values());
    }

    @Override
    public Host getHost(MacAddress mac, VlanVid vlan) {
        return hosts.get(new HostKey(mac, vlan == null ? VlanVid.ZERO : vlan));
    }

    @Override
    public Collection<Host> getHostsByMac(MacAddress mac) {
        return lookup(byMac.get(mac), host -> host.mac().equals(mac));
    }

    @Override
    public Collection<Host> getHostsByIpv4(IPv4Address address) {
        return lookup(byIpv4.get(address), host -> host.ipv4Addresses().contains(address));
    }

    @Override
    public Collection<Host> getHostsByIpv6(IPv6Address address) {
        return lookup(byIpv6.get(address), host -> host.ipv6Addresses().contains(address));
    }

    @Override
    public Collection<Host> getHostsAt(SwitchPort port) {
        return lookup(byPort.get(port), host -> ports(host).contains(port));
    }

    private List<Host> lookup(Set<HostKey> keys, Predicate<Host> stillMatches) {
        List<Host> found = new ArrayList<>(keys.size());
        for (HostKey key : keys) {
            Host host = hosts.get(key);
            if (host != null && stillMatches.test(host)) {
                found.add(host);
            }
        }
        return List.copyOf(found);
    }

    static HostKey keyOf(Host host) {
        return new HostKey(host.mac(), host.vlan());
    }

    static Set<SwitchPort> ports(Host host) {
        Set<SwitchPort> ports = new HashSet<>();
        for (AttachmentPoint point : host.attachmentPoints()) {
            ports.add(point.port());
        }
        return ports;
    }

    /**
     * Value to the keys of the hosts that have it. The one writer changes each set in place, so a
     * change costs the same with one host at a port or a thousand (replacing an immutable set on every
     * change made it cost the set's size: a port's 1,024 hosts, learned or forgotten, took a core for
     * seconds). Readers see the sets as they are, weakly consistent; lookups check what they find.
     */
    private static final class Index<V> {

        private final Map<V, Set<HostKey>> entries = new ConcurrentHashMap<>();

        Set<HostKey> get(V value) {
            Set<HostKey> keys = value == null ? null : entries.get(value);
            return keys == null ? Set.of() : Collections.unmodifiableSet(keys);
        }

        void update(HostKey key, Set<V> before, Set<V> after) {
            for (V value : before) {
                if (!after.contains(value)) {
                    remove(value, key);
                }
            }
            for (V value : after) {
                if (!before.contains(value)) {
                    add(value, key);
                }
            }
        }

        void add(V value, HostKey key) {
            entries.computeIfAbsent(value, v -> ConcurrentHashMap.newKeySet()).add(key);
        }

        void remove(V value, HostKey key) {
            entries.computeIfPresent(value, (v, keys) -> {
                keys.remove(key);
                return keys.isEmpty() ? null : keys;
            });
        }

        void clear() {
            entries.clear();
        }

        /** The most keys one value has. */
        int largest() {
            int most = 0;
            for (Set<HostKey> keys : entries.values()) {
                most = Math.max(most, keys.size());
            }
            return most;
        }
    }
}
