package io.heliograph.forwarding.internal;

/**
 * How finely forwarding flows match, which is also the unit that ECMP spreads over paths: a flow
 * entry can only send what it matches one way, so ECMP per TCP/UDP connection needs the transport
 * ports in the match, while MAC matching puts all traffic between two hosts on one path.
 */
public enum MatchGranularity {
    /** in_port, eth_src, eth_dst (and the VLAN when tagged): one path per host pair, fewest entries. */
    MAC,
    /** MAC plus eth_type and, for IPv4/IPv6, the addresses. */
    IP,
    /** IP plus ip_proto and the TCP/UDP ports: one path per connection (per-flow ECMP). */
    TRANSPORT
}
