package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFVersion;

class ConfigurationTest {

    /** The configuration annotation as Configuration Admin would hand it over: defaults plus overrides. */
    static OpenFlowConfiguration config(Map<String, Object> overrides) {
        return (OpenFlowConfiguration) Proxy.newProxyInstance(OpenFlowConfiguration.class.getClassLoader(),
                new Class<?>[] {OpenFlowConfiguration.class}, (proxy, method, args) -> {
                    if (overrides.containsKey(method.getName())) {
                        return overrides.get(method.getName());
                    }
                    return method.getDefaultValue();
                });
    }

    @Test
    void defaultsMatchTheDocumentedOnes() {
        OpenFlowSettings s = OpenFlowController.settings(config(Map.of()));
        assertEquals(6653, s.port());
        assertEquals("0.0.0.0", s.address());
        assertEquals(Runtime.getRuntime().availableProcessors(), s.ioThreads());
        assertEquals(List.of(OFVersion.OF_10, OFVersion.OF_13, OFVersion.OF_14, OFVersion.OF_15), List.copyOf(s.versions()));
        assertEquals(0xffff, s.missSendLen());
        assertTrue(s.clearFlowsOnConnect());
        assertEquals(4L << 20, s.maxPendingWriteBytes());
        assertFalse(s.tlsEnabled());
    }

    @Test
    void tlsNeedsCertificateAndKey() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OpenFlowController.settings(config(Map.of("tls_port", 6654))));
        assertTrue(e.getMessage().contains("tls.certificate"), e.getMessage());
        OpenFlowSettings s = OpenFlowController.settings(config(Map.of("tls_port", 6654,
                "tls_certificate", "/etc/heliograph/cert.pem", "tls_key", "/etc/heliograph/key.pem")));
        assertEquals(6654, s.tlsPort());
        assertEquals(Path.of("/etc/heliograph/key.pem"), s.tlsKey());
        assertNull(s.tlsTrust());
    }

    @Test
    void badValuesAreRejectedWithTheirName() {
        IllegalArgumentException v = assertThrows(IllegalArgumentException.class,
                () -> OpenFlowController.settings(config(Map.of("versions", "1.3,1.7"))));
        assertTrue(v.getMessage().contains("'1.7'"), v.getMessage());
        IllegalArgumentException t = assertThrows(IllegalArgumentException.class,
                () -> OpenFlowController.settings(config(Map.of("echoIdleMs", 0L))));
        assertTrue(t.getMessage().contains("echoIdleMs"), t.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> OpenFlowController.settings(config(Map.of("missSendLen", 70000))));
        IllegalArgumentException w = assertThrows(IllegalArgumentException.class,
                () -> OpenFlowController.settings(config(Map.of("maxPendingWriteBytes", 65535L))));
        assertTrue(w.getMessage().contains("maxPendingWriteBytes") && w.getMessage().contains("65535"), w.getMessage());
    }

    @Test
    void theWriteHighWaterMarkLeavesAWritersRoomBelowTheBound() {
        OpenFlowSettings smallest = OpenFlowController.settings(config(Map.of("maxPendingWriteBytes", 65536L)));
        assertEquals((65536 - io.heliograph.core.OFSwitch.WRITABLE_ROOM_BYTES) / 2, smallest.writeBufferWaterMark().high());
        assertTrue(smallest.writeBufferWaterMark().high() + io.heliograph.core.OFSwitch.WRITABLE_ROOM_BYTES < 65536);
        OpenFlowSettings usual = OpenFlowController.settings(config(Map.of()));
        assertTrue(usual.writeBufferWaterMark().high() < usual.maxPendingWriteBytes());
        assertTrue(usual.writeBufferWaterMark().low() < usual.writeBufferWaterMark().high());
    }

    @Test
    void aPortChangeRebindsWhileConnectedSwitchesStay() throws Exception {
        try (ControllerFixture controller = new ControllerFixture();
                FakeSwitch sw = FakeSwitch.connect(controller.port(), 0x50, OFVersion.OF_13)) {
            controller.awaitSwitch(0x50);
            int oldPort = controller.port();
            int newPort;
            try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
                newPort = probe.getLocalPort(); // a free port, released again before the rebind
            }
            controller.server.reconfigure(ControllerFixture.testSettings().withPort(newPort)
                    .withTimeouts(Duration.ofSeconds(3), Duration.ofSeconds(30), Duration.ofSeconds(2), Duration.ofSeconds(2)));
            assertEquals(newPort, controller.port());
            assertNotEquals(oldPort, newPort);
            assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", oldPort).close());
            try (FakeSwitch second = FakeSwitch.connect(newPort, 0x51, OFVersion.OF_15)) {
                controller.awaitSwitch(0x51);
            }
            assertTrue(controller.awaitSwitch(0x50).isConnected(), "the switch on the old listener stays");
            assertTrue(sw.isOpen());
        }
    }

    @Test
    void newSettingsApplyToNewConnections() throws Exception {
        try (ControllerFixture controller = new ControllerFixture()) {
            controller.server.reconfigure(ControllerFixture.testSettings().withPort(controller.port())
                    .withVersions(OpenFlowVersions.parse("1.0")));
            try (FakeSwitch sw = FakeSwitch.connect(controller.port(), 0x52, OFVersion.OF_10, OFVersion.OF_13)) {
                assertEquals(OFVersion.OF_10, controller.awaitSwitch(0x52).getVersion());
            }
        }
    }

    @Test
    void parsesHelloBitmapsOfSeveralWordsAndSkipsUnknownElements() {
        io.netty.buffer.ByteBuf b = io.netty.buffer.Unpooled.buffer();
        b.writeByte(6).writeByte(0).writeShort(8 + 8 + 16).writeInt(9);
        b.writeShort(0x7777).writeShort(6).writeShort(0xffff).writeShort(0); // unknown element, padded to 8
        b.writeShort(1).writeShort(12).writeInt(1 << 4 | 1 << 1).writeInt(1 << 1); // versions 1, 4 and 33
        b.writeInt(0); // padding to 8
        HelloMessage hello = HelloMessage.read(b);
        assertEquals(java.util.Set.of(1, 4, 33), hello.bitmapVersions());
        assertEquals(OFVersion.OF_13, OpenFlowVersions.negotiate(OpenFlowVersions.parse("1.0,1.3,1.5"), hello).orElseThrow());
    }

    @Test
    void withoutABitmapTheLowerHeaderVersionIsUsedIfOffered() {
        assertEquals(OFVersion.OF_13, OpenFlowVersions.negotiate(OpenFlowVersions.parse("1.0,1.3"),
                new HelloMessage(6, 1, null)).orElseThrow());
        assertTrue(OpenFlowVersions.negotiate(OpenFlowVersions.parse("1.0,1.3"), new HelloMessage(2, 1, null)).isEmpty());
    }

}
