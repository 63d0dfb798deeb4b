package io.heliograph.openflow;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

import io.heliograph.core.MetricSource;
import io.heliograph.core.MetricSource.Sample;
import io.heliograph.core.Role;
import io.heliograph.core.StateBounds.Bound;

/**
 * The channel layer's bounds and counters as {@link io.heliograph.core.StateBounds} and
 * {@link MetricSource} report them: the settings in force for new connections, the fullest switch
 * connected now, and the totals since the start. Reads only volatile and concurrent state: any thread.
 */
final class ChannelBounds {

    private static final String PID = OpenFlowController.PID + "/";

    private ChannelBounds() {
    }

    static List<Bound> bounds(OpenFlowSettings s, Collection<SwitchConnection> switches, ChannelCounters c) {
        SwitchLimits l = s.limits();
        return List.of(
                new Bound("openflow.pendingRequests", PID + "maxPendingRequests", l.maxPendingRequests(),
                        fullest(switches, SwitchConnection::pendingRequests), 0, c.requestsRefused.sum(),
                        "requests apps have awaiting answers from one switch; one more fails at once"),
                new Bound("openflow.pendingWriteBytes", PID + "maxPendingWriteBytes", s.maxPendingWriteBytes(),
                        fullest(switches, SwitchConnection::pendingWriteBytes), 0, c.notReading.sum(),
                        "bytes waiting to be sent to one switch; a switch leaving more unread is disconnected as not"
                                + " reading (refused counts those switches)"),
                new Bound("openflow.packetInRate", PID + "packetInRate", l.packetInRate(),
                        fullest(switches, SwitchConnection::packetInsLastSecond), 0, c.packetInsDropped.sum(),
                        "packet-ins per second one switch may hand to the apps, in bursts of up to packetInBurst"
                                + " (0 = unlimited); the excess is dropped before it is decoded"),
                new Bound("openflow.openBundles", "", Bundles.MAX_OPEN_BUNDLES,
                        fullest(switches, SwitchConnection::openBundles), 0, c.bundlesRefused.sum(),
                        "OpenFlow bundles open on one switch (a constant); one more is refused at once, and one left"
                                + " open past the request timeout is discarded"),
                new Bound("openflow.ports", PID + "maxPorts", l.maxPorts(),
                        fullest(switches, sw -> sw.getPorts().size()), 0, c.portsRefused.sum(),
                        "ports kept per switch; a port beyond it is refused (apps never hear of it)"));
    }

    /**
     * The totals since the start, and per switch connected now: its role (one series per role, 1 for
     * the one it has, so a change leaves no stale series), when it connected and its messages each way.
     */
    static List<Sample> samples(ChannelCounters c, Collection<SwitchConnection> switches) {
        List<Sample> out = new ArrayList<>();
        c.sent.byType().forEach((type, n) -> out.add(new Sample("heliograph_openflow_messages_sent_total",
                MetricSource.Type.COUNTER, "OpenFlow messages the controller wrote to switches, by type",
                Map.of("type", type.name()), n)));
        for (SwitchConnection sw : switches) {
            String dpid = sw.getId().toString();
            Role role = sw.getRole();
            for (Role r : Role.values()) {
                out.add(new Sample("heliograph_switch_role", MetricSource.Type.GAUGE,
                        "This controller's role for the switch: 1 for the role it has, 0 for the others",
                        Map.of("dpid", dpid, "role", r.name()), r == role ? 1 : 0));
            }
            Instant since = sw.getConnectedSince();
            if (since != null) {
                out.add(new Sample("heliograph_switch_connected_since_seconds", MetricSource.Type.GAUGE,
                        "When the switch's connection was accepted, seconds since the epoch", Map.of("dpid", dpid),
                        since.toEpochMilli() / 1000.0));
            }
            out.add(new Sample("heliograph_switch_messages_received_total", MetricSource.Type.COUNTER,
                    "OpenFlow messages read from the switch on its current connection (packet-ins dropped over "
                            + "packetInRate before decoding are not among them)", Map.of("dpid", dpid),
                    sw.messagesReceived()));
            out.add(new Sample("heliograph_switch_messages_sent_total", MetricSource.Type.COUNTER,
                    "OpenFlow messages written to the switch on its current connection", Map.of("dpid", dpid),
                    sw.messagesSent()));
        }
        String badInput = "Messages from switches that could not be decoded or were not allowed, by kind (the error"
                + " that answers them)";
        for (Map.Entry<String, Long> e : c.badInputByKind().entrySet()) {
            out.add(new Sample("heliograph_openflow_bad_input_total", MetricSource.Type.COUNTER, badInput,
                    Map.of("kind", e.getKey()), e.getValue()));
        }
        out.add(new Sample("heliograph_openflow_duplicate_datapath_refused_total", MetricSource.Type.COUNTER,
                "Connections refused because they claimed the datapath id of a connected switch (duplicateDatapath)",
                Map.of(), c.duplicatesRefused.sum()));
        out.add(new Sample("heliograph_openflow_duplicate_datapath_replaced_total", MetricSource.Type.COUNTER,
                "Connections that replaced another connection of the same datapath id (silent, or by policy)",
                Map.of(), c.duplicatesReplaced.sum()));
        return out;
    }

    private static long fullest(Collection<SwitchConnection> switches, ToLongFunction<SwitchConnection> size) {
        long max = 0;
        for (SwitchConnection sw : switches) {
            max = Math.max(max, size.applyAsLong(sw));
        }
        return max;
    }
}
