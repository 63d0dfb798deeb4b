package io.heliograph.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PortCountersTest {

    @Test
    void readsReceivedAndSentPacketsAndBytes() {
        String dump = """
                OFPST_PORT reply (OF1.3) (xid=0x2): 1 ports
                  port  "s1-eth2": rx pkts=1523, bytes=2260418, drop=0, errs=0, frame=0, over=0, crc=0
                           tx pkts=812, bytes=53620, drop=3, errs=0, coll=0
                           duration=12.504s
                """;
        assertEquals(new PortCounters(1523, 2260418, 812, 53620), PortCounters.parse(dump));
    }

    @Test
    void outputWithoutCountersIsAnError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PortCounters.parse("OFPST_PORT reply (OF1.3) (xid=0x2): 0 ports\n"));
        assertEquals("no rx and tx counters in dump-ports output: OFPST_PORT reply (OF1.3) (xid=0x2): 0 ports\n",
                e.getMessage());
    }
}
