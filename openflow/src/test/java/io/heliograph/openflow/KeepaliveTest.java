package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import io.heliograph.core.OFSwitch;
import org.projectfloodlight.openflow.protocol.OFEchoRequest;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;

class KeepaliveTest {

    private final ControllerFixture controller;

    KeepaliveTest() throws Exception {
        controller = new ControllerFixture(ControllerFixture.testSettings()
                .withTimeouts(Duration.ofSeconds(3), Duration.ofMillis(200), Duration.ofMillis(300), Duration.ofSeconds(2)));
    }

    @AfterEach
    void stop() {
        controller.close();
    }

    @Test
    void aSilentSwitchIsProbedAndKeptWhileItAnswers() throws Exception {
        try (FakeSwitch sw = FakeSwitch.connect(controller.port(), 0x20, OFVersion.OF_13)) {
            controller.awaitSwitch(0x20);
            sw.expect(OFEchoRequest.class);
            sw.expect(OFEchoRequest.class); // answered, so probing goes on
            sw.expect(OFEchoRequest.class);
            assertTrue(sw.isOpen());
            assertTrue(controller.registry.getSwitch(DatapathId.of(0x20)).isConnected());
        }
    }

    @Test
    void aSwitchThatStopsAnsweringEchoIsDisconnected() throws Exception {
        try (FakeSwitch sw = FakeSwitch.connect(controller.port(), 0x21, OFVersion.OF_10)) {
            controller.awaitSwitch(0x21);
            sw.answerEcho = false;
            sw.expect(OFEchoRequest.class);
            sw.awaitClosed();
            ControllerFixture.await(() -> controller.registry.getSwitch(DatapathId.of(0x21)) == null, "switch removed");
        }
    }

    /**
     * A switch whose ECHO_REPLY is late but which sent something after the request is alive (an
     * overloaded controller reads a busy switch's backlog, reply included, a turn at a time): kept,
     * and probed again; once it is silent too, it is dropped.
     */
    @Test
    void aSwitchThatKeepsSendingIsKeptWhileItsEchoReplyIsLate() throws Exception {
        try (FakeSwitch sw = FakeSwitch.connect(controller.port(), 0x22, OFVersion.OF_13)) {
            OFSwitch connected = controller.awaitSwitch(0x22);
            sw.answerEcho = false;
            OFEchoRequest first = sw.expect(OFEchoRequest.class);
            sw.send(connected.getFactory().buildBarrierRequest().setXid(7).build());
            sw.expect(OFEchoRequest.class, echo -> echo.getXid() != first.getXid());
            assertTrue(connected.isConnected(), "kept after the first ECHO went unanswered");
            assertTrue(sw.isOpen());

            sw.awaitClosed(); // the second went unanswered and nothing else came
            ControllerFixture.await(() -> controller.registry.getSwitch(DatapathId.of(0x22)) == null, "switch removed");
        }
    }
}
