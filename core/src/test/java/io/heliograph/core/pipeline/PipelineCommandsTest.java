package io.heliograph.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFType;

import io.heliograph.core.MessageListener.Command;

class PipelineCommandsTest {

    private final List<String> journal = new ArrayList<>();
    private final MessagePipelines service = new MessagePipelines();
    private final PipelineCommands commands = new PipelineCommands(service);

    @Test
    void listsThePipelinesInOrder() {
        assertEquals("no listeners", commands.pipelines());
        service.addListener(new RecordingListener("learningswitch", journal));
        service.addListener(new RecordingListener("topology", Set.of(OFType.PACKET_IN, OFType.PORT_STATUS), journal,
                (s, m) -> Command.CONTINUE));

        assertEquals("PACKET_IN: topology -> learningswitch\nPORT_STATUS: topology", commands.pipelines());
    }

    @Test
    void reordersATypeAtRuntime() {
        service.addListener(new RecordingListener("learningswitch", journal));
        service.addListener(new RecordingListener("topology", journal));

        String answer = commands.order("packet_in", "learningswitch, topology");

        assertEquals("PACKET_IN order: learningswitch,topology\nPACKET_IN: learningswitch -> topology", answer);
        assertEquals(Map.of(OFType.PACKET_IN, List.of("learningswitch", "topology")), service.getPipelines());
        assertEquals("PACKET_IN order: learningswitch,topology", commands.order("PACKET_IN"));
    }

    @Test
    void anUnknownTypeIsNamed() {
        assertEquals("'PAKET_IN' is not an OpenFlow message type (e.g. PACKET_IN, PORT_STATUS, FLOW_REMOVED)",
                commands.order("PAKET_IN", "a"));
    }
}
