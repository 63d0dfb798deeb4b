package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.projectfloodlight.openflow.exceptions.OFParseError;
import org.projectfloodlight.openflow.protocol.OFBarrierRequest;
import org.projectfloodlight.openflow.protocol.OFEchoRequest;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.OFSwitch;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

class SwitchFactoriesTest {

    @ParameterizedTest
    @EnumSource(OFVersion.class)
    void everyBuilderTakesTheSuppliedXidsAndNotLoxisGlobalOnes(OFVersion version) {
        AtomicLong xids = new AtomicLong(500);
        OFFactory factory = SwitchFactories.of(version, xids::getAndIncrement);
        OFFactory loxi = OFFactories.getFactory(version);
        long globalBefore = loxi.nextXid();

        OFMessage barrier = factory.buildBarrierRequest().build();
        OFMessage echo = factory.buildEchoRequest().setData(new byte[] {7}).build();
        OFMessage packetOut = factory.buildPacketOut()
                .setBufferId(OFBufferId.NO_BUFFER)
                .setActions(List.<OFAction>of(factory.actions().output(OFPort.of(3), 0xffff)))
                .setData(new byte[] {1, 2, 3})
                .build();

        assertEquals(500, barrier.getXid());
        assertEquals(501, echo.getXid());
        assertEquals(502, packetOut.getXid());
        assertEquals(503, factory.nextXid());
        assertEquals(globalBefore + 1, loxi.nextXid(), "Loxi's global counter was not used");
        assertEquals(version, factory.getVersion());
    }

    @ParameterizedTest
    @EnumSource(OFVersion.class)
    void theMessagesAreLoxisOwnOnTheWire(OFVersion version) {
        OFFactory factory = SwitchFactories.of(version, () -> 42);
        OFFactory loxi = OFFactories.getFactory(version);
        OFMessage ours = factory.buildEchoRequest().setData(new byte[] {1, 2}).build();
        OFMessage theirs = loxi.buildEchoRequest().setXid(42).setData(new byte[] {1, 2}).build();
        assertEquals(theirs, ours);
        assertEquals(bytes(theirs), bytes(ours));
        assertEquals(theirs, readBack(factory, ours));
    }

    @Test
    void aSwitchsFactoryAndItsRequestsShareTheConnectionsXids() throws Exception {
        // no keepalive within the test, so nothing but this test takes the connection's xids
        OpenFlowSettings quiet = ControllerFixture.testSettings()
                .withTimeouts(Duration.ofSeconds(3), Duration.ofSeconds(60), Duration.ofSeconds(60), Duration.ofSeconds(2));
        try (ControllerFixture controller = new ControllerFixture(quiet);
             FakeSwitch fake = FakeSwitch.connect(controller.port(), 0x21, OFVersion.OF_13);
             FakeSwitch other = FakeSwitch.connect(controller.port(), 0x22, OFVersion.OF_13)) {
            OFSwitch sw = controller.awaitSwitch(0x21);
            OFFactory otherFactory = controller.awaitSwitch(0x22).getFactory();
            long first = sw.getFactory().buildBarrierRequest().build().getXid();
            otherFactory.buildBarrierRequest().build(); // another switch's xids are its own
            long second = sw.getFactory().buildBarrierRequest().build().getXid();
            assertEquals(first + 1, second);

            sw.write(sw.getFactory().buildEchoRequest().setData(new byte[] {9}).build());
            OFEchoRequest echo = fake.expect(OFEchoRequest.class, e -> e.getData().length == 1 && e.getData()[0] == 9);
            assertEquals(second + 1, echo.getXid());
            sw.barrier();
            long request = fake.expect(OFBarrierRequest.class).getXid();
            assertTrue(request > second + 1, "a request's xid comes after");
            assertEquals(request + 1, sw.getFactory().nextXid(), "requests and the factory count on one counter");
        }
    }

    private static String bytes(OFMessage message) {
        ByteBuf buf = Unpooled.buffer();
        message.writeTo(buf);
        return ByteBufUtil.hexDump(buf);
    }

    private static OFMessage readBack(OFFactory factory, OFMessage message) {
        ByteBuf buf = Unpooled.buffer();
        message.writeTo(buf);
        try {
            return factory.getReader().readFrom(buf);
        } catch (OFParseError e) {
            throw new AssertionError(e);
        }
    }
}
