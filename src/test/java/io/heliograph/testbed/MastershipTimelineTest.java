package io.heliograph.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link MastershipTimeline} from log lines as the cluster bundle writes them. */
class MastershipTimelineTest {

    private static final String S1 = "00:00:00:00:00:00:00:01";
    private static final String S2 = "00:00:00:00:00:00:00:02";

    private static String line(String time, String text) {
        return "2026-11-22 06:11:" + time + " [mastership-cX] INFO MastershipElection - " + text + "\n";
    }

    private static String sw(String dpid) {
        return "switch " + dpid + " at /198.18.0.2:5" + dpid.charAt(dpid.length() - 1) + "000";
    }

    private static long at(String time) {
        return MastershipTimeline.epochMillis("2026-11-22 06:11:" + time);
    }

    @Test
    void aStretchLastsFromTheSwitchsConfirmationUntilTheInstanceLetsGo() {
        String c1 = line("10.000", sw(S1) + ": master (generation 4294967333)")
                + line("10.100", sw(S2) + ": master (generation 4294967334) 12.5 ms after its master node was seen gone")
                + line("12.000", sw(S2) + ": handing mastership over to c2")
                + line("14.000", "ZooKeeper session suspended: no longer master of 1 switch(es) until it is back");
        String c2 = line("12.500", sw(S2) + ": master (generation 4294967340)")
                + line("19.000", sw(S1) + ": master (generation 4294967350)")
                + "2026-11-22 06:11:20.000 [openflow-io-3-1] INFO SwitchConnection - " + sw(S2) + " disconnected\n";
        MastershipTimeline timeline = MastershipTimeline.fromLogs(Map.of("c1", c1, "c2", c2));

        assertEquals(List.of(
                new MastershipTimeline.Interval("c1", S1, at("10.000"), at("14.000")),
                new MastershipTimeline.Interval("c1", S2, at("10.100"), at("12.000")),
                new MastershipTimeline.Interval("c2", S2, at("12.500"), at("20.000")),
                new MastershipTimeline.Interval("c2", S1, at("19.000"), Long.MAX_VALUE)), timeline.intervals());
        assertEquals(List.of(), timeline.overlaps());
        assertEquals(at("19.000"), timeline.firstMasterAfter(S1, at("14.000"), "c1").orElseThrow().start());
        assertEquals(5000, timeline.longestWithoutMaster(S1, at("10.000"), at("21.000")), "from 14 s to 19 s");
        assertEquals(500, timeline.longestWithoutMaster(S2, at("10.100"), at("20.000")), "from 12 s to 12.5 s");
        assertEquals(List.of(), timeline.startedAfter("c1", at("11.000")));
        assertEquals(Map.of(S1, "c1", S2, "c1"), timeline.mastersAt(at("11.000")));
        assertEquals(Map.of(S1, "c1", S2, "c2"), timeline.mastersAt(at("13.000")));
        assertEquals(Map.of(S2, "c2"), timeline.mastersAt(at("14.000")), "c1's session suspended at 14 s");
        assertEquals(Map.of(S1, "c2"), timeline.mastersAt(at("21.000")), "s2 disconnected from c2 at 20 s");
    }

    @Test
    void twoInstancesMasteringOneSwitchAtOnceAreAnOverlap() {
        String c1 = line("10.000", sw(S1) + ": master (generation 10)");
        String c2 = line("11.000", sw(S1) + ": master (generation 20)")
                + line("11.500", sw(S1) + ": c1 is master now (generation 30); demoting");
        List<String> overlaps = MastershipTimeline.fromLogs(Map.of("c1", c1, "c2", c2)).overlaps();
        assertEquals(1, overlaps.size(), overlaps.toString());
        assertTrue(overlaps.get(0).contains("c1 master of " + S1) && overlaps.get(0).contains("c2 master of " + S1),
                overlaps.get(0));
    }

    @Test
    void aMasterWhoseNodeIsGoneStopsBeforeTheNextOneStarts() {
        String c1 = line("10.000", sw(S1) + ": master (generation 10)")
                + line("11.000", sw(S1) + ": its master node (generation 10) is gone; demoting");
        String c2 = line("11.200", sw(S1) + ": master (generation 20)");
        MastershipTimeline timeline = MastershipTimeline.fromLogs(Map.of("c1", c1, "c2", c2));
        assertEquals(List.of(), timeline.overlaps());
        assertEquals(new MastershipTimeline.Interval("c1", S1, at("10.000"), at("11.000")), timeline.intervals().get(0));
    }

    @Test
    void aDatapathIdIsWrittenAsTheLogsWriteIt() {
        assertEquals("00:00:00:00:00:00:01:0a", MastershipTimeline.dpid(0x10a));
    }
}
