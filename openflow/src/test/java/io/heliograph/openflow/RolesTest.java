package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFControllerRole;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowDelete;
import org.projectfloodlight.openflow.protocol.OFNiciraControllerRole;
import org.projectfloodlight.openflow.protocol.OFNiciraControllerRoleRequest;
import org.projectfloodlight.openflow.protocol.OFPacketIn;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFRoleRequest;
import org.projectfloodlight.openflow.protocol.OFRoleRequestFailedCode;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.errormsg.OFRoleRequestFailedErrorMsg;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFErrorCauseData;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.core.OFErrorException;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.Role;

class RolesTest {

    private ControllerFixture controller;
    private FakeSwitch fake;

    @AfterEach
    void close() throws Exception {
        if (fake != null) {
            fake.close();
        }
        if (controller != null) {
            controller.close();
        }
    }

    private OFSwitch connect(OFVersion version) throws Exception {
        controller = new ControllerFixture();
        fake = FakeSwitch.connect(controller.port(), 0x21, version);
        return controller.awaitSwitch(0x21);
    }

    @Test
    void masterAppliesWhenTheSwitchConfirmsItWithTheGenerationIdAsked() throws Exception {
        OFSwitch sw = connect(OFVersion.OF_13);
        assertEquals(Role.EQUAL, sw.getRole(), "no role before one is asked for");
        CompletableFuture<Role> granted = sw.requestRole(Role.MASTER, 0x1_0000_0042L);
        OFRoleRequest request = fake.expect(OFRoleRequest.class);
        assertEquals(OFControllerRole.ROLE_MASTER, request.getRole());
        assertEquals(U64.of(0x1_0000_0042L), request.getGenerationId());
        assertEquals(Role.EQUAL, sw.getRole(), "a promotion waits for the switch");
        OFFactory f = sw.getFactory();
        fake.send(f.buildRoleReply().setXid(request.getXid()).setRole(OFControllerRole.ROLE_MASTER)
                .setGenerationId(request.getGenerationId()).build());
        assertEquals(Role.MASTER, granted.get(5, TimeUnit.SECONDS));
        assertEquals(Role.MASTER, sw.getRole());
        ControllerFixture.await(() -> controller.listener.events.contains("role MASTER"), "roleChanged(MASTER)");
    }

    @Test
    void aSlaveStopsAtOnceAndDispatchesNoPacketInsUntilItIsMasterAgain() throws Exception {
        OFSwitch sw = connect(OFVersion.OF_13);
        OFFactory f = sw.getFactory();
        CompletableFuture<Role> demoted = sw.requestRole(Role.SLAVE, 7);
        ControllerFixture.await(() -> sw.getRole() == Role.SLAVE, "SLAVE before the switch answers");
        ControllerFixture.await(() -> controller.listener.events.contains("role SLAVE"), "roleChanged(SLAVE) at once");
        OFRoleRequest request = fake.expect(OFRoleRequest.class);
        assertEquals(OFControllerRole.ROLE_SLAVE, request.getRole());
        fake.send(f.buildRoleReply().setXid(request.getXid()).setRole(OFControllerRole.ROLE_SLAVE)
                .setGenerationId(U64.of(7)).build());
        assertEquals(Role.SLAVE, demoted.get(5, TimeUnit.SECONDS));

        fake.send(packetIn(f, 1));
        CompletableFuture<Role> promoted = sw.requestRole(Role.MASTER, 8);
        OFRoleRequest second = fake.expect(OFRoleRequest.class); // the packet-in was read before this
        fake.send(f.buildRoleReply().setXid(second.getXid()).setRole(OFControllerRole.ROLE_MASTER)
                .setGenerationId(U64.of(8)).build());
        promoted.get(5, TimeUnit.SECONDS);
        fake.send(packetIn(f, 2));
        ControllerFixture.await(() -> controller.pipeline.dispatched.stream().anyMatch(m -> m instanceof OFPacketIn),
                "the master's packet-in dispatched");
        List<Long> dispatchedXids = controller.pipeline.dispatched.stream().filter(m -> m instanceof OFPacketIn)
                .map(m -> m.getXid()).toList();
        assertEquals(List.of(2L), dispatchedXids, "the packet-in that came while SLAVE was not dispatched");
    }

    @Test
    void aStaleGenerationIsRefusedAndTheRoleStaysAsItWas() throws Exception {
        OFSwitch sw = connect(OFVersion.OF_13);
        OFFactory f = sw.getFactory();
        CompletableFuture<Role> refused = sw.requestRole(Role.MASTER, 3);
        OFRoleRequest request = fake.expect(OFRoleRequest.class);
        OFRoleRequestFailedErrorMsg stale = f.errorMsgs().buildRoleRequestFailedErrorMsg().setXid(request.getXid())
                .setCode(OFRoleRequestFailedCode.STALE).setData(OFErrorCauseData.NONE).build();
        fake.send(stale);
        ExecutionException e = assertThrows(ExecutionException.class, () -> refused.get(5, TimeUnit.SECONDS));
        assertInstanceOf(OFErrorException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("STALE"), e.getCause().getMessage());
        assertEquals(Role.EQUAL, sw.getRole());
    }

    @Test
    void openFlow10UsesNiciraRoles() throws Exception {
        OFSwitch sw = connect(OFVersion.OF_10);
        OFFactory f = sw.getFactory();
        CompletableFuture<Role> granted = sw.requestRole(Role.MASTER, 99);
        OFNiciraControllerRoleRequest request = fake.expect(OFNiciraControllerRoleRequest.class);
        assertEquals(OFNiciraControllerRole.ROLE_MASTER, request.getRole());
        fake.send(f.buildNiciraControllerRoleReply().setXid(request.getXid())
                .setRole(OFNiciraControllerRole.ROLE_MASTER).build());
        assertEquals(Role.MASTER, granted.get(5, TimeUnit.SECONDS));
    }

    @Test
    void aClusteredControllerLeavesTheFlowTableOfAConnectingSwitchAlone() throws Exception {
        controller = new ControllerFixture();
        controller.registry.setClustered(true);
        fake = FakeSwitch.connect(controller.port(), 0x22, OFVersion.OF_13);
        controller.awaitSwitch(0x22);
        fake.expect(OFFlowAdd.class); // the table-miss flow, which a connect without a cluster sends after the delete
        assertTrue(fake.seen().stream().noneMatch(m -> m instanceof OFFlowDelete), "no flow deleted: " + fake.seen());
    }

    private static OFPacketIn packetIn(OFFactory f, long xid) {
        return f.buildPacketIn().setXid(xid).setBufferId(OFBufferId.NO_BUFFER).setReason(OFPacketInReason.NO_MATCH)
                .setMatch(f.buildMatch().setExact(org.projectfloodlight.openflow.protocol.match.MatchField.IN_PORT,
                        OFPort.of(1)).build())
                .setData(new byte[60]).build();
    }
}
