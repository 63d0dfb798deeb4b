package io.heliograph.circuit.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

import io.heliograph.core.json.Json;

class DemandEstimatorTest {

    private static final CircuitParameters FOUR = new CircuitParameters(4, 10_000, 1_250, 2_000, 20, 200);
    private static final CircuitGroups GROUPS = CircuitGroups.uniform(4, 2);

    private static FiveTuple flow(int srcRack, int dstRack, int port) {
        return new FiveTuple("10.0." + srcRack + ".1", port, "10.0." + dstRack + ".2", 5001, 6);
    }

    private static String message(Runnable call) {
        return assertThrows(IllegalArgumentException.class, call::run).getMessage();
    }

    @Test
    void voqOccupancyIsTheDemand() {
        VoqEstimator voq = new VoqEstimator(FOUR);
        long[][] queues = new long[4][4];
        queues[0][1] = 9_000;
        queues[2][3] = 144_000;
        voq.observeQueues(queues);
        double[][] estimate = voq.estimate();
        assertEquals(9_000, estimate[0][1]);
        assertEquals(144_000, estimate[2][3]);
        assertEquals(0, estimate[1][0]);
        new Solstice().schedule(estimate, FOUR, 1);
    }

    @Test
    void voqCountersGiveTheIntervalsBytesScaledToAWeek() {
        VoqEstimator voq = new VoqEstimator(FOUR);
        long[][] counters = new long[4][4];
        counters[0][1] = 1_000_000;
        counters[1][2] = 50;
        voq.observeCounters(counters, 10_000);
        assertEquals(0, voq.estimate()[0][1], "the first counters are only a baseline");
        long[][] later = new long[4][4];
        later[0][1] = 1_500_000;
        later[1][2] = 20;
        voq.observeCounters(later, 11_000);
        assertEquals(1_000_000, voq.estimate()[0][1], 1e-6, "500 kB in 1,000 us is 1 MB in a 2,000 us week");
        assertEquals(40, voq.estimate()[1][2], 1e-6, "a counter that went back counts from 0");
    }

    @Test
    void badVoqObservationsAreRefusedAndChangeNothing() {
        VoqEstimator voq = new VoqEstimator(FOUR);
        long[][] queues = new long[4][4];
        queues[0][1] = 9_000;
        voq.observeQueues(queues);
        long[][] negative = new long[4][4];
        negative[3][2] = -5;
        assertEquals("queueBytes[3][2] must be bytes from 0, not -5", message(() -> voq.observeQueues(negative)));
        long[][] self = new long[4][4];
        self[1][1] = 5;
        assertTrue(message(() -> voq.observeQueues(self)).startsWith("queueBytes[1][1]: a rack has no VOQ to itself"));
        assertTrue(message(() -> voq.observeQueues(new long[3][4])).contains("4 rows"));
        voq.observeCounters(new long[4][4], 100);
        assertTrue(message(() -> voq.observeCounters(new long[4][4], 100)).contains("not after"));
        assertEquals(9_000, voq.estimate()[0][1], "the estimate stays as it was");
    }

    @Test
    void aduOutstandingBytesAddUpPerRackPairAndACloseRemovesThem() {
        AduEstimator adu = new AduEstimator(GROUPS);
        adu.report(List.of(AduReport.written(flow(0, 1, 1), 1_000_000), AduReport.written(flow(0, 1, 2), 500_000),
                AduReport.written(flow(2, 3, 1), 70_000), AduReport.written(flow(0, 1, 1), 1_000)));
        double[][] estimate = adu.estimate();
        assertEquals(1_501_000, estimate[0][1]);
        assertEquals(70_000, estimate[2][3]);
        adu.served(flow(0, 1, 1), 1_000);
        adu.served(flow(2, 3, 1), 100_000);
        assertEquals(0, adu.outstanding(flow(2, 3, 1)), "served past what was written is none outstanding, not less");
        assertEquals(1_500_000, adu.estimate()[0][1]);
        adu.report(List.of(AduReport.closed(flow(0, 1, 1))));
        assertEquals(500_000, adu.estimate()[0][1], "a close removes the flow's outstanding bytes");
        assertEquals(2, adu.openFlows());
        adu.report(List.of(AduReport.written(new FiveTuple("10.0.0.1", 1, "10.0.0.2", 2, 6), 1_000_000)));
        assertEquals(2, adu.openFlows(), "a flow within a rack never crosses a circuit");
    }

    @Test
    void aPairsServedBytesLeaveItsFlowsInTheOrderTheyWereReported() {
        AduEstimator adu = new AduEstimator(GROUPS);
        adu.report(List.of(AduReport.written(flow(0, 1, 1), 1_000), AduReport.written(flow(0, 1, 2), 500),
                AduReport.written(flow(2, 3, 1), 700)));
        adu.report(List.of(AduReport.written(flow(0, 1, 1), 100))); // flow 1 is now the last reported
        long[][] served = new long[4][4];
        served[0][1] = 800;
        served[2][3] = 10_000;
        adu.servedPairs(served);
        assertEquals(0, adu.outstanding(flow(0, 1, 2)), "queued first, served first");
        assertEquals(800, adu.outstanding(flow(0, 1, 1)), "1,100 less the 300 left after flow 2");
        assertEquals(0, adu.outstanding(flow(2, 3, 1)), "more served than written leaves nothing, not less");
        assertEquals(800, adu.estimate()[0][1]);
        assertEquals(0, adu.estimate()[2][3]);
        assertEquals(800, served[0][1], "the caller's matrix is not changed");
        assertEquals(10_000, served[2][3], "the caller's matrix is not changed");

        long[][] negative = new long[4][4];
        negative[1][0] = -1;
        assertTrue(message(() -> adu.servedPairs(negative)).contains("served[1][0]"));
        assertTrue(message(() -> adu.servedPairs(new long[3][3])).contains("3 rows for 4 racks"));
        assertEquals(800, adu.estimate()[0][1], "a refused call changes nothing");
    }

    @Test
    void aduMatchesAFlowByFlowModelOnRandomReports() {
        SplittableRandom random = new SplittableRandom(11);
        AduEstimator adu = new AduEstimator(CircuitGroups.uniform(4, 3), 1_000);
        Map<FiveTuple, Long> model = new HashMap<>();
        for (int step = 0; step < 3_000; step++) {
            int src = random.nextInt(4);
            int dst = (src + 1 + random.nextInt(3)) % 4;
            FiveTuple id = new FiveTuple("10.0." + src + "." + (1 + random.nextInt(3)), random.nextInt(4),
                    "10.0." + dst + "." + (1 + random.nextInt(3)), 80, 6);
            switch (random.nextInt(3)) {
                case 0 -> {
                    adu.report(List.of(AduReport.closed(id)));
                    model.remove(id);
                }
                case 1 -> {
                    long served = random.nextInt(100_000);
                    adu.served(id, served);
                    model.computeIfPresent(id, (k, v) -> Math.max(0, v - served));
                }
                default -> {
                    long bytes = random.nextInt(1_000_000);
                    adu.report(List.of(AduReport.written(id, bytes)));
                    model.merge(id, bytes, Long::sum);
                }
            }
            double[][] expected = new double[4][4];
            model.forEach((id2, bytes) -> expected[id2.src().charAt(5) - '0'][id2.dst().charAt(5) - '0'] += bytes);
            assertArrayEquals(expected, adu.estimate(), "step " + step);
        }
        assertEquals(model.size(), adu.openFlows());
    }

    @Test
    void openFlowsAreBoundedByEvictingTheLeastRecentlyReported() {
        AduEstimator adu = new AduEstimator(GROUPS, 3);
        adu.report(List.of(AduReport.written(flow(0, 1, 1), 10), AduReport.written(flow(0, 1, 2), 20),
                AduReport.written(flow(0, 1, 3), 30)));
        adu.report(List.of(AduReport.written(flow(0, 1, 1), 1)));
        adu.report(List.of(AduReport.written(flow(1, 2, 1), 40)));
        assertEquals(3, adu.openFlows());
        assertEquals(1, adu.evictions());
        assertEquals(0, adu.outstanding(flow(0, 1, 2)), "the least recently reported flow went");
        assertEquals(11 + 30, adu.estimate()[0][1], "with its bytes");
        assertEquals(40, adu.estimate()[1][2]);

        AduEstimator most = new AduEstimator(GROUPS, AduEstimator.MAX_FLOWS);
        long cap = Long.MAX_VALUE / AduEstimator.MAX_FLOWS;
        most.report(List.of(AduReport.written(flow(0, 1, 1), AduReport.MAX_BYTES),
                AduReport.written(flow(0, 1, 1), AduReport.MAX_BYTES)));
        assertEquals(cap, most.outstanding(flow(0, 1, 1)), "a flow's outstanding bytes saturate, never overflow");
        assertEquals(cap, most.estimate()[0][1]);
        assertTrue(message(() -> new AduEstimator(GROUPS, 0)).startsWith("maxFlows must be from 1"));
    }

    @Test
    void badAduReportsAreRefusedNamingTheFieldAndChangeNothing() {
        AduEstimator adu = new AduEstimator(GROUPS);
        adu.report(List.of(AduReport.written(flow(0, 1, 1), 1_000)));
        double[][] before = adu.estimate();
        FiveTuple stranger = new FiveTuple("192.168.9.9", 1, "10.0.1.1", 2, 6);
        assertEquals("$[1].flow.src: host 192.168.9.9 is in no circuit group (not a host of any rack)",
                message(() -> adu.report(List.of(AduReport.written(flow(2, 3, 1), 5), AduReport.written(stranger, 5)))));
        assertEquals(before[2][3], adu.estimate()[2][3], "the whole batch refused: its first report too");
        assertTrue(message(() -> AduReport.written(flow(0, 1, 1), 1_000_000_000_001L))
                .startsWith("bytes must be from 0 to 1000000000000 (1 TB)"));
        assertTrue(message(() -> AduReport.written(flow(0, 1, 1), -1)).startsWith("bytes must be from 0"));
        assertTrue(message(() -> new FiveTuple("10.0.0.1", 70_000, "10.0.1.1", 1, 6)).startsWith("flow.srcPort"));
        String batch = "[{\"flow\": {\"src\": \"10.0.0.1\", \"srcPort\": 1, \"dst\": \"10.0.1.2\", \"dstPort\": 2,"
                + " \"protocol\": 6}, \"bytes\": BYTES}]";
        assertEquals("$[0].bytes: must be from 0 to 1000000000000, not 2000000000000",
                message(() -> AduReport.fromJson(Json.parse(batch.replace("BYTES", "2000000000000")))));
        assertEquals("$[0].bytes: must be a whole number, not \"NaN\"",
                message(() -> AduReport.fromJson(Json.parse(batch.replace("BYTES", "\"NaN\"")))));
        assertEquals("$[0].bytes: must be from 0 to 1000000000000, not -3",
                message(() -> AduReport.fromJson(Json.parse(batch.replace("BYTES", "-3")))));
        assertTrue(message(() -> AduReport.fromJson(Json.parse(batch.replace("\"bytes\": BYTES", "\"closed\": true,"
                + " \"bytes\": 5")))).startsWith("$[0]: a report has either"));
        assertTrue(message(() -> AduReport.fromJson(Json.parse(batch.replace("BYTES", "5").replace("\"protocol\"", "\"proto\""))))
                .startsWith("$[0].flow.proto: unknown member"));
        assertArrayEquals(before, adu.estimate(), "nothing changed");
        assertEquals(1, adu.openFlows());
    }

    @Test
    void aduBatchesReadFromJson() {
        String batch = """
                [
                  {"flow": {"src": "10.0.0.1", "srcPort": 40000, "dst": "10.0.1.1", "dstPort": 5001, "protocol": 6},
                   "bytes": 1000000},
                  {"flow": {"src": "10.0.0.1", "srcPort": 40000, "dst": "10.0.1.1", "dstPort": 5001, "protocol": 6},
                   "closed": true}
                ]
                """;
        List<AduReport> reports = AduReport.fromJson(Json.parse(batch));
        FiveTuple id = new FiveTuple("10.0.0.1", 40000, "10.0.1.1", 5001, 6);
        assertEquals(List.of(AduReport.written(id, 1_000_000), AduReport.closed(id)), reports);
        AduEstimator adu = new AduEstimator(GROUPS);
        adu.report(reports.subList(0, 1));
        assertEquals(1_000_000, adu.estimate()[0][1]);
        adu.report(reports.subList(1, 2));
        assertEquals(0, adu.estimate()[0][1]);
    }

    @Test
    void aduDemandOfABigFlowRingIsOneDay() {
        AduEstimator adu = new AduEstimator(GROUPS);
        List<AduReport> ring = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            ring.add(AduReport.written(flow(r, (r + 1) % 4, 1), 9_000L * 5_000));
        }
        adu.report(ring);
        Schedule schedule = new Solstice().schedule(adu.estimate(), FOUR, 1);
        assertEquals(1, schedule.days().size(), "the big flows' ring is one configuration");
        for (int r = 0; r < 4; r++) {
            assertEquals(r, schedule.days().get(0).source((r + 1) % 4));
        }
    }
}
