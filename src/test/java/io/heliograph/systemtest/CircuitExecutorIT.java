package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.heliograph.circuit.engine.Day;
import io.heliograph.circuit.engine.WeekPlan;
import io.heliograph.circuit.internal.exec.Fabric;
import io.heliograph.circuit.internal.exec.ResizePolicy;
import io.heliograph.circuit.internal.exec.ScheduleExecutor;
import io.heliograph.circuit.internal.exec.TcQueueResize;
import io.heliograph.openflow.SwitchRegistry;
import io.heliograph.testbed.Bridge;
import io.heliograph.testbed.InJvmOpenFlow;
import io.heliograph.testbed.Cable;
import io.heliograph.testbed.Command;
import io.heliograph.testbed.FlowEntry;
import io.heliograph.testbed.Testbed;

/**
 * The circuit executor on real Open vSwitch at scaled time (x1000: 2 s weeks): a circuit bridge with a
 * port to each of 4 ToR bridges, each ToR with a circuit uplink (to the circuit bridge) and a packet
 * uplink (to a packet bridge). Three weeks run, the third a different week given during the second;
 * the circuit bridge's table, sampled as fast as ovs-ofctl goes, only ever holds part of one of the
 * schedule's matchings (or nothing, at night), every day's matching is seen whole, rack 0's ToR sends
 * at most one rack over its circuit uplink at a time, and closing the executor leaves none of its
 * entries. Once with the circuit bridge on OpenFlow 1.4 (bundles), once on 1.3 (ordered changes). The
 * OpenFlow layer runs in this JVM, as in {@link BundlesIT}.
 *
 * <p>Isolated: it measures how late days start and how long a change takes on the switch, which
 * another test's load would distort.
 */
@Isolated
@Timeout(90)
class CircuitExecutorIT {

    private static final int RACKS = 4;
    private static final long SCALE = 1000;
    private static final long WEEK_NANOS = 2000 * 1000 * SCALE;
    private static final Pattern IN_PORT = Pattern.compile("in_port=(\\d+)");
    private static final Pattern OUTPUT = Pattern.compile("^output:(\\d+)$");
    /** ExecutorCookies.pair(0, 1) as ovs-ofctl prints it. */
    private static final String PAIR_0_1 = "cookie=0xc1c0020000000001,";
    /** An Ethernet frame with a UDP packet from 10.0.0.1 to 10.0.1.5 (checksums left 0: nothing checks them). */
    private static final String TO_RACK_1 = "020000000105" + "020000000001" + "0800"
            + "4500001c00000000" + "40110000" + "0a000001" + "0a000105" + "9c4013890008" + "0000";

    private static Day day(long micros, int... sourceOf) {
        return new Day(micros, sourceOf, new boolean[sourceOf.length]);
    }

    /** Four 500 us days (20 us nights); day 2's output 1 only fills the matching. */
    private static final WeekPlan A = new WeekPlan(20, List.of(day(500, 1, 2, 3, 0), day(500, 2, 3, 0, 1),
            new Day(500, new int[] {3, 0, 1, 2}, new boolean[] {false, true, false, false}), day(500, 1, 0, 3, 2)));
    /** The week that replaces A in the third week: three days, one of them new. */
    private static final WeekPlan B = new WeekPlan(20, List.of(day(600, 3, 2, 1, 0), day(700, 1, 2, 3, 0),
            day(700, 1, 0, 3, 2)));

    @ParameterizedTest
    @ValueSource(strings = {"OpenFlow14", "OpenFlow13"})
    void theCircuitBridgeOnlyEverHoldsTheSchedulesMatchingsAndCloseLeavesNothing(String protocol) throws Exception {
        Testbed.requireRoot();
        try (Testbed testbed = Testbed.start("CircuitExecutorIT-" + protocol)) {
            try (InJvmOpenFlow openflow = InJvmOpenFlow.start(testbed)) {
                Bridge circuit = testbed.addSwitch(9, List.of(protocol));
                Bridge packet = testbed.addSwitch(8, List.of("OpenFlow13"));
                List<Bridge> tors = new ArrayList<>();
                StringBuilder fabricText = new StringBuilder("circuit=" + circuit.dpid());
                Map<Integer, String> circuitUplinkDevice = new HashMap<>();
                for (int r = 0; r < RACKS; r++) {
                    Bridge tor = testbed.addSwitch(r + 1, List.of("OpenFlow13"));
                    tors.add(tor);
                    Cable toCircuit = testbed.link(tor, circuit);
                    Cable toPacket = testbed.link(tor, packet);
                    fabricText.append("; rack").append(r).append('=').append(tor.dpid()).append('/')
                            .append(toCircuit.portOn(circuit)).append('/').append(toPacket.portOn(tor)).append('/')
                            .append(toCircuit.portOn(tor));
                    circuitUplinkDevice.put(r, toCircuit.aDevice());
                    // The queue resizing changes: a packet FIFO at the ToR's circuit uplink.
                    Command.of("ip", "netns", "exec", testbed.switchNamespace(), "tc", "qdisc", "add", "dev",
                            toCircuit.aDevice(), "root", "pfifo", "limit", "16").check();
                }
                List<Bridge> controlled = new ArrayList<>(tors);
                controlled.add(circuit);
                testbed.ovs().setController(controlled, openflow.target());
                Fabric fabric = Fabric.parse(fabricText.toString());
                for (Bridge b : controlled) {
                    openflow.awaitSwitch(b.datapathId(), Duration.ofSeconds(15));
                }
                Map<Integer, Integer> portRack = new HashMap<>(); // circuit bridge port -> rack
                for (int r = 0; r < RACKS; r++) {
                    portRack.put(fabric.rack(r).circuitSwitchPort(), r);
                }

                TcQueueResize tc = TcQueueResize.pfifo(List.of("ip", "netns", "exec", testbed.switchNamespace()),
                        pair -> circuitUplinkDevice.get(pair.src()));
                try {
                    exercise(testbed, openflow.registry(), fabric, circuit, tors, controlled, portRack, circuitUplinkDevice, tc,
                            protocol);
                } finally {
                    tc.close();
                }
            }
        }
    }

    private void exercise(Testbed testbed, SwitchRegistry registry, Fabric fabric, Bridge circuit, List<Bridge> tors,
                          List<Bridge> controlled, Map<Integer, Integer> portRack,
                          Map<Integer, String> circuitUplinkDevice, TcQueueResize tc, String protocol) {
        Samples samples = new Samples();
        Map<String, Object> status;
        long started;
        try (ScheduleExecutor executor = new ScheduleExecutor(fabric, registry::getSwitch, SCALE,
                ScheduleExecutor.Options.defaults().withResize(ResizePolicy.etalon(100), tc))) {
            long start = epochNanos() + 300_000_000L;
            started = System.nanoTime();
            executor.run(A, start);
            int given = 1;
            int injected = 0;
            boolean pairInstalled = false;
            while (epochNanos() < start + 3 * WEEK_NANOS) {
                // The scheduling loop gives each week half a week before it starts.
                if (given < 3 && epochNanos() > start + given * WEEK_NANOS - WEEK_NANOS / 2) {
                    executor.run(given == 1 ? A : B, start + given * WEEK_NANOS);
                    given++;
                }
                samples.circuit.add(executorEntries(circuit, portRack));
                samples.tor0.add(torCircuitPairs(tors.get(0), fabric.rack(0).torCircuitUplink()));
                // Once the executor installed rack 0's pairs (never removed while it runs, only modified), a
                // packet from rack 0 to a host of rack 1 through the ToR's table counts on the pair's entry.
                pairInstalled = pairInstalled || tors.get(0).dumpFlows().stream()
                        .anyMatch(e -> e.line().contains(PAIR_0_1));
                if (pairInstalled) {
                    tors.get(0).ofctl("packet-out", "in_port=controller packet=" + TO_RACK_1 + " actions=table");
                    injected++;
                }
            }
            status = executor.status();
            // The pair's entries moved between uplinks (modified in place) without losing a packet of their
            // counts: what the VOQ estimator reads.
            FlowEntry pair01 = tors.get(0).dumpFlows().stream()
                    .filter(e -> e.line().contains(PAIR_0_1)).findFirst().orElseThrow();
            assertEquals(injected, pair01.packets(), pair01.line());
            assertTrue(injected > 100, "packets injected: " + injected);
        }
        assertTrue(tc.drain(Duration.ofSeconds(5)));

        // Every sample is part of one of the schedule's matchings (racks: input -> output), or empty.
        List<Map<Integer, Integer>> days = new ArrayList<>();
        A.days().forEach(day -> days.add(matching(day)));
        B.days().forEach(day -> days.add(matching(day)));
        List<String> wrong = new ArrayList<>();
        Set<Integer> seenWhole = new LinkedHashSet<>();
        for (Map<Integer, Integer> sample : samples.circuit) {
            boolean within = false;
            for (int k = 0; k < days.size(); k++) {
                if (days.get(k).entrySet().containsAll(sample.entrySet())) {
                    within = true;
                    if (days.get(k).equals(sample)) {
                        seenWhole.add(k);
                    }
                }
            }
            if (!within) {
                wrong.add(sample.toString());
            }
        }
        long nights = samples.circuit.stream().filter(Map::isEmpty).count();
        System.out.printf("CircuitExecutorIT[%s]: %d samples of the circuit bridge in %.1f s (%d at night),"
                + " days seen whole %s; executor %s; resizing %s%n", protocol, samples.circuit.size(),
                (System.nanoTime() - started) / 1e9, nights, seenWhole, status, tc.status());
        assertEquals(List.of(), wrong, "samples that are no part of any day's matching");
        assertEquals(Set.of(0, 1, 2, 3, 4, 5, 6), seenWhole, "every day of A and B seen whole");
        assertTrue(nights > 0, "nights seen");
        assertEquals(0L, status.get("errors"), String.valueOf(status.get("lastError")));
        assertEquals(protocol.equals("OpenFlow14") ? "bundles" : "ordered", status.get("mode"));
        // Rack 0 sends at most one rack over its circuit uplink at a time, and each of its circuits' racks.
        Set<Integer> rack0Circuits = new LinkedHashSet<>();
        for (Set<Integer> s : samples.tor0) {
            assertTrue(s.size() <= 1, "rack 0 on two circuits at once: " + s);
            rack0Circuits.addAll(s);
        }
        assertEquals(Set.of(1, 2, 3), rack0Circuits, "rack 0's circuits (to 1, 2, 3) each seen on its ToR");
        // Resizing ran, without a failure, and left each uplink at its last size.
        Map<String, Object> resizing = tc.status();
        assertEquals(0L, resizing.get("failures"), String.valueOf(resizing.get("lastError")));
        assertTrue((Long) resizing.get("commands") >= 3 * RACKS, resizing.toString());
        @SuppressWarnings("unchecked")
        Map<String, Integer> limits = (Map<String, Integer>) resizing.get("limits");
        String device = circuitUplinkDevice.get(0);
        String qdisc = Command.of("ip", "netns", "exec", testbed.switchNamespace(), "tc", "qdisc", "show", "dev",
                device).check().stdout();
        assertTrue(qdisc.contains("limit " + limits.get(device) + "p"), qdisc + " " + limits);

        // Closing left none of the executor's entries anywhere.
        for (Bridge b : controlled) {
            List<String> left = b.dumpFlows().stream().map(FlowEntry::line)
                    .filter(l -> l.contains("cookie=0xc1c0")).toList();
            assertEquals(List.of(), left, b + " after close");
        }
    }

    private static final class Samples {
        final List<Map<Integer, Integer>> circuit = new ArrayList<>();
        final List<Set<Integer>> tor0 = new ArrayList<>();
    }

    private static long epochNanos() {
        return System.currentTimeMillis() * 1_000_000L;
    }

    /** A day's circuits, rack to rack (input -> output), without its dummies and racks to themselves. */
    private static Map<Integer, Integer> matching(Day day) {
        Map<Integer, Integer> m = new TreeMap<>();
        for (int j = 0; j < day.sourceOf().length; j++) {
            if (!day.dummy(j) && day.source(j) != j) {
                m.put(day.source(j), j);
            }
        }
        return m;
    }

    /** The circuit bridge's executor entries as racks, input -> output. */
    private static Map<Integer, Integer> executorEntries(Bridge circuit, Map<Integer, Integer> portRack) {
        Map<Integer, Integer> m = new TreeMap<>();
        for (FlowEntry e : circuit.dumpFlows()) {
            if (!e.line().contains("cookie=0xc1c0")) {
                continue;
            }
            Matcher in = IN_PORT.matcher(e.match());
            Matcher out = OUTPUT.matcher(e.actions());
            if (!in.find() || !out.find()) {
                throw new AssertionError("not an in_port -> output entry: " + e.line());
            }
            Integer before = m.put(portRack.get(Integer.parseInt(in.group(1))), portRack.get(Integer.parseInt(out.group(1))));
            if (before != null) {
                throw new AssertionError("two entries for one input: " + e.line());
            }
        }
        return m;
    }

    /** The racks whose entries on this ToR send out of its circuit uplink, by the 10.0.r.0/24 they match. */
    private static Set<Integer> torCircuitPairs(Bridge tor, int circuitUplink) {
        Set<Integer> racks = new LinkedHashSet<>();
        for (FlowEntry e : tor.dumpFlows()) {
            if (e.line().contains("cookie=0xc1c0") && e.actions().equals("output:" + circuitUplink)) {
                Matcher m = Pattern.compile("nw_dst=10\\.0\\.(\\d+)\\.0/24").matcher(e.match());
                if (!m.find()) {
                    throw new AssertionError("not a rack's /24: " + e.line());
                }
                racks.add(Integer.parseInt(m.group(1)));
            }
        }
        return racks;
    }

    /** The switches' messages go nowhere: this test only talks to them. */
}
