package io.heliograph.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class FlowEntryTest {

    private static final String DUMP = """
            OFPST_FLOW reply (OF1.3) (xid=0x2):
             cookie=0x0, duration=3.456s, table=0, n_packets=7, n_bytes=686, idle_timeout=5, priority=1,in_port=1,dl_dst=02:00:00:00:00:02 actions=output:2
             cookie=0x0, duration=9.1s, table=0, n_packets=12, n_bytes=1000, priority=0 actions=CONTROLLER:65535
            """;

    @Test
    void readsCountersTimeoutsMatchAndActions() {
        List<FlowEntry> flows = FlowEntry.parseDump(DUMP);
        assertEquals(2, flows.size());
        FlowEntry learned = flows.get(0);
        assertEquals(7, learned.packets());
        assertEquals(686, learned.bytes());
        assertEquals(1, learned.priority());
        assertEquals(OptionalInt.of(5), learned.idleTimeout());
        assertEquals("in_port=1,dl_dst=02:00:00:00:00:02", learned.match());
        assertEquals("output:2", learned.actions());
        assertTrue(learned.isReactive());
        assertFalse(learned.isTableMiss());
    }

    @Test
    void recognisesTheTableMissFlow() {
        FlowEntry miss = FlowEntry.parseDump(DUMP).get(1);
        assertTrue(miss.isTableMiss());
        assertFalse(miss.isReactive());
        assertEquals(12, miss.packets());
    }

    @Test
    void priorityLeftOutMeansTheOpenFlowDefault() {
        FlowEntry flow = FlowEntry.parse("cookie=0x0, duration=1s, table=0, n_packets=0, n_bytes=0, in_port=2 actions=drop");
        assertEquals(0x8000, flow.priority());
        assertEquals("in_port=2", flow.match());
    }
}
