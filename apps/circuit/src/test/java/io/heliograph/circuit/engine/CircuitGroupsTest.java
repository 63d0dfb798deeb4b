package io.heliograph.circuit.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

import io.heliograph.core.json.Json;

class CircuitGroupsTest {

    @Test
    void hostsAreInTheirRacks() {
        CircuitGroups groups = CircuitGroups.uniform(8, 16);
        assertEquals(8, groups.racks());
        assertArrayEquals(new int[] {16, 16, 16, 16, 16, 16, 16, 16}, groups.hostsPerRack());
        assertEquals(OptionalInt.of(5), groups.rackOf("10.0.5.16"));
        assertEquals(OptionalInt.empty(), groups.rackOf("10.0.8.1"));
        assertEquals(List.of("10.0.2.1", "10.0.2.2"), CircuitGroups.uniform(3, 2).hosts(2));
    }

    @Test
    void roundTripsAsJson() {
        CircuitGroups groups = CircuitGroups.of(List.of(List.of("10.0.0.1", "10.0.0.2"), List.of("fd00::1"),
                List.of("h3")));
        assertEquals(groups, CircuitGroups.fromJson(Json.parse(Json.pretty(groups.toJson()))));
        assertEquals("{\"racks\":[{\"rack\":0,\"hosts\":[\"10.0.0.1\",\"10.0.0.2\"]},{\"rack\":1,\"hosts\":[\"fd00::1\"]},"
                + "{\"rack\":2,\"hosts\":[\"h3\"]}]}", new String(Json.compact(groups.toJson())));
    }

    private static String message(Runnable call) {
        return assertThrows(IllegalArgumentException.class, call::run).getMessage();
    }

    @Test
    void refusesBadGroups() {
        assertEquals("host a is in rack 0 and in rack 1; a host is in one rack",
                message(() -> CircuitGroups.of(List.of(List.of("a"), List.of("b", "a")))));
        assertEquals("rack 1 has no host", message(() -> CircuitGroups.of(List.of(List.of("a"), List.of()))));
        assertTrue(message(() -> CircuitGroups.of(List.of(List.of("a")))).startsWith("racks: from 2"));
        assertEquals("$.racks[1].hosts[0]: host a is already at $.racks[0].hosts[0]; a host is in one rack",
                message(() -> CircuitGroups.fromJson(Json.parse(
                        "{\"racks\": [{\"rack\": 0, \"hosts\": [\"a\"]}, {\"rack\": 1, \"hosts\": [\"a\"]}]}"))));
        assertTrue(message(() -> CircuitGroups.fromJson(Json.parse(
                "{\"racks\": [{\"rack\": 0, \"hosts\": [\"a\"]}, {\"rack\": 2, \"hosts\": [\"b\"]}]}")))
                .startsWith("$.racks[1].rack: racks are listed in order from 0: expected 1, not 2"));
        assertTrue(message(() -> CircuitGroups.fromJson(Json.parse("{\"racks\": [], \"hosts\": 1}")))
                .startsWith("$.hosts: unknown member"));
        assertTrue(message(() -> CircuitGroups.fromJson(Json.parse(
                "{\"racks\": [{\"rack\": 0, \"hosts\": [\"a\"]}, {\"rack\": 1, \"hosts\": [\"\"]}]}")))
                .startsWith("$.racks[1].hosts[0]: must be a non-empty string"));
    }
}
