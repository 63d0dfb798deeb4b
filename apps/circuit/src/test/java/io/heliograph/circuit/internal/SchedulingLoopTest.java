package io.heliograph.circuit.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.heliograph.circuit.engine.CircuitParameters;

/** The loop on a manual clock: next computed during the current week, swapped at the boundary, errors keep the week. */
class SchedulingLoopTest {

    private static final CircuitParameters NETWORK = new CircuitParameters(4, 10_000, 1_250, 2_000, 20, 200);
    private static final long WEEK = 2_000L * 1000 * 1000; // 2,000 us x 1000 in nanoseconds: 2 s
    private static final long WEEK_5 = 5 * WEEK;

    private final ManualTimer timer = new ManualTimer(WEEK_5 + WEEK / 10);
    private final List<PublishedWeeks> published = new ArrayList<>();
    private final AtomicReference<double[][]> demand = new AtomicReference<>(skewed(1e6));
    private final AtomicReference<RuntimeException> estimatorFails = new AtomicReference<>();
    private final AtomicReference<SchedulerChoice> choice = new AtomicReference<>(
            new SchedulerChoice("solstice", "voq", null));
    private final SchedulingLoop loop = new SchedulingLoop(NETWORK, WEEK, timer::now, timer, new SchedulingLoop.Inputs() {
        @Override
        public SchedulerChoice choice() {
            return choice.get();
        }

        @Override
        public SchedulingLoop.Estimate estimate(String estimator) {
            if (estimatorFails.get() != null) {
                throw estimatorFails.get();
            }
            return new SchedulingLoop.Estimate(estimator, demand.get());
        }
    }, published::add, "c1");

    /** Rack i sends to i + 1: one permutation, one day of Solstice. */
    private static double[][] skewed(double bytes) {
        double[][] d = new double[4][4];
        for (int i = 0; i < 4; i++) {
            d[i][(i + 1) % 4] = bytes;
        }
        return d;
    }

    private PublishedWeeks last() {
        return published.get(published.size() - 1);
    }

    @Test
    void theNextWeekIsComputedDuringTheCurrentOneAndBecomesCurrentAtTheBoundary() {
        loop.start(null);
        PublishedWeeks first = last();
        assertEquals(5, first.current().week(), "the week in progress, numbered from the epoch");
        assertEquals(WEEK_5, first.current().startEpochNanos());
        assertNull(first.next());
        assertEquals("solstice", first.current().scheduler());

        demand.set(skewed(3e6));
        timer.advanceTo(WEEK_5 + WEEK / 2 - 1);
        assertNull(last().next(), "not before halfway");
        timer.advanceTo(WEEK_5 + WEEK / 2);
        PublishedWeeks halfway = last();
        assertNotNull(halfway.next(), "computed halfway through the current week");
        assertEquals(6, halfway.next().week());
        assertEquals(6 * WEEK, halfway.next().startEpochNanos());
        assertEquals(3e6, halfway.next().demand()[0][1], "from the estimate at the time it was computed");
        assertEquals(5, halfway.current().week(), "the current week is still in force");

        timer.advanceTo(6 * WEEK);
        PublishedWeeks swapped = last();
        assertEquals(halfway.next(), swapped.current(), "next became current at the boundary");
        assertNull(swapped.next());
        assertNull(swapped.error());

        timer.advanceTo(7 * WEEK + WEEK / 2);
        assertEquals(8, last().next().week());
        assertEquals(7, last().current().week());
    }

    @Test
    void aSchedulerOrEstimatorThatThrowsKeepsTheRunningScheduleAndRecordsTheError() {
        loop.start(null);
        timer.advanceTo(6 * WEEK);
        PublishedWeeks good = last();
        assertEquals(6, good.current().week());

        // a demand the scheduler refuses (NaN): the next week is not computed
        double[][] bad = skewed(1e6);
        bad[2][3] = Double.NaN;
        demand.set(bad);
        timer.advanceTo(6 * WEEK + WEEK / 2);
        PublishedWeeks failed = last();
        assertNull(failed.next());
        assertEquals(good.current(), failed.current(), "the week in force stays");
        assertEquals(1, failed.errors());
        assertTrue(failed.error().contains("demand[2][3]"), failed.error());

        // at the boundary the current week repeats
        timer.advanceTo(7 * WEEK);
        PublishedWeeks repeated = last();
        assertEquals(7, repeated.current().week());
        assertEquals(good.current().plan(), repeated.current().plan());
        assertEquals(7 * WEEK, repeated.current().startEpochNanos());

        // an estimator that throws
        estimatorFails.set(new IllegalStateException("no counters"));
        timer.advanceTo(7 * WEEK + WEEK / 2);
        assertEquals(2, last().errors());
        assertTrue(last().error().contains("no counters"), last().error());
        assertEquals(good.current().plan(), last().current().plan());

        // recovered: the next week is computed again, with the choice in force then
        estimatorFails.set(null);
        demand.set(skewed(1e6));
        choice.set(new SchedulerChoice("round-robin", "adu", null));
        timer.advanceTo(8 * WEEK + WEEK / 2);
        assertEquals("round-robin", last().next().scheduler());
        assertEquals("adu", last().next().estimator());
        assertEquals(3, last().next().plan().days().size(), "N - 1 days of the rotation");
        assertNotEquals(good.current().plan(), last().next().plan());
    }

    @Test
    void aStoppedLoopPublishesNothingAndATakeOverKeepsThePublishedWeeks() {
        loop.start(null);
        timer.advanceTo(WEEK_5 + WEEK / 2);
        PublishedWeeks before = last();
        loop.stop();
        int count = published.size();
        timer.advanceTo(8 * WEEK);
        assertEquals(count, published.size(), "nothing after stop");
        assertEquals(0, timer.pending());

        // another loop taking over within the same week keeps the week in force and the next
        ManualTimer later = new ManualTimer(WEEK_5 + 3 * WEEK / 4);
        List<PublishedWeeks> seen = new ArrayList<>();
        SchedulingLoop other = new SchedulingLoop(NETWORK, WEEK, later::now, later, new SchedulingLoop.Inputs() {
            @Override
            public SchedulerChoice choice() {
                return choice.get();
            }

            @Override
            public SchedulingLoop.Estimate estimate(String estimator) {
                throw new IllegalStateException("must not be asked: the weeks exist");
            }
        }, seen::add, "c2");
        other.start(before);
        assertEquals(before.current(), seen.get(0).current());
        assertEquals(before.next(), seen.get(0).next());
        later.advanceTo(6 * WEEK);
        assertEquals(before.next(), seen.get(seen.size() - 1).current());
        assertEquals(0, seen.get(seen.size() - 1).errors());
    }
}
