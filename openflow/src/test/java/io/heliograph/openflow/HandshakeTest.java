package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.protocol.OFBarrierRequest;
import org.projectfloodlight.openflow.protocol.OFDescStatsRequest;
import org.projectfloodlight.openflow.protocol.OFEchoReply;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFErrorType;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowDelete;
import org.projectfloodlight.openflow.protocol.OFHelloFailedCode;
import org.projectfloodlight.openflow.protocol.OFSetConfig;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFActionOutput;
import org.projectfloodlight.openflow.protocol.errormsg.OFHelloFailedErrorMsg;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionApplyActions;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFErrorCauseData;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.SwitchInitializer;

class HandshakeTest {

    private ControllerFixture controller;

    @AfterEach
    void stop() {
        if (controller != null) {
            controller.close();
        }
    }

    @ParameterizedTest
    @EnumSource(value = OFVersion.class, names = {"OF_10", "OF_13", "OF_14", "OF_15"})
    void completesTheHandshakeInEachVersion(OFVersion version) throws Exception {
        controller = new ControllerFixture();
        try (FakeSwitch sw = FakeSwitch.connect(controller.port(), 0x42, version)) {
            OFSetConfig config = sw.expect(OFSetConfig.class);
            assertEquals(0xffff, config.getMissSendLen());
            OFFlowDelete delete = sw.expect(OFFlowDelete.class);
            assertEquals(version, delete.getVersion());
            if (version != OFVersion.OF_10) {
                OFFlowAdd miss = sw.expect(OFFlowAdd.class);
                assertEquals(0, miss.getPriority());
                OFInstructionApplyActions apply = (OFInstructionApplyActions) miss.getInstructions().get(0);
                OFActionOutput out = (OFActionOutput) apply.getActions().get(0);
                assertEquals(OFPort.CONTROLLER, out.getPort());
                assertEquals(0xffff, out.getMaxLen());
            }
            sw.expect(OFBarrierRequest.class);

            OFSwitch active = controller.awaitSwitch(0x42);
            assertEquals(version, active.getVersion());
            assertEquals(version, active.getFactory().getVersion());
            assertEquals(3, active.getPorts().size());
            assertEquals("eth2", active.getPort(OFPort.of(2)).getName());
            ControllerFixture.await(() -> active.getDescription() != null, "the description");
            assertEquals("FakeSwitch", active.getDescription().getSwDesc());
            assertEquals(DatapathId.of(0x42), active.getFeatures().getDatapathId());
            assertNotNull(active.getConnectedSince());
            assertTrue(active.isConnected());
            ControllerFixture.await(() -> controller.listener.events.stream().anyMatch(e -> e.startsWith("added")),
                    "switchAdded");
        }
        ControllerFixture.await(() -> controller.registry.getSwitches().isEmpty(), "switch removed on disconnect");
        ControllerFixture.await(() -> controller.listener.events.stream().anyMatch(e -> e.startsWith("removed")),
                "switchRemoved");
    }

    @ParameterizedTest
    @EnumSource(value = OFVersion.class, names = {"OF_13", "OF_15"})
    void aSwitchKeepingItsFlowsStillGetsTheTableMissFlow(OFVersion version) throws Exception {
        controller = new ControllerFixture(ControllerFixture.testSettings().withClearFlows(false));
        try (FakeSwitch sw = FakeSwitch.connect(controller.port(), 0x43, version)) {
            OFFlowAdd miss = sw.expect(OFFlowAdd.class);
            assertEquals(0, miss.getPriority());
            assertFalse(miss.getMatch().getMatchFields().iterator().hasNext(), "matches everything: " + miss);
            sw.expect(OFBarrierRequest.class);
            controller.awaitSwitch(0x43);
            assertTrue(sw.seen().stream().noneMatch(m -> m instanceof OFFlowDelete), "flows kept: " + sw.seen());
        }
    }

    @Test
    void negotiatesTheHighestVersionBothOffer() throws Exception {
        controller = new ControllerFixture();
        try (FakeSwitch sw = FakeSwitch.connect(controller.port(), 1, OFVersion.OF_10, OFVersion.OF_13)) {
            assertEquals(OFVersion.OF_13, controller.awaitSwitch(1).getVersion());
        }
    }

    @Test
    void offersOnlyTheConfiguredVersions() throws Exception {
        controller = new ControllerFixture(ControllerFixture.testSettings()
                .withVersions(OpenFlowVersions.parse("1.0,1.4")));
        try (FakeSwitch sw = FakeSwitch.connect(controller.port(), 2, OFVersion.OF_13, OFVersion.OF_14, OFVersion.OF_15)) {
            HelloMessage hello = sw.expect(HelloMessage.class);
            assertEquals(java.util.Set.of(1, 5), hello.bitmapVersions());
            assertEquals(OFVersion.OF_14, controller.awaitSwitch(2).getVersion());
        }
    }

    @Test
    void refusesASwitchWithNoCommonVersion() throws Exception {
        controller = new ControllerFixture(ControllerFixture.testSettings().withVersions(OpenFlowVersions.parse("1.3,1.4")));
        try (FakeSwitch sw = FakeSwitch.connect(controller.port(), 3, OFVersion.OF_10, OFVersion.OF_15)) {
            OFHelloFailedErrorMsg error = sw.expect(OFHelloFailedErrorMsg.class);
            assertEquals(OFErrorType.HELLO_FAILED, error.getErrType());
            assertEquals(OFHelloFailedCode.INCOMPATIBLE, error.getCode());
            sw.awaitClosed();
            assertTrue(controller.registry.getSwitches().isEmpty());
        }
    }

    @Test
    void dropsASwitchThatStallsInTheHandshake() throws Exception {
        controller = new ControllerFixture(ControllerFixture.testSettings()
                .withTimeouts(Duration.ofMillis(500), Duration.ofSeconds(30), Duration.ofSeconds(2), Duration.ofSeconds(5)));
        try (FakeSwitch sw = FakeSwitch.connect(controller.port(), 4, OFVersion.OF_13)) {
            sw.answerHandshake = false;
            sw.expect(org.projectfloodlight.openflow.protocol.OFFeaturesRequest.class);
            sw.awaitClosed();
            assertNull(controller.registry.getSwitch(DatapathId.of(4)));
        }
    }

    @Test
    void runsInitializersInNameOrderBeforeAnnouncing() throws Exception {
        controller = new ControllerFixture();
        List<String> order = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> slow = new CompletableFuture<>();
        controller.registry.addInitializer(initializer("b-second", sw -> {
            order.add("b-second announced=" + (controller.registry.getSwitch(sw.getId()) != null));
            return CompletableFuture.completedFuture(null);
        }));
        controller.registry.addInitializer(initializer("a-first", sw -> {
            order.add("a-first");
            return slow; // completes later, from a foreign thread
        }));
        try (FakeSwitch sw = FakeSwitch.connect(controller.port(), 5, OFVersion.OF_13)) {
            ControllerFixture.await(() -> order.size() == 1, "first initializer started");
            assertNull(controller.registry.getSwitch(DatapathId.of(5)));
            new Thread(() -> slow.complete(null)).start();
            controller.awaitSwitch(5);
            assertEquals(List.of("a-first", "b-second announced=false"), order);
        }
    }

    @Test
    void disconnectsWhenAnInitializerFails() throws Exception {
        controller = new ControllerFixture();
        controller.registry.addInitializer(initializer("broken",
                sw -> CompletableFuture.failedFuture(new IllegalStateException("no table space"))));
        try (FakeSwitch sw = FakeSwitch.connect(controller.port(), 6, OFVersion.OF_13)) {
            sw.awaitClosed();
            assertNull(controller.registry.getSwitch(DatapathId.of(6)));
        }
    }

    @Test
    void anInitializerThatNeverFinishesHitsTheHandshakeTimeout() throws Exception {
        controller = new ControllerFixture(ControllerFixture.testSettings()
                .withTimeouts(Duration.ofMillis(500), Duration.ofSeconds(30), Duration.ofSeconds(2), Duration.ofSeconds(5)));
        controller.registry.addInitializer(initializer("stuck", sw -> new CompletableFuture<>()));
        try (FakeSwitch sw = FakeSwitch.connect(controller.port(), 8, OFVersion.OF_13)) {
            sw.awaitClosed();
            assertNull(controller.registry.getSwitch(DatapathId.of(8)));
            assertTrue(controller.listener.events.isEmpty(), "never announced");
        }
    }

    @ParameterizedTest
    @EnumSource(value = OFVersion.class, names = {"OF_10", "OF_13"})
    void aSwitchThatAnswersNoDescriptionNoBarrierAndNoRoleRequestIsAnnouncedAndServed(OFVersion version)
            throws Exception {
        controller = new ControllerFixture();
        // As the cluster's mastership does: asks for a role, and completes without waiting for the answer.
        controller.registry.addInitializer(initializer("role", sw -> {
            sw.requestRole(io.heliograph.core.Role.MASTER, 1);
            return CompletableFuture.completedFuture(null);
        }));
        try (FakeSwitch sw = FakeSwitch.connect(controller.port(), 0x44, version)) {
            sw.answerDescription = false;
            sw.answerBarrier = false; // and it never answers role requests (the fake knows none)
            OFSwitch active = controller.awaitSwitch(0x44);
            sw.expect(OFDescStatsRequest.class);
            sw.expect(OFBarrierRequest.class);
            assertTrue(active.isConnected());
            assertNull(active.getDescription(), "announced without a description");
            assertEquals(io.heliograph.core.Role.EQUAL, active.getRole(), "served as before any role: like a master");
            assertEquals(3, active.getPorts().size());

            OFFactory f = active.getFactory();
            sw.send(packetIn(f, 0x4444));
            ControllerFixture.await(() -> controller.pipeline.dispatched.stream().anyMatch(m -> m.getXid() == 0x4444),
                    "its packet-in reaches the apps");
            sw.send(f.buildEchoRequest().setXid(0x4445).setData(new byte[0]).build());
            sw.expect(OFEchoReply.class, r -> r.getXid() == 0x4445);
            assertTrue(active.isConnected());
        }
    }

    @Test
    void aSwitchThatRefusesTheRoleRequestOnOpenFlow10IsServed() throws Exception {
        controller = new ControllerFixture();
        controller.registry.addInitializer(initializer("role", sw -> {
            sw.requestRole(io.heliograph.core.Role.MASTER, 1);
            return CompletableFuture.completedFuture(null);
        }));
        try (FakeSwitch sw = FakeSwitch.connect(controller.port(), 0x45, OFVersion.OF_10)) {
            OFSwitch active = controller.awaitSwitch(0x45);
            OFFactory f = active.getFactory();
            var request = sw.expect(org.projectfloodlight.openflow.protocol.OFNiciraControllerRoleRequest.class);
            sw.send(f.errorMsgs().buildBadRequestErrorMsg().setXid(request.getXid())
                    .setCode(OFBadRequestCode.BAD_EXPERIMENTER).setData(OFErrorCauseData.NONE).build());
            sw.send(packetIn(f, 0x4545));
            ControllerFixture.await(() -> controller.pipeline.dispatched.stream().anyMatch(m -> m.getXid() == 0x4545),
                    "its packet-in reaches the apps");
            assertEquals(io.heliograph.core.Role.EQUAL, active.getRole());
            assertTrue(active.isConnected());
        }
    }

    @Test
    void aDescriptionThatComesLateIsFilledInThen() throws Exception {
        controller = new ControllerFixture();
        try (FakeSwitch sw = FakeSwitch.connect(controller.port(), 0x46, OFVersion.OF_13)) {
            sw.answerDescription = false;
            OFDescStatsRequest asked = sw.expect(OFDescStatsRequest.class);
            OFSwitch active = controller.awaitSwitch(0x46);
            assertNull(active.getDescription());
            sw.send(active.getFactory().buildDescStatsReply().setXid(asked.getXid()).setMfrDesc("Late Inc.")
                    .setHwDesc("slow").setSwDesc("1.0").setSerialNum("7").setDpDesc("late").build());
            ControllerFixture.await(() -> active.getDescription() != null, "the late description");
            assertEquals("Late Inc.", active.getDescription().getMfrDesc());
        }
    }

    @Test
    void anUnansweredDescriptionRequestIsAskedAgainAndTheAnswerToALaterOneIsTaken() throws Exception {
        // Requests time out after 300 ms: the second try follows a second later.
        controller = new ControllerFixture(ControllerFixture.testSettings()
                .withTimeouts(Duration.ofSeconds(3), Duration.ofSeconds(30), Duration.ofSeconds(2), Duration.ofMillis(300)));
        try (FakeSwitch sw = FakeSwitch.connect(controller.port(), 0x47, OFVersion.OF_13)) {
            sw.answerDescription = false;
            OFDescStatsRequest first = sw.expect(OFDescStatsRequest.class);
            OFSwitch active = controller.awaitSwitch(0x47);
            OFDescStatsRequest second = sw.expect(OFDescStatsRequest.class);
            assertNotEquals(first.getXid(), second.getXid(), "a new request");
            sw.send(active.getFactory().buildDescStatsReply().setXid(second.getXid()).setMfrDesc("Second try")
                    .setHwDesc("").setSwDesc("").setSerialNum("").setDpDesc("").build());
            ControllerFixture.await(() -> active.getDescription() != null, "the description");
            assertEquals("Second try", active.getDescription().getMfrDesc());
            assertTrue(active.isConnected());
        }
    }

    @Test
    void theConfigurationAndItsBarrierReachTheSwitchBeforeWhatAppsWriteOnAnnouncement() throws Exception {
        controller = new ControllerFixture();
        controller.registry.addListener(new io.heliograph.core.SwitchListener() {
            @Override
            public void switchAdded(OFSwitch sw) {
                sw.write(packetOut(sw.getFactory(), 0x4848));
            }
        });
        try (FakeSwitch sw = FakeSwitch.connect(controller.port(), 0x48, OFVersion.OF_13)) {
            sw.answerBarrier = false;
            sw.expect(org.projectfloodlight.openflow.protocol.OFPacketOut.class, p -> p.getXid() == 0x4848);
            List<String> order = sw.seen().stream().map(m -> m instanceof OFSetConfig ? "SET_CONFIG"
                    : m instanceof OFFlowDelete ? "FLOW_DELETE" : m instanceof OFFlowAdd ? "FLOW_ADD"
                    : m instanceof OFBarrierRequest ? "BARRIER"
                    : m instanceof org.projectfloodlight.openflow.protocol.OFPacketOut ? "PACKET_OUT" : null)
                    .filter(java.util.Objects::nonNull).toList();
            assertEquals(List.of("SET_CONFIG", "FLOW_DELETE", "FLOW_ADD", "BARRIER", "PACKET_OUT"), order);
        }
    }

    private static OFPacketIn packetIn(OFFactory f, long xid) {
        OFPacketIn.Builder b = f.buildPacketIn().setXid(xid).setBufferId(OFBufferId.NO_BUFFER)
                .setReason(OFPacketInReason.NO_MATCH).setTotalLen(60).setData(new byte[60]);
        if (f.getVersion() == OFVersion.OF_10) {
            b.setInPort(OFPort.of(1));
        } else {
            b.setMatch(f.buildMatch().setExact(org.projectfloodlight.openflow.protocol.match.MatchField.IN_PORT,
                    OFPort.of(1)).build());
        }
        return b.build();
    }

    private static org.projectfloodlight.openflow.protocol.OFPacketOut packetOut(OFFactory f, long xid) {
        return f.buildPacketOut().setXid(xid).setBufferId(OFBufferId.NO_BUFFER).setData(new byte[60]).build();
    }

    private static SwitchInitializer initializer(String name, java.util.function.Function<OFSwitch, CompletionStage<Void>> body) {
        return new SwitchInitializer() {
            @Override
            public String getName() {
                return name;
            }

            @Override
            public CompletionStage<Void> initialize(OFSwitch sw) {
                return body.apply(sw);
            }
        };
    }
}
