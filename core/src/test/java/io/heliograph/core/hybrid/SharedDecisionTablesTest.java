package io.heliograph.core.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.heliograph.core.cluster.SharedStore;
import io.heliograph.core.cluster.SplitValues;
import io.heliograph.core.testing.ForwardingSharedStore;
import io.heliograph.core.testing.InMemorySharedStore;
import io.heliograph.core.testing.ManualClock;

class SharedDecisionTablesTest {

    private final InMemorySharedStore store = new InMemorySharedStore();
    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-29T15:20:00Z"));
    private final SharedDecisionTables<String> tables = new SharedDecisionTables<>(store, "vdn", DecisionTableJson.ofStrings(), clock);

    private static Decision<String> d(String key, String nextHop) {
        return Decision.central(key, nextHop, Evidence.of(Map.of(nextHop + "->E1", 100_000.0)), Instant.EPOCH);
    }

    @Test
    void eachPublicationTakesTheNextVersionAndStampsItsTables() {
        assertEquals(OptionalLong.empty(), tables.version());
        assertEquals(1, tables.publish(Map.of("E1", List.of(d("v0/800", "R2")), "E2", List.of(d("v0/*", "R1")))));
        assertEquals(Set.of("E1", "E2"), tables.partitions());
        clock.advance(java.time.Duration.ofSeconds(60));
        assertEquals(2, tables.publish(Map.of("E1", List.of(d("v0/800", "R1")))));
        assertEquals(OptionalLong.of(2), tables.version());
        DecisionTable<String> e1 = tables.read("E1").orElseThrow();
        assertEquals(2, e1.version());
        assertEquals(clock.instant(), e1.issuedAt());
        Decision<String> entry = e1.lookup("v0/800").orElseThrow();
        assertEquals(2, entry.version());
        assertEquals(Origin.CENTRAL, entry.origin());
        assertEquals("R1", entry.value());
        assertEquals(Set.of("E1"), tables.partitions(), "E2 is not part of version 2");
        assertEquals(Optional.empty(), tables.read("E2"));
        assertThrows(IllegalArgumentException.class, () -> tables.publish(Map.of("E1/x", List.of())),
                "a partition id is one segment of a key");
    }

    @Test
    void aPublisherThatLosesTheRaceForAVersionTakesTheNextOne() {
        SharedStore other = store.anotherInstance("c2");
        SharedDecisionTables<String> rival = new SharedDecisionTables<>(other, "vdn", DecisionTableJson.ofStrings(), clock);
        boolean[] raced = {false};
        SharedStore racing = new ForwardingSharedStore(store) {
            @Override
            public Optional<Versioned> replace(String key, long expectedVersion, byte[] value) {
                if (!raced[0]) {
                    raced[0] = true;
                    assertEquals(1, rival.publish(Map.of("E9", List.of(d("v9", "R9")))));
                }
                return super.replace(key, expectedVersion, value);
            }
        };
        SharedDecisionTables<String> slow = new SharedDecisionTables<>(racing, "vdn", DecisionTableJson.ofStrings(), clock);
        assertEquals(2, slow.publish(Map.of("E1", List.of(d("v0", "R1")))));
        assertEquals(2, tables.read("E1").orElseThrow().version());
    }

    @Test
    void aTableLargerThanOneStoreValueIsSplitAndReadWhole() {
        List<Decision<String>> many = new ArrayList<>();
        for (int i = 0; i < 12_000; i++) {
            many.add(d("video-" + i + "/4500", "reflector-" + (i % 10)));
        }
        tables.publish(Map.of("edge-1", many));
        assertTrue(store.list(tables.tableKey("edge-1")).size() > 1, "written in several parts");
        assertTrue(SplitValues.read(store, tables.tableKey("edge-1")).orElseThrow().length > SharedStore.MAX_VALUE_BYTES);
        DecisionTable<String> read = tables.read("edge-1").orElseThrow();
        assertEquals(12_000, read.decisions().size());
        assertEquals("reflector-7", read.lookup("video-11997/4500").orElseThrow().value());
    }
}
