package io.heliograph.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFBufferId;

import io.heliograph.core.MessageListener.Command;
import io.heliograph.core.testing.FakeSwitch;

/** The component as SCR drives it: bind before activate, then configuration updates. */
class MessagePipelinesTest {

    private static final OFMessage PACKET_IN = OFFactories.getFactory(OFVersion.OF_10).buildPacketIn()
            .setReason(OFPacketInReason.NO_MATCH).setBufferId(OFBufferId.NO_BUFFER).setData(new byte[0]).build();

    private final List<String> journal = new ArrayList<>();
    private final MessagePipelines component = new MessagePipelines();

    @Test
    void listenersBoundBeforeActivationFollowTheDefaultOrder() {
        component.addListener(new RecordingListener("learningswitch", journal));
        component.addListener(new RecordingListener("topology", journal));

        component.dispatch(new FakeSwitch(1), PACKET_IN);

        assertEquals(List.of("topology", "learningswitch"), journal);
        assertEquals(PipelineOrders.DEFAULT_PACKET_IN, component.getOrder(OFType.PACKET_IN));
    }

    @Test
    void configurationOrdersAndReordersLive() {
        component.addListener(new RecordingListener("a", journal));
        component.addListener(new RecordingListener("b", journal));
        component.activate(Map.of("order.PACKET_IN", "b,a"));
        assertEquals(Map.of(OFType.PACKET_IN, List.of("b", "a")), component.getPipelines());

        component.modified(Map.of("order.PACKET_IN", "a,b"));

        assertEquals(List.of("a", "b"), component.getPipelines().get(OFType.PACKET_IN));
    }

    @Test
    void aRuntimeOrderSurvivesAnUnrelatedConfigurationChange() {
        component.addListener(new RecordingListener("a", journal));
        component.addListener(new RecordingListener("b", journal));
        component.addListener(new RecordingListener("s1", Set.of(OFType.PORT_STATUS), journal, (s, m) -> Command.CONTINUE));
        component.addListener(new RecordingListener("s2", Set.of(OFType.PORT_STATUS), journal, (s, m) -> Command.CONTINUE));
        component.activate(Map.of("order.PACKET_IN", "a,b"));

        component.setOrder(OFType.PACKET_IN, List.of("b", "a"));
        component.modified(Map.of("order.PACKET_IN", "a,b", "order.PORT_STATUS", "s2,s1"));

        assertEquals(List.of("b", "a"), component.getPipelines().get(OFType.PACKET_IN), "PACKET_IN's key did not change");
        assertEquals(List.of("s2", "s1"), component.getPipelines().get(OFType.PORT_STATUS));

        component.modified(Map.of("order.PACKET_IN", "a", "order.PORT_STATUS", "s2,s1"));
        assertEquals(List.of("a", "b"), component.getPipelines().get(OFType.PACKET_IN), "PACKET_IN's key changed");
    }

    @Test
    void deletingTheConfigurationRestoresTheDefaults() {
        component.addListener(new RecordingListener("learningswitch", journal));
        component.addListener(new RecordingListener("topology", journal));
        component.activate(Map.of("order.PACKET_IN", "learningswitch,topology"));
        assertEquals(List.of("learningswitch", "topology"), component.getPipelines().get(OFType.PACKET_IN));

        component.modified(Map.of());

        assertEquals(List.of("topology", "learningswitch"), component.getPipelines().get(OFType.PACKET_IN));
    }

    @Test
    void anUnboundListenerLeavesThePipeline() {
        RecordingListener a = new RecordingListener("a", journal);
        component.addListener(a);
        component.addListener(new RecordingListener("b", journal));
        component.activate(Map.of());

        component.removeListener(a);
        component.dispatch(new FakeSwitch(1), PACKET_IN);

        assertEquals(List.of("b"), journal);
    }
}
