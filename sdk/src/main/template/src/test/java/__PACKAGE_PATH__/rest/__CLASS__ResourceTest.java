package __PACKAGE__.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;

import __PACKAGE__.__CLASS__Counter;
import __PACKAGE__.__CLASS__CounterTest;

class __CLASS__ResourceTest {

    @Test
    void answersEverySwitchsCountAndTheTotal() {
        __CLASS__Counter counter = new __CLASS__Counter();
        __CLASS__Resource resource = new __CLASS__Resource(counter);
        counter.receive(__CLASS__CounterTest.switchWithId(1), __CLASS__CounterTest.PACKET_IN);
        counter.receive(__CLASS__CounterTest.switchWithId(10), __CLASS__CounterTest.PACKET_IN);
        counter.receive(__CLASS__CounterTest.switchWithId(10), __CLASS__CounterTest.PACKET_IN);

        __CLASS__Resource.Counts counts = resource.counts();

        assertEquals("__NAME__", counts.app());
        assertEquals(3, counts.total());
        assertEquals(Map.of("00:00:00:00:00:00:00:01", 1L, "00:00:00:00:00:00:00:0a", 2L), counts.switches());
    }
}
