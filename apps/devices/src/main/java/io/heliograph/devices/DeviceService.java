package io.heliograph.devices;

import java.util.Collection;

import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.IPv6Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.VlanVid;

import io.heliograph.core.SwitchPort;

/** Host tracking from packet-ins (ARP, IPv4, IPv6 neighbour discovery, DHCP). */
public interface DeviceService {

    Collection<Host> getHosts();

    /** The host with this MAC on this VLAN ({@link VlanVid#ZERO} for untagged), or null. */
    Host getHost(MacAddress mac, VlanVid vlan);

    /** Hosts with this MAC on any VLAN. */
    Collection<Host> getHostsByMac(MacAddress mac);

    Collection<Host> getHostsByIpv4(IPv4Address address);

    Collection<Host> getHostsByIpv6(IPv6Address address);

    /** Hosts attached at this port. */
    Collection<Host> getHostsAt(SwitchPort port);
}
