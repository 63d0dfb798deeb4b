package io.heliograph.sims.vdn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.heliograph.vdn.engine.Distribution;
import io.heliograph.vdn.engine.Link;
import io.heliograph.vdn.engine.Problem;
import io.heliograph.vdn.engine.Request;
import io.heliograph.vdn.engine.Tier;
import io.heliograph.vdn.engine.Topology;
import io.heliograph.vdn.engine.VideoObject;
import io.heliograph.vdn.engine.Weights;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BaselinesTest {

    private static final VideoObject O = new VideoObject("v", 1000);

    /** s0 over r0 (x 0) and r1 (x 10) to e0 (x 0) and e1 (x 10); g0 at x 0, g1 at x 10. */
    private static Topology.Builder twoByTwo(long r0e1, long r1e1) {
        return Topology.builder()
                .node("s0", Tier.SOURCE, 0, 0)
                .node("r0", Tier.REFLECTOR, 0, 0).node("r1", Tier.REFLECTOR, 10, 0)
                .node("e0", Tier.EDGE, 0, 0).node("e1", Tier.EDGE, 10, 0)
                .node("g0", Tier.CLIENT_GROUP, 0, 0).node("g1", Tier.CLIENT_GROUP, 10, 0)
                .link("s0", "r0", 10_000, 10).link("s0", "r1", 10_000, 10)
                .link("r0", "e0", 10_000, 20).link("r1", "e0", 10_000, 20)
                .link("r0", "e1", r0e1, 20).link("r1", "e1", r1e1, 20);
    }

    private static Problem problem(Topology topology, Request... requests) {
        return new Problem(topology, List.of(requests), Weights.DEFAULT);
    }

    @Test
    void cdnTakesTheSubscribedParentOverACloserOrBiggerOne() {
        Topology topology = twoByTwo(5_000, 10_000)
                .link("e0", "g0", 10_000, 0).link("e0", "g1", 10_000, 0).link("e1", "g1", 10_000, 0).build();
        DnsCdn cdn = DnsCdn.cdn();
        Distribution d = cdn.decide(problem(topology, new Request("g0", O, 1), new Request("g1", O, 1)), new double[] {0, 1});
        assertEquals(Optional.of("e0"), d.parent("g0", O.key()), "the closer edge, none being subscribed");
        assertEquals(Optional.of("r0"), d.parent("e0", O.key()));
        assertEquals(Optional.of("e0"), d.parent("g1", O.key()), "e0 is subscribed, though e1 is closer to g1");

        Topology edgeOnly = twoByTwo(5_000, 10_000)
                .link("e0", "g0", 10_000, 0).link("e1", "g1", 10_000, 0).build();
        d = DnsCdn.cdn().decide(problem(edgeOnly, new Request("g0", O, 1), new Request("g1", O, 1)), new double[] {0, 1});
        assertEquals(Optional.of("r0"), d.parent("e1", O.key()), "r0 is subscribed, though r1 is closer and has more room");

        Topology full = twoByTwo(500, 10_000)
                .link("e0", "g0", 10_000, 0).link("e1", "g1", 10_000, 0).build();
        d = DnsCdn.cdn().decide(problem(full, new Request("g0", O, 1), new Request("g1", O, 1)), new double[] {0, 1});
        assertEquals(Optional.of("r1"), d.parent("e1", O.key()), "the subscribed parent's link has no room for the stream");
        assertTrue(new Delivery(d).served(d.problem().requests().get(1)));
    }

    @Test
    void aCachedDecisionIsFollowedUntilItsTtlExpiresEvenOntoAFullLink() {
        Topology before = twoByTwo(10_000, 10_000).link("e0", "g0", 10_000, 0).link("e1", "g0", 10_000, 0).build();
        Link toG0 = before.link("e0", "g0").orElseThrow();
        Topology after = before.withLinks(List.of(new Link(toG0.index(), "e0", "g0", 0, 0)));
        DnsCdn cdn = DnsCdn.cdn();
        DnsCdn cdn1 = DnsCdn.cdn1();
        for (DnsCdn strategy : List.of(cdn, cdn1)) {
            Distribution first = strategy.decide(problem(before, new Request("g0", O, 1)), new double[] {0});
            assertEquals(Optional.of("e0"), first.parent("g0", O.key()));
        }
        // 20 s later, in the next window, e0's link to g0 is full
        Distribution stale = cdn.decide(problem(after, new Request("g0", O, 1)), new double[] {20});
        assertEquals(Optional.of("e0"), stale.parent("g0", O.key()), "TTL 30 s: DNS still answers e0");
        assertFalse(new Delivery(stale).served(stale.problem().requests().get(0)));
        assertEquals(3, cdn.reused(), "the group's, the edge's and the reflector's choices came from the cache");
        Distribution fresh = cdn1.decide(problem(after, new Request("g0", O, 1)), new double[] {20});
        assertEquals(Optional.of("e1"), fresh.parent("g0", O.key()), "TTL 1 s: a new choice");
        assertTrue(new Delivery(fresh).served(fresh.problem().requests().get(0)));
        Distribution expired = cdn.decide(problem(after, new Request("g0", O, 1)), new double[] {31});
        assertEquals(Optional.of("e1"), expired.parent("g0", O.key()), "after 30 s the CDN chooses again");
    }

    @Test
    void eeSendsEveryObjectEverywhereAndOverloadsWhatCannotCarryIt() {
        Topology topology = twoByTwo(500, 500).link("e0", "g0", 10_000, 0).link("e1", "g0", 10_000, 3).build();
        Distribution d = new EverythingEverywhere().optimise(problem(topology, new Request("g0", O, 1)));
        assertTrue(d.reaches("e0", O.key()) && d.reaches("e1", O.key()) && d.reaches("r0", O.key())
                && d.reaches("r1", O.key()), "every reflector and edge gets it");
        assertEquals(Optional.of("e0"), d.parent("g0", O.key()), "the nearest edge");
        assertFalse(d.carries(topology.link("e1", "g0").orElseThrow(), O.key()));
        Delivery delivery = new Delivery(d);
        assertTrue(delivery.served(d.problem().requests().get(0)), "e0's own link has room");
        assertEquals(1, delivery.overloadedLinks(), "the link into e1 is asked for 1000 of its 500 kbit/s");
        // s0->r0, s0->r1 and the links into e0 and e1 carry 1000 (the one into e1 only its 500), e0->g0 is free
        assertEquals(10 * 1000 + 10 * 1000 + 20 * 1000 + 20 * 500, delivery.cost(), 1e-9);
    }

    @Test
    void anOverloadedLinkPassesTheStreamsBelowItsMaxMinFairLevelWhole() {
        Topology line = Lines.line(1_600, 10, 0, 0, 0);
        Problem problem = problem(line, new Request("g0", new VideoObject("a", 400), 1),
                new Request("g1", new VideoObject("b", 1000), 1), new Request("g2", new VideoObject("c", 3000), 1));
        Distribution everything = new EverythingEverywhere().optimise(problem);
        Delivery delivery = new Delivery(everything);
        // 1600 shared by 400, 1000 and 3000: 400 passes, then 1200 for two is 600 each, below 1000
        assertTrue(delivery.served(problem.requests().get(0)));
        assertFalse(delivery.served(problem.requests().get(1)));
        assertFalse(delivery.served(problem.requests().get(2)));
        assertEquals(600, Delivery.fairLevel(List.of(3000, 400, 1000), 1600));
        assertEquals(Long.MAX_VALUE, Delivery.fairLevel(List.of(400, 1000), 1600));
    }

    @Test
    void omPlacesChannelsInArrivalOrderAgainstWhatTheEarlierOnesLeft() {
        Topology line = Lines.line(1_500, 10, 0, 0);
        VideoObject second = new VideoObject("w", 1000);
        VideoObject firstLow = new VideoObject("v", 500);
        Problem problem = problem(line, new Request("g0", second, 1), new Request("g1", firstLow, 1),
                new Request("g0", firstLow, 1));
        Distribution d = new OverlayMulticast(new CheapestPaths()).optimise(problem);
        assertTrue(d.violations().isEmpty(), d.violations().toString());
        assertTrue(d.served(problem.requests().get(0)), "w arrived first and takes 1000 of the 1500");
        assertTrue(d.served(problem.requests().get(1)) && d.served(problem.requests().get(2)), "v/500 fits in what is left");
        Problem reversed = problem(line, new Request("g0", new VideoObject("w", 1200), 1), new Request("g1", O, 1));
        Distribution late = new OverlayMulticast(new CheapestPaths()).optimise(reversed);
        assertTrue(late.served(reversed.requests().get(0)));
        assertFalse(late.served(reversed.requests().get(1)), "the second channel finds 300 kbit/s left");
    }
}
