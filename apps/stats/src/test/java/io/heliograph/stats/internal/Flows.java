package io.heliograph.stats.internal;

import java.time.Instant;

import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.Match;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.IPv4Address;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.stats.FlowKey;
import io.heliograph.stats.FlowRate;

/** Matches and flow rates for traffic-matrix tests. */
final class Flows {

    static final OFFactory OF13 = OFFactories.getFactory(OFVersion.OF_13);
    static final Instant AT = Instant.parse("2026-01-01T00:00:00Z");

    private Flows() {
    }

    static MacAddress mac(int host) {
        return MacAddress.of(0x0200_0000_0000L | host);
    }

    static IPv4Address ip(int host) {
        return IPv4Address.of(10 << 24 | host);
    }

    /** eth_src/eth_dst of two hosts, entering at in_port (0: no in_port in the match). */
    static Match macs(int inPort, int src, int dst) {
        Match.Builder m = OF13.buildMatch();
        if (inPort > 0) {
            m.setExact(MatchField.IN_PORT, OFPort.of(inPort));
        }
        return m.setExact(MatchField.ETH_SRC, mac(src)).setExact(MatchField.ETH_DST, mac(dst)).build();
    }

    static Match ips(int src, int dst) {
        return OF13.buildMatch().setExact(MatchField.ETH_TYPE, EthType.IPv4)
                .setExact(MatchField.IPV4_SRC, ip(src)).setExact(MatchField.IPV4_DST, ip(dst)).build();
    }

    static FlowRate rate(long dpid, int table, Match match, double bitsPerSecond) {
        return new FlowRate(DatapathId.of(dpid), new FlowKey(TableId.of(table), 10, match, U64.ZERO), AT,
                bitsPerSecond, bitsPerSecond / 8000);
    }
}
