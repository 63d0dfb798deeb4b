package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFeaturesRequest;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFPortDescStatsRequest;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;

/**
 * A switch sends packet-ins as soon as it has answered FEATURES, before the controller is done with
 * its handshake: the first {@link OFFrameDecoder#EARLY_PACKET_INS} reach the apps once the switch is
 * announced, in the order they came; the rest of an early flood is dropped before decoding.
 */
class EarlyPacketInsTest {

    private ControllerFixture controller;

    @AfterEach
    void stop() {
        if (controller != null) {
            controller.close();
        }
    }

    @Test
    void packetInsSentDuringTheHandshakeReachTheAppsOnceTheSwitchIsAnnounced() throws Exception {
        controller = new ControllerFixture();
        int sent = OFFrameDecoder.EARLY_PACKET_INS + 20;
        try (FakeSwitch sw = new FakeSwitch(new Socket("127.0.0.1", controller.port()), DatapathId.of(0x77),
                Set.of(OFVersion.OF_13))) {
            sw.answerHandshake = false;
            sw.sayHello();
            OFFeaturesRequest features = sw.expect(OFFeaturesRequest.class);
            OFFactory f = sw.factory;
            sw.send(f.buildFeaturesReply().setXid(features.getXid()).setDatapathId(DatapathId.of(0x77))
                    .setNBuffers(256).setNTables((short) 4).build());
            OFPortDescStatsRequest portDesc = sw.expect(OFPortDescStatsRequest.class);
            for (int i = 0; i < sent; i++) {
                sw.send(packetIn(f, 5000 + i)); // the handshake waits for the port description yet
            }
            sw.answerHandshake = true;
            sw.sendPortDescription(f, portDesc.getXid(), sw.ports(f));
            controller.awaitSwitch(0x77);

            sw.send(packetIn(f, 9999)); // one sent after the handshake: everything before it is handled by then
            ControllerFixture.await(() -> early().contains(9999L), "the packet-in sent after the handshake");
            List<Long> expected = new java.util.ArrayList<>();
            for (int i = 0; i < OFFrameDecoder.EARLY_PACKET_INS; i++) {
                expected.add(5000L + i);
            }
            expected.add(9999L);
            assertEquals(expected, early(), "the first early ones, in order, each once, then the later one; the rest of"
                    + " the early flood dropped");
        }
    }

    private List<Long> early() {
        return controller.pipeline.dispatched.stream().filter(OFPacketIn.class::isInstance).map(m -> m.getXid())
                .collect(Collectors.toList());
    }

    private static OFPacketIn packetIn(OFFactory f, long xid) {
        return f.buildPacketIn().setXid(xid).setBufferId(OFBufferId.NO_BUFFER).setReason(OFPacketInReason.NO_MATCH)
                .setTableId(TableId.of(0)).setMatch(f.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(1)).build())
                .setData(new byte[60]).build();
    }
}
