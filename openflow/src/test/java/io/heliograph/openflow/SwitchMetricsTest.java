package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.MetricSource.Sample;
import io.heliograph.core.OFSwitch;

/** The messages sent to switches by type (the overview's FLOW_MOD rate), and each switch's role, age and messages. */
class SwitchMetricsTest {

    private static final long DPID = 0x31;

    @Test
    void messagesSentAreCountedByTypeFromEveryThreadAndPerSwitch() throws Exception {
        try (ControllerFixture controller = new ControllerFixture();
             FakeSwitch fake = FakeSwitch.connect(controller.port(), DPID, OFVersion.OF_13)) {
            OFSwitch sw = controller.awaitSwitch(DPID);
            OFFactory f = sw.getFactory();
            Map<OFType, Long> before = controller.server.counters().sent.byType();
            // on the switch's loop, as a listener answers a packet-in: a FLOW_MOD and a PACKET_OUT
            controller.pipeline.hook = (s, m) -> {
                if (m instanceof OFPacketIn) {
                    s.write(f.buildFlowAdd().build());
                    s.write(f.buildPacketOut().setInPort(OFPort.CONTROLLER).build());
                }
            };
            fake.send(f.buildPacketIn().setReason(OFPacketInReason.NO_MATCH).setBufferId(OFBufferId.NO_BUFFER)
                    .setMatch(f.buildMatch().setExact(org.projectfloodlight.openflow.protocol.match.MatchField.IN_PORT,
                            OFPort.of(1)).build()).setData(new byte[60]).build());
            // and from another thread: two more FLOW_MODs
            sw.write(List.of(f.buildFlowAdd().build(), f.buildFlowDelete().build()));
            sw.barrier().get(5, TimeUnit.SECONDS);
            ControllerFixture.await(() -> sent(controller, before, OFType.FLOW_MOD) == 3
                    && sent(controller, before, OFType.PACKET_OUT) == 1, "3 FLOW_MODs and 1 PACKET_OUT counted");
            assertEquals(1, sent(controller, before, OFType.BARRIER_REQUEST));

            // per switch: what the fake switch read is what the controller counts as sent to it
            SwitchConnection connection = controller.registry.connections().iterator().next();
            ControllerFixture.await(() -> fake.drain().size() == connection.messagesSent(),
                    "the switch read as many messages as were counted sent to it");
            assertTrue(connection.messagesSent() >= 6, "handshake, 3 FLOW_MODs, a PACKET_OUT, a barrier");
            assertTrue(connection.messagesReceived() >= 3, "handshake answers, the packet-in, the barrier reply");

            Map<String, Double> samples = ChannelBounds.samples(controller.server.counters(),
                    controller.registry.connections()).stream().filter(s -> s.labels().get("dpid") != null)
                    .collect(Collectors.toMap(s -> s.name() + s.labels().getOrDefault("role", ""), Sample::value));
            assertEquals(1.0, samples.get("heliograph_switch_roleEQUAL"), "no role asked for");
            assertEquals(0.0, samples.get("heliograph_switch_roleMASTER"));
            assertEquals(0.0, samples.get("heliograph_switch_roleSLAVE"));
            double since = samples.get("heliograph_switch_connected_since_seconds");
            assertTrue(since <= Instant.now().getEpochSecond() + 1 && since > Instant.now().getEpochSecond() - 60,
                    "connected moments ago: " + since);
            assertEquals((double) connection.messagesSent(), samples.get("heliograph_switch_messages_sent_total"));
            assertTrue(samples.get("heliograph_switch_messages_received_total") >= 3);
            assertTrue(ChannelBounds.samples(controller.server.counters(), controller.registry.connections()).stream()
                    .anyMatch(s -> s.name().equals("heliograph_openflow_messages_sent_total")
                            && s.labels().equals(Map.of("type", "FLOW_MOD")) && s.value() >= 3));

            // a closed connection's counts stay in the totals: a counter that went down would read as a reset
            Map<OFType, Long> open = controller.server.counters().sent.byType();
            fake.close();
            ControllerFixture.await(() -> controller.registry.connections().isEmpty(), "the switch gone");
            assertEquals(open, controller.server.counters().sent.byType());
        }
    }

    private static long sent(ControllerFixture controller, Map<OFType, Long> before, OFType type) {
        return controller.server.counters().sent.byType().getOrDefault(type, 0L) - before.getOrDefault(type, 0L);
    }
}
