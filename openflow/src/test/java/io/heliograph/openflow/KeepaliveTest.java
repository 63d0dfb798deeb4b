package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
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
}
