package io.heliograph.circuit.internal.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class TcQueueResizeTest {

    @Test
    void aDeviceTakesTheLargestSizeOfItsPairsAndRunsOnlyChanges() {
        // Rack r's pairs share its uplink "up<r>"; the command is `true`, which always succeeds.
        try (TcQueueResize tc = new TcQueueResize(List.of(), List.of("true", "{dev}", "{packets}", "{bytes}"), 9000,
                pair -> "up" + pair.src())) {
            assertEquals(List.of("ip", "netns", "exec", "ns", "tc", "qdisc", "change", "dev", "up1", "root", "pfifo",
                    "limit", "64"), TcQueueResize.pfifo(List.of("ip", "netns", "exec", "ns"), p -> "x").command("up1", 64));
            assertEquals(List.of("true", "up0", "128", "1152000"), tc.command("up0", 128));
            tc.resize(new RackPair(0, 1), 16, 0);
            tc.resize(new RackPair(0, 2), 128, 0);
            tc.resize(new RackPair(0, 1), 16, 0);     // up0 stays 128: no command
            tc.resize(new RackPair(1, 0), 16, 0);
            tc.resize(new RackPair(0, 2), 16, 0);     // up0 back to 16
            assertTrue(tc.drain(Duration.ofSeconds(5)));
            Map<String, Object> s = tc.status();
            assertEquals(Map.of("up0", 16, "up1", 16), s.get("limits"));
            assertEquals(4L, s.get("commands"));
            assertEquals(0L, s.get("failures"));
        }
    }

    @Test
    void aFailingCommandIsCountedAndTheNextStillRuns() {
        try (TcQueueResize tc = new TcQueueResize(List.of(), List.of("sh", "-c", "exit 3", "{dev}"), 1500, p -> "dev")) {
            tc.resize(new RackPair(0, 1), 16, 0);
            tc.resize(new RackPair(0, 1), 128, 0);
            assertTrue(tc.drain(Duration.ofSeconds(5)));
            Map<String, Object> s = tc.status();
            assertEquals(2L, s.get("failures"));
            assertTrue(String.valueOf(s.get("lastError")).contains("exit 3"), String.valueOf(s.get("lastError")));
        }
    }
}
