package io.heliograph.devices.internal.rest;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.VlanVid;

import io.heliograph.devices.DeviceService;
import io.heliograph.devices.Host;

/**
 * The hosts matching every given criterion (null: any). The most selective criterion reads the
 * service's index; the others filter what it returns. {@code search} is part of a MAC or of an
 * address, as the web UI's search box takes it (see {@link #searchText}).
 */
record HostQuery(MacAddress mac, VlanVid vlan, IPv4Address ipv4, IPv6Address ipv6, DatapathId dpid, Integer port,
        String search) {

    /**
     * What an operator typed to find hosts, as MACs and addresses are shown: lower case, a MAC's
     * dashes (02-00-00-00-00-01) as colons; null when there is nothing to look for.
     */
    static String searchText(String typed) {
        if (typed == null || typed.isBlank()) {
            return null;
        }
        return typed.strip().toLowerCase(Locale.ROOT).replace('-', ':');
    }

    List<Host> run(DeviceService devices) {
        Collection<Host> candidates;
        if (mac != null) {
            candidates = devices.getHostsByMac(mac);
        } else if (ipv4 != null) {
            candidates = devices.getHostsByIpv4(ipv4);
        } else if (ipv6 != null) {
            candidates = devices.getHostsByIpv6(ipv6);
        } else {
            candidates = devices.getHosts();
        }
        List<Predicate<Host>> tests = new ArrayList<>();
        if (mac != null) {
            tests.add(h -> h.mac().equals(mac));
        }
        if (vlan != null) {
            tests.add(h -> h.vlan().equals(vlan));
        }
        if (ipv4 != null) {
            tests.add(h -> h.ipv4Addresses().contains(ipv4));
        }
        if (ipv6 != null) {
            tests.add(h -> h.ipv6Addresses().contains(ipv6));
        }
        if (search != null) {
            tests.add(h -> h.mac().toString().contains(search)
                    || h.ipv4Addresses().stream().anyMatch(a -> a.toString().contains(search))
                    || h.ipv6Addresses().stream().anyMatch(a -> a.toString().contains(search)));
        }
        if (dpid != null || port != null) {
            tests.add(h -> h.attachmentPoints().stream().anyMatch(p -> (dpid == null || p.port().dpid().equals(dpid))
                    && (port == null || p.port().port().getPortNumber() == port)));
        }
        return candidates.stream().filter(h -> tests.stream().allMatch(t -> t.test(h)))
                .sorted(HostsResource.BY_MAC_AND_VLAN).toList();
    }
}
