package io.heliograph.devices.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

/** The depth limit of the store's host reader (issue 18): a value from the store is input like any other. */
class HostJsonTest {

    private static final String HOST = "{\"mac\":\"02:00:00:00:00:01\",\"vlan\":0,\"ipv4\":[\"10.0.0.1\"],\"ipv6\":[],"
            + "\"attachmentPoints\":[{\"dpid\":\"00:00:00:00:00:00:00:01\",\"port\":3,"
            + "\"firstSeen\":\"2025-01-01T00:00:00Z\",\"lastSeen\":\"2025-01-01T00:01:00Z\"}],"
            + "\"firstSeen\":\"2025-01-01T00:00:00Z\",\"lastSeen\":\"2025-01-01T00:01:00Z\"}";

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aHostReadsAndWritesBackTheSame() {
        assertEquals(HOST, new String(HostJson.write(HostJson.read(bytes(HOST))), StandardCharsets.UTF_8));
    }

    @Test
    void aNestingDeeperThanAHostEverHasIsRefusedByDepthNotByStack() throws InterruptedException {
        String deep = HOST.replace("\"ipv6\":[]", "\"ipv6\":" + "[".repeat(100_000) + "]".repeat(100_000));
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        // A small stack, as a ZooKeeper event thread may have: 100,000 levels of recursion would overflow it.
        Thread reader = new Thread(null, () -> {
            try {
                HostJson.read(bytes(deep));
            } catch (Throwable t) {
                thrown.set(t);
            }
        }, "small-stack", 256 * 1024);
        reader.start();
        reader.join();
        IllegalArgumentException e = assertInstanceOf(IllegalArgumentException.class, thrown.get());
        assertTrue(e.getMessage().contains("nested deeper than 8 levels"), e.getMessage());

        IllegalArgumentException within = assertThrows(IllegalArgumentException.class, () -> HostJson.read(bytes(
                HOST.replace("\"ipv6\":[]", "\"ipv6\":" + "[".repeat(7) + "]".repeat(7)))));
        assertEquals("\"ipv6\" is not a string: [[[[[[]]]]]]", within.getMessage(), "8 levels: read, then refused as no host");
    }
}
