package io.heliograph.sims.virtue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class FairShareTest {

    private static FairShare.User flow(int... links) {
        double[] ones = new double[links.length];
        java.util.Arrays.fill(ones, 1);
        return new FairShare.User(links, ones, Double.POSITIVE_INFINITY);
    }

    @Test
    void aFlowHeldBackElsewhereLeavesItsShareToTheOthers() {
        // link 0 (10) carries three flows; the third also crosses link 1 (2): it gets 2, the others 4 each
        double[] rates = FairShare.rates(List.of(flow(0), flow(0), flow(0, 1)), new double[] {10, 2});
        assertArrayEquals(new double[] {4, 4, 2}, rates, 1e-9);
    }

    @Test
    void theClassicParkingLot() {
        // a long flow over links 0, 1, 2 (each 1) and a short one on each: everyone gets 1/2
        double[] rates = FairShare.rates(List.of(flow(0, 1, 2), flow(0), flow(1), flow(2)), new double[] {1, 1, 1});
        assertArrayEquals(new double[] {0.5, 0.5, 0.5, 0.5}, rates, 1e-9);
    }

    @Test
    void aUserStopsAtItsCapAndTheRestShareWhatItLeaves() {
        FairShare.User capped = new FairShare.User(new int[] {0}, new double[] {1}, 1);
        double[] rates = FairShare.rates(List.of(capped, flow(0), flow(0)), new double[] {10});
        assertArrayEquals(new double[] {1, 4.5, 4.5}, rates, 1e-9);
    }

    @Test
    void usersRiseInTheirOwnUnitsWhatEachTakesPerUnitFillsTheResource() {
        // a client taking 2 of the link per request and one taking 1: the same request rate, 3 each
        FairShare.User heavy = new FairShare.User(new int[] {0}, new double[] {2}, Double.POSITIVE_INFINITY);
        FairShare.User light = new FairShare.User(new int[] {0}, new double[] {1}, Double.POSITIVE_INFINITY);
        assertArrayEquals(new double[] {3, 3}, FairShare.rates(List.of(heavy, light), new double[] {9}), 1e-9);
    }

    @Test
    void drainingSharesAgainWhenAFlowFinishes() {
        // 10 and 30 on a link of 10: 5 each for 2 s, then the second alone at 10 for 2 s
        assertEquals(4, FairShare.drain(List.of(flow(0), flow(0)), new double[] {10, 30}, new double[] {10}), 1e-9);
        // and nothing to do takes no time
        assertEquals(0, FairShare.drain(List.of(flow(0)), new double[] {0}, new double[] {10}), 0);
    }

    @Test
    void anElasticUserOnNothingFiniteIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> new FairShare.User(new int[0], new double[0], Double.POSITIVE_INFINITY));
        assertThrows(IllegalStateException.class, () -> FairShare.rates(List.of(flow(0)),
                new double[] {Double.POSITIVE_INFINITY}));
    }
}
