package io.heliograph.core.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class EvidenceTest {

    private final Evidence evidence = Evidence.of(Map.of("S1->R2", 100_000.0, "viewers:v0/800", 3000.0, "idle", 0.0));

    @Test
    void aChangeOfExactlyTheThresholdHoldsAndAnyMoreDiverges() {
        assertEquals(List.of(), evidence.divergence(Map.of("S1->R2", 120_000.0, "viewers:v0/800", 2400.0, "idle", 0.0), 0.20));
        assertEquals(List.of("S1->R2"), evidence.divergence(Map.of("S1->R2", 120_001.0, "viewers:v0/800", 3007.0, "idle", 0.0), 0.20));
        assertEquals(List.of("S1->R2", "viewers:v0/800"),
                evidence.divergence(Map.of("S1->R2", 79_999.0, "viewers:v0/800", 2399.0, "idle", 0.0), 0.20));
        assertEquals(List.of("idle"), evidence.divergence(Map.of("S1->R2", 100_000.0, "viewers:v0/800", 3000.0, "idle", 1.0), 0.20),
                "from zero, any change is more than the threshold");
    }

    @Test
    void aMeasurementThatIsGoneDiverges() {
        assertEquals(List.of("S1->R2", "idle"), evidence.divergence(Map.of("viewers:v0/800", 3000.0), Evidence.DEFAULT_THRESHOLD));
        assertEquals(List.of(), Evidence.NONE.divergence(Map.of(), 0.0));
    }

    @Test
    void aFailedNodeConcernsTheLinksFromAndToIt() {
        assertTrue(evidence.refersTo("S1->R2"));
        assertTrue(evidence.refersTo("R2"));
        assertTrue(evidence.refersTo("S1"));
        assertFalse(evidence.refersTo("R1"));
        assertFalse(evidence.refersTo("S1->R1"));
    }

    @Test
    void valuesAreFinite() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Evidence.of(Map.of("S1->R2", Double.NaN))).getMessage()
                .contains("S1->R2"));
        assertThrows(IllegalArgumentException.class, () -> evidence.divergence(Map.of(), -0.1));
    }
}
