package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFBadRequestCode;
import org.projectfloodlight.openflow.protocol.OFBarrierReply;
import org.projectfloodlight.openflow.protocol.OFEchoReply;
import org.projectfloodlight.openflow.protocol.OFEchoRequest;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowStatsEntry;
import org.projectfloodlight.openflow.protocol.OFFlowStatsReply;
import org.projectfloodlight.openflow.protocol.OFFlowStatsRequest;
import org.projectfloodlight.openflow.protocol.OFGetConfigReply;
import org.projectfloodlight.openflow.protocol.OFGetConfigRequest;
import org.projectfloodlight.openflow.protocol.OFPortReason;
import org.projectfloodlight.openflow.protocol.OFStatsReplyFlags;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.core.OFErrorException;
import io.heliograph.core.OFSwitch;

class RequestsTest {

    private ControllerFixture controller;
    private FakeSwitch fake;
    private OFSwitch sw;
    private OFFactory f;

    @BeforeEach
    void connect() throws Exception {
        controller = new ControllerFixture(ControllerFixture.testSettings()
                .withTimeouts(Duration.ofSeconds(3), Duration.ofSeconds(30), Duration.ofSeconds(2), Duration.ofMillis(300)));
        fake = FakeSwitch.connect(controller.port(), 0x10, OFVersion.OF_13);
        sw = controller.awaitSwitch(0x10);
        f = sw.getFactory();
    }

    @AfterEach
    void close() throws IOException {
        fake.close();
        controller.close();
    }

    @Test
    void collectsEveryPartOfAMultipartReplyFromAForeignThread() throws Exception {
        CompletableFuture<List<OFFlowStatsReply>> future = CompletableFuture
                .supplyAsync(() -> sw.requestStatistics(f.buildFlowStatsRequest().build()))
                .thenCompose(x -> x);
        OFFlowStatsRequest request = fake.expect(OFFlowStatsRequest.class);
        for (int part = 0; part < 3; part++) {
            fake.send(f.buildFlowStatsReply().setXid(request.getXid())
                    .setFlags(part < 2 ? Set.of(OFStatsReplyFlags.REPLY_MORE) : Set.of())
                    .setEntries(List.of(entry(part * 2), entry(part * 2 + 1))).build());
            if (part < 2) {
                assertTrue(!future.isDone(), "not complete while REPLY_MORE is set");
            }
        }
        List<OFFlowStatsReply> parts = future.get(5, TimeUnit.SECONDS);
        assertEquals(3, parts.size());
        long[] cookies = parts.stream().flatMap(p -> p.getEntries().stream())
                .mapToLong(e -> e.getCookie().getValue()).toArray();
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L), java.util.Arrays.stream(cookies).boxed().toList());
        assertTrue(controller.pipeline.dispatched.stream().noneMatch(m -> m instanceof OFFlowStatsReply),
                "answers to requests do not go to the pipeline");
    }

    private OFFlowStatsEntry entry(int cookie) {
        return f.buildFlowStatsEntry().setCookie(U64.of(cookie)).setMatch(f.buildMatch().build()).build();
    }

    @Test
    void aSingleReplyRequestCompletesWithTheReplyOfItsXid() throws Exception {
        CompletableFuture<OFGetConfigReply> future = sw.request(f.buildGetConfigRequest().build());
        OFGetConfigRequest request = fake.expect(OFGetConfigRequest.class);
        fake.send(f.buildGetConfigReply().setXid(request.getXid() + 1000).setMissSendLen(1).build()); // someone else's
        fake.send(f.buildGetConfigReply().setXid(request.getXid()).setMissSendLen(128).build());
        assertEquals(128, future.get(5, TimeUnit.SECONDS).getMissSendLen());
        ControllerFixture.await(() -> controller.pipeline.dispatched.stream()
                .anyMatch(m -> m instanceof OFGetConfigReply r && r.getMissSendLen() == 1),
                "the unsolicited reply goes to the pipeline");
    }

    @Test
    void barrierCompletesWhenTheSwitchAnswers() throws Exception {
        OFBarrierReply reply = sw.barrier().get(5, TimeUnit.SECONDS); // the fake switch answers barriers
        assertEquals(OFVersion.OF_13, reply.getVersion());
    }

    @Test
    void echoRequestIsAFuture() throws Exception {
        OFEchoReply reply = sw.request(f.buildEchoRequest().setData(new byte[] {7, 8}).build()).get(5, TimeUnit.SECONDS);
        assertEquals(List.of((byte) 7, (byte) 8), List.of(reply.getData()[0], reply.getData()[1]));
    }

    @Test
    void anErrorAnswerCompletesExceptionally() throws Exception {
        CompletableFuture<OFGetConfigReply> future = sw.request(f.buildGetConfigRequest().build());
        OFGetConfigRequest request = fake.expect(OFGetConfigRequest.class);
        fake.send(f.errorMsgs().buildBadRequestErrorMsg().setXid(request.getXid()).setCode(OFBadRequestCode.EPERM).build());
        ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(5, TimeUnit.SECONDS));
        OFErrorException error = assertInstanceOf(OFErrorException.class, e.getCause());
        assertEquals(request.getXid(), error.getError().getXid());
    }

    @Test
    void anUnansweredRequestTimesOutAndTheConnectionStays() throws Exception {
        CompletableFuture<OFGetConfigReply> future = sw.request(f.buildGetConfigRequest().build());
        fake.expect(OFGetConfigRequest.class);
        ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(5, TimeUnit.SECONDS));
        assertInstanceOf(TimeoutException.class, e.getCause());
        assertTrue(sw.isConnected());
        sw.barrier().get(5, TimeUnit.SECONDS);
    }

    @Test
    void disconnectFailsPendingRequests() throws Exception {
        controller.close();
        controller = new ControllerFixture(); // long request timeout: only the disconnect can fail it
        fake.close();
        fake = FakeSwitch.connect(controller.port(), 0x11, OFVersion.OF_13);
        sw = controller.awaitSwitch(0x11);
        CompletableFuture<OFGetConfigReply> future = sw.request(sw.getFactory().buildGetConfigRequest().build());
        fake.expect(OFGetConfigRequest.class);
        fake.close();
        ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(1, TimeUnit.SECONDS));
        assertInstanceOf(IOException.class, e.getCause());
        assertTrue(!sw.write(sw.getFactory().buildBarrierRequest().build()), "write on a closed switch says false");
    }

    @Test
    void portStatusUpdatesThePortTableAndTellsListeners() throws Exception {
        fake.send(f.buildPortStatus().setReason(OFPortReason.ADD)
                .setDesc(f.buildPortDesc().setPortNo(OFPort.of(9)).setName("new9")
                        .setHwAddr(org.projectfloodlight.openflow.types.MacAddress.of(9)).build()).build());
        ControllerFixture.await(() -> sw.getPort(OFPort.of(9)) != null, "port 9 added");
        fake.send(f.buildPortStatus().setReason(OFPortReason.DELETE)
                .setDesc(f.buildPortDesc().setPortNo(OFPort.of(1)).setName("eth1")
                        .setHwAddr(org.projectfloodlight.openflow.types.MacAddress.of(1)).build()).build());
        ControllerFixture.await(() -> sw.getPort(OFPort.of(1)) == null, "port 1 deleted");
        assertEquals(3, sw.getPorts().size());
        ControllerFixture.await(() -> controller.listener.events.containsAll(List.of("port ADDED 9", "port DELETED 1")),
                "listeners told");
    }

    @Test
    void echoRequestsFromTheSwitchAreAnswered() throws Exception {
        fake.send(f.buildEchoRequest().setXid(777).setData(new byte[] {1, 2, 3}).build());
        OFEchoReply reply = fake.expect(OFEchoReply.class, r -> r.getXid() == 777);
        assertEquals(3, reply.getData().length);
        assertTrue(controller.pipeline.dispatched.stream().noneMatch(m -> m instanceof OFEchoRequest));
    }
}
