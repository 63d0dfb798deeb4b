package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFBarrierReply;
import org.projectfloodlight.openflow.protocol.OFBarrierRequest;
import org.projectfloodlight.openflow.protocol.OFEchoReply;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowStatsReply;
import org.projectfloodlight.openflow.protocol.OFFlowStatsRequest;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.errormsg.OFBadRequestErrorMsg;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.OFSwitch;

/**
 * Answers a request cannot use, and a switch that answers nothing: D7 (a malformed reply fails its
 * request at once, naming the problem, instead of at the timeout) and the bound on pending requests.
 */
class HostileRepliesTest {

    private static final int MAX_PENDING = 3;

    private ControllerFixture controller;
    private FakeSwitch fake;
    private OFSwitch sw;
    private OFFactory f;

    @BeforeEach
    void connect() throws Exception {
        // Requests wait 30 s: a request that ends within the test ended because of the reply.
        controller = new ControllerFixture(ControllerFixture.testSettings()
                .withTimeouts(Duration.ofSeconds(3), Duration.ofSeconds(30), Duration.ofSeconds(2), Duration.ofSeconds(30))
                .withLimits(SwitchLimits.DEFAULTS.withMaxPendingRequests(MAX_PENDING)));
        fake = FakeSwitch.connect(controller.port(), 0x70, OFVersion.OF_13);
        sw = controller.awaitSwitch(0x70);
        f = sw.getFactory();
    }

    @AfterEach
    void close() throws IOException {
        fake.close();
        controller.close();
    }

    @Test
    void aMalformedStatisticsReplyFailsItsRequestAtOnceNamingTheProblem() throws Exception {
        CompletableFuture<List<OFFlowStatsReply>> flows = sw.requestStatistics(f.buildFlowStatsRequest().build());
        OFFlowStatsRequest request = fake.expect(OFFlowStatsRequest.class);
        // A MULTIPART_REPLY of FLOW statistics whose one entry is 10 bytes long (an entry is at least 56).
        ByteBuffer b = ByteBuffer.allocate(16 + 10);
        b.put((byte) 4).put((byte) 19).putShort((short) 26).putInt((int) request.getXid());
        b.putShort((short) 1).putShort((short) 0).putInt(0);
        b.putShort((short) 10).put(new byte[8]);
        byte[] malformed = b.array();
        assertInstanceOf(UndecodableMessage.class, OFMessageDecoder.decode(io.netty.buffer.Unpooled.wrappedBuffer(malformed)),
                "the reply really is undecodable");
        long sent = System.nanoTime();
        fake.sendRaw(malformed);

        ExecutionException e = assertThrows(ExecutionException.class, () -> flows.get(5, TimeUnit.SECONDS));
        long ms = (System.nanoTime() - sent) / 1_000_000;
        ProtocolException cause = assertInstanceOf(ProtocolException.class, e.getCause());
        assertTrue(cause.getMessage().contains("xid " + request.getXid()) && cause.getMessage().contains("cannot be decoded")
                && cause.getMessage().contains("malformed STATS_REPLY"), cause.getMessage());
        System.out.printf("malformed reply to xid %d: request failed %d ms after it was sent (timeout 30000 ms)%n",
                request.getXid(), ms);
        // answered with an error as any undecodable message, and the connection goes on
        fake.expect(OFBadRequestErrorMsg.class, m -> m.getXid() == request.getXid());
        assertEquals(1L, sw.getCounters().get("badInput.BAD_REQUEST/BAD_LEN"), sw.getCounters().toString());
        fake.send(f.buildEchoRequest().setXid(77).setData(new byte[0]).build());
        fake.expect(OFEchoReply.class, r -> r.getXid() == 77);
    }

    @Test
    void statisticsOfAnotherKindWithTheXidFailTheRequest() throws Exception {
        CompletableFuture<List<OFFlowStatsReply>> flows = sw.requestStatistics(f.buildFlowStatsRequest().build());
        OFFlowStatsRequest request = fake.expect(OFFlowStatsRequest.class);
        fake.send(f.buildPortStatsReply().setXid(request.getXid()).setEntries(List.of(f.buildPortStatsEntry()
                .setPortNo(OFPort.of(1)).build())).build());
        ExecutionException e = assertThrows(ExecutionException.class, () -> flows.get(5, TimeUnit.SECONDS));
        ProtocolException cause = assertInstanceOf(ProtocolException.class, e.getCause());
        assertTrue(cause.getMessage().contains("FLOW") && cause.getMessage().contains("PORT"), cause.getMessage());
    }

    @Test
    void requestsBeyondTheBoundFailAtOnceAndAreCounted() throws Exception {
        fake.answerBarrier = false;
        fake.expect(OFBarrierRequest.class); // the handshake's, answered then
        List<CompletableFuture<OFBarrierReply>> waiting = new ArrayList<>();
        List<OFBarrierRequest> written = new ArrayList<>();
        for (int i = 0; i < MAX_PENDING; i++) {
            waiting.add(sw.barrier());
            written.add(fake.expect(OFBarrierRequest.class));
        }
        CompletableFuture<OFBarrierReply> refused = sw.barrier();
        ExecutionException e = assertThrows(ExecutionException.class, () -> refused.get(1, TimeUnit.SECONDS));
        RejectedExecutionException cause = assertInstanceOf(RejectedExecutionException.class, e.getCause());
        assertTrue(cause.getMessage().contains("maxPendingRequests") && cause.getMessage().contains(String.valueOf(MAX_PENDING)),
                cause.getMessage());
        assertEquals(1L, sw.getCounters().get("requestsRefused"));
        assertEquals(1L, controller.server.counters().requestsRefused.sum());
        assertTrue(waiting.stream().noneMatch(CompletableFuture::isDone), "the bounded ones still wait");

        // One answered makes room for one more, which reaches the switch.
        fake.send(f.buildBarrierReply().setXid(written.get(0).getXid()).build());
        waiting.get(0).get(5, TimeUnit.SECONDS);
        CompletableFuture<OFBarrierReply> next = sw.barrier();
        OFBarrierRequest nextWritten = fake.expect(OFBarrierRequest.class);
        fake.send(f.buildBarrierReply().setXid(nextWritten.getXid()).build());
        next.get(5, TimeUnit.SECONDS);
        assertEquals(1 + MAX_PENDING + 1, fake.drain().stream().filter(m -> m instanceof OFBarrierRequest).count(),
                "the handshake's, the bounded ones and the last: the refused request was never written");
    }
}
