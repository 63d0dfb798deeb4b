package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFEchoRequest;
import org.projectfloodlight.openflow.protocol.OFFlowDelete;
import org.projectfloodlight.openflow.protocol.OFSetConfig;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.OFSwitch;

/**
 * D6: a second connection claiming the datapath id of a connected switch, under each
 * {@code duplicateDatapath} policy. A refused newcomer is told nothing beyond FEATURES (no
 * SET_CONFIG, no flow deleted) and no listener hears of it.
 */
class DuplicateDatapathTest {

    private static final long DPID = 7;
    /** Short, so a silent switch is found silent quickly. */
    private static final Duration ECHO_TIMEOUT = Duration.ofMillis(400);

    private ControllerFixture controller;

    @AfterEach
    void stop() {
        if (controller != null) {
            controller.close();
        }
    }

    private void start(DuplicateDatapath policy) throws Exception {
        controller = new ControllerFixture(ControllerFixture.testSettings()
                .withTimeouts(Duration.ofSeconds(3), Duration.ofSeconds(30), ECHO_TIMEOUT, Duration.ofSeconds(2))
                .withDuplicateDatapath(policy));
    }

    private List<String> events() {
        return List.copyOf(controller.listener.events);
    }

    @Test
    void probeRefusesANewcomerWhileTheConnectedSwitchAnswers() throws Exception {
        start(DuplicateDatapath.PROBE);
        try (FakeSwitch first = FakeSwitch.connect(controller.port(), DPID, OFVersion.OF_13)) {
            OFSwitch connected = controller.awaitSwitch(DPID);
            try (FakeSwitch intruder = FakeSwitch.connect(controller.port(), DPID, OFVersion.OF_13)) {
                intruder.awaitClosed();
                first.expect(OFEchoRequest.class); // the probe the first switch answered
                List<Object> told = intruder.drain();
                assertTrue(told.stream().anyMatch(m -> m instanceof org.projectfloodlight.openflow.protocol.OFFeaturesRequest),
                        told.toString());
                assertTrue(told.stream().noneMatch(m -> m instanceof OFSetConfig || m instanceof OFFlowDelete),
                        "nothing written to the refused one after FEATURES: " + told);
            }
            assertSame(connected, controller.registry.getSwitch(DatapathId.of(DPID)), "the first keeps its place");
            assertTrue(connected.isConnected());
            assertEquals(1, events().size(), "only the first was ever announced: " + events());
            assertEquals(1L, connected.getCounters().get("duplicatesRefused"));
            assertEquals(1L, controller.server.counters().duplicatesRefused.sum());

            // A second attempt is refused too (counted on the connected switch, logged only once).
            try (FakeSwitch again = FakeSwitch.connect(controller.port(), DPID, OFVersion.OF_13)) {
                again.awaitClosed();
            }
            assertEquals(2L, connected.getCounters().get("duplicatesRefused"));
            connected.barrier().get(); // and the first is still served
        }
    }

    @Test
    void probeReplacesAConnectedSwitchThatIsSilent() throws Exception {
        start(DuplicateDatapath.PROBE);
        try (FakeSwitch first = FakeSwitch.connect(controller.port(), DPID, OFVersion.OF_13)) {
            OFSwitch old = controller.awaitSwitch(DPID);
            first.answerEcho = false; // a switch whose machine died: its connection is half open
            try (FakeSwitch second = FakeSwitch.connect(controller.port(), DPID, OFVersion.OF_13)) {
                first.awaitClosed();
                ControllerFixture.await(() -> controller.registry.getSwitch(DatapathId.of(DPID)) != old
                        && controller.registry.getSwitch(DatapathId.of(DPID)) != null, "the newcomer announced");
                ControllerFixture.await(() -> events().size() >= 3, "the second switchAdded");
                assertFalse(old.isConnected());
                List<String> events = events();
                assertEquals(3, events.size(), events.toString());
                assertTrue(events.get(0).startsWith("added"));
                assertTrue(events.get(1).startsWith("removed"));
                assertTrue(events.get(2).startsWith("added"));
                assertFalse(events.get(0).equals(events.get(2)), "the second added is the new connection");
                assertTrue(second.isOpen());
            }
        }
    }

    @Test
    void probeAdmitsANewcomerAtOnceWhenTheConnectedOneIsGone() throws Exception {
        start(DuplicateDatapath.PROBE);
        FakeSwitch first = FakeSwitch.connect(controller.port(), DPID, OFVersion.OF_13);
        OFSwitch old = controller.awaitSwitch(DPID);
        first.close(); // the switch restarted: its old connection is closed
        try (FakeSwitch second = FakeSwitch.connect(controller.port(), DPID, OFVersion.OF_13)) {
            ControllerFixture.await(() -> controller.registry.getSwitch(DatapathId.of(DPID)) != null
                    && controller.registry.getSwitch(DatapathId.of(DPID)) != old, "the reconnected switch announced");
            assertTrue(second.isOpen());
        }
    }

    @Test
    void replaceTakesTheNewcomerEvenWhileTheConnectedOneAnswers() throws Exception {
        start(DuplicateDatapath.REPLACE);
        try (FakeSwitch first = FakeSwitch.connect(controller.port(), DPID, OFVersion.OF_13)) {
            OFSwitch old = controller.awaitSwitch(DPID);
            try (FakeSwitch second = FakeSwitch.connect(controller.port(), DPID, OFVersion.OF_13)) {
                first.awaitClosed();
                ControllerFixture.await(() -> controller.registry.getSwitch(DatapathId.of(DPID)) != old
                        && controller.registry.getSwitch(DatapathId.of(DPID)) != null, "the newcomer announced");
                assertTrue(first.drain().stream().noneMatch(m -> m instanceof OFEchoRequest), "no probe: " + first.seen());
                assertEquals(1L, controller.server.counters().duplicatesReplaced.sum());
            }
        }
    }

    @Test
    void refuseKeepsTheConnectedOneEvenWhenItIsSilent() throws Exception {
        start(DuplicateDatapath.REFUSE);
        try (FakeSwitch first = FakeSwitch.connect(controller.port(), DPID, OFVersion.OF_13)) {
            OFSwitch connected = controller.awaitSwitch(DPID);
            first.answerEcho = false;
            try (FakeSwitch second = FakeSwitch.connect(controller.port(), DPID, OFVersion.OF_13)) {
                second.awaitClosed();
            }
            assertSame(connected, controller.registry.getSwitch(DatapathId.of(DPID)));
            assertTrue(connected.isConnected());
            assertEquals(1, events().size(), events().toString());
        }
    }

    @Test
    void theSettingIsParsedAndABadValueNamesIt() {
        assertEquals(DuplicateDatapath.PROBE, OpenFlowController.settings(ConfigurationTest.config(java.util.Map.of()))
                .duplicateDatapath());
        assertEquals(DuplicateDatapath.REFUSE, DuplicateDatapath.parse(" Refuse "));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> OpenFlowController.settings(ConfigurationTest.config(java.util.Map.of("duplicateDatapath", "kick"))));
        assertTrue(e.getMessage().contains("duplicateDatapath") && e.getMessage().contains("kick"), e.getMessage());
    }
}
