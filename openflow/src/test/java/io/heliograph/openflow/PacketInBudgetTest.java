package io.heliograph.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The per-switch token bucket on a clock the test moves: no sleeps. */
class PacketInBudgetTest {

    private long now = 1_000_000_000L;

    private int takeAll(PacketInBudget budget, int tries) {
        int taken = 0;
        for (int i = 0; i < tries; i++) {
            if (budget.take()) {
                taken++;
            }
        }
        return taken;
    }

    @Test
    void aFullBucketLetsABurstThroughThenTheRest() {
        PacketInBudget budget = new PacketInBudget(1000, 100, () -> now);
        budget.refill();
        assertEquals(100, takeAll(budget, 250), "the burst, no more");
        assertEquals(150, budget.dropped());
        assertEquals(100, budget.taken());
    }

    @Test
    void tokensComeBackAtTheRateAndNeverAboveTheBurst() {
        PacketInBudget budget = new PacketInBudget(1000, 100, () -> now);
        budget.refill();
        takeAll(budget, 100);
        assertFalse(budget.take(), "empty");
        now += 10_000_000L; // 10 ms at 1000/s: 10 tokens
        budget.refill();
        assertEquals(10, takeAll(budget, 50));
        now += 60_000_000_000L; // a minute: capped at the burst
        budget.refill();
        assertEquals(100, takeAll(budget, 500));
    }

    @Test
    void aSteadyFloodGetsTheRateOverTime() {
        PacketInBudget budget = new PacketInBudget(5000, 50, () -> now);
        int taken = 0;
        int offered = 0;
        for (int ms = 0; ms < 2000; ms++) { // 2 s of 20 packet-ins per ms (20,000/s offered)
            now += 1_000_000L;
            budget.refill();
            taken += takeAll(budget, 20);
            offered += 20;
        }
        // The full bucket first (50: the first millisecond's 5 tokens find it full), then 5 per millisecond.
        assertEquals(50 + 5 * 1999, taken, "5,000/s for 2 s, the first burst instead of the first millisecond's");
        assertEquals(offered - taken, budget.dropped());
        assertEquals(5000, budget.lastSecond(), 5, "the rate handed on in the last whole second");
    }

    @Test
    void fractionsOfATokenAddUp() {
        PacketInBudget budget = new PacketInBudget(10, 1, () -> now);
        budget.refill();
        assertTrue(budget.take());
        for (int i = 0; i < 9; i++) {
            now += 10_000_000L; // 10 ms: a tenth of a token each
            budget.refill();
            assertFalse(budget.take(), "no whole token yet after " + (i + 1) + " tenths");
        }
        now += 10_000_000L;
        budget.refill();
        assertTrue(budget.take(), "ten tenths make one");
    }

    @Test
    void zeroMeansUnlimited() {
        PacketInBudget budget = new PacketInBudget(0, 0, () -> now);
        budget.refill();
        assertEquals(1_000_000, takeAll(budget, 1_000_000));
        assertEquals(0, budget.dropped());
    }

    @Test
    void aClockThatStandsStillOrGoesBackAddsNothing() {
        PacketInBudget budget = new PacketInBudget(1000, 5, () -> now);
        budget.refill();
        takeAll(budget, 5);
        now -= 1_000_000_000L;
        budget.refill();
        assertFalse(budget.take());
    }
}
