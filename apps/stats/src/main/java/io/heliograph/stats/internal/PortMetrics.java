package io.heliograph.stats.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;

import org.projectfloodlight.openflow.protocol.OFPortStatsEntry;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.core.MetricSource.Sample;
import io.heliograph.core.MetricSource.Type;
import io.heliograph.core.SwitchPort;
import io.heliograph.stats.PortRate;
import io.heliograph.stats.SwitchStatistics;

/**
 * The statistics app's per-switch and per-port metrics, from what the collector already holds (the
 * latest replies and the rates it computed): nothing is asked of a switch for them.
 *
 * <p>Port counters are the switch's own, as its last reply said them, so Prometheus' {@code rate()}
 * over them is the switch's rate; a counter the switch does not keep (all ones, by the spec) is left
 * out. The series are one per port and counter, labelled {@code dpid} and {@code port}: twelve per port
 * (eight counters and four rate gauges), so a network of 100 switches of 48 ports makes about 58,000;
 * the setting {@code portMetrics} turns them off.
 */
final class PortMetrics {

    private record Counter(String name, String help, ToLongFunction<OFPortStatsEntry> value) {
    }

    private static final List<Counter> COUNTERS = List.of(
            counter("heliograph_port_rx_bytes_total", "Bytes the port received, as the switch counts them", e -> e.getRxBytes()),
            counter("heliograph_port_tx_bytes_total", "Bytes the port sent, as the switch counts them", e -> e.getTxBytes()),
            counter("heliograph_port_rx_packets_total", "Packets the port received, as the switch counts them", e -> e.getRxPackets()),
            counter("heliograph_port_tx_packets_total", "Packets the port sent, as the switch counts them", e -> e.getTxPackets()),
            counter("heliograph_port_rx_dropped_total", "Received packets the switch dropped at the port", e -> e.getRxDropped()),
            counter("heliograph_port_tx_dropped_total", "Packets the switch dropped at the port instead of sending", e -> e.getTxDropped()),
            counter("heliograph_port_rx_errors_total", "Receive errors at the port", e -> e.getRxErrors()),
            counter("heliograph_port_tx_errors_total", "Transmit errors at the port", e -> e.getTxErrors()));

    private static Counter counter(String name, String help, Function<OFPortStatsEntry, U64> field) {
        return new Counter(name, help + " (statistics app's last poll)",
                e -> field.apply(e).getValue());
    }

    private PortMetrics() {
    }

    /** Every switch's flow count, and with {@code portCounters} every port's counters, and the rates given. */
    static List<Sample> samples(Collection<SwitchStatistics> switches, Collection<PortRate> rates,
            boolean portCounters) {
        List<Sample> out = new ArrayList<>();
        for (SwitchStatistics s : switches) {
            String dpid = s.dpid().toString();
            if (s.flows().isPresent()) {
                out.add(new Sample("heliograph_switch_flows", Type.GAUGE,
                        "Flow entries in the switch's tables at the statistics app's last poll",
                        Map.of("dpid", dpid), s.flows().entries().size()));
            }
            for (OFPortStatsEntry entry : portCounters ? s.ports().entries() : List.<OFPortStatsEntry>of()) {
                Map<String, String> labels = Map.of("dpid", dpid, "port", entry.getPortNo().toString());
                for (Counter c : COUNTERS) {
                    long value = c.value().applyAsLong(entry);
                    if (value != CounterSample.UNAVAILABLE) {
                        out.add(new Sample(c.name(), Type.COUNTER, c.help(), labels, unsigned(value)));
                    }
                }
            }
        }
        for (PortRate r : rates) {
            Map<String, String> labels = labels(r.port());
            out.add(gauge("heliograph_port_rx_bytes_per_second", "Bytes per second the port received over the "
                    + "statistics app's last interval", labels, r.rxBitsPerSecond() / 8));
            out.add(gauge("heliograph_port_tx_bytes_per_second", "Bytes per second the port sent over the "
                    + "statistics app's last interval", labels, r.txBitsPerSecond() / 8));
            out.add(gauge("heliograph_port_rx_packets_per_second", "Packets per second the port received over the "
                    + "statistics app's last interval", labels, r.rxPacketsPerSecond()));
            out.add(gauge("heliograph_port_tx_packets_per_second", "Packets per second the port sent over the "
                    + "statistics app's last interval", labels, r.txPacketsPerSecond()));
        }
        return out;
    }

    private static Map<String, String> labels(SwitchPort port) {
        return Map.of("dpid", port.dpid().toString(), "port", port.port().toString());
    }

    private static Sample gauge(String name, String help, Map<String, String> labels, double value) {
        return new Sample(name, Type.GAUGE, help, labels, value);
    }

    /** OpenFlow counters are unsigned 64-bit. */
    private static double unsigned(long value) {
        return value >= 0 ? value : (value >>> 1) * 2.0 + (value & 1);
    }
}
