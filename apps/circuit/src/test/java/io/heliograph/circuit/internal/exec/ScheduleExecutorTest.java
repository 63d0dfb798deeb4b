package io.heliograph.circuit.internal.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFBarrierRequest;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowDelete;
import org.projectfloodlight.openflow.protocol.OFFlowDeleteStrict;
import org.projectfloodlight.openflow.protocol.OFFlowMod;
import org.projectfloodlight.openflow.protocol.OFFlowModifyStrict;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.IPv4AddressWithMask;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.circuit.engine.CircuitGroups;
import io.heliograph.circuit.engine.Day;
import io.heliograph.circuit.engine.WeekPlan;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.testing.FakeSwitch;

/**
 * The executor against fake switches whose table 0 is emulated ({@link FlowTable}), stepped at the times
 * each test chooses (a fake clock): no thread, no sleeps, except the last test, which runs the real
 * thread at a fine time scale.
 */
class ScheduleExecutorTest {

    /** At time scale 1000 a schedule microsecond lasts a millisecond. */
    private static final long US = 1_000_000L;
    private static final long T0 = 1_700_000_000_000_000_000L;
    private static final int RACKS = 4;
    private static final int PACKET = 1;
    private static final int CIRCUIT = 2;
    /** Rack r: ToR dpid r + 1, circuit switch port 11 + r; uplinks 1 (packet) and 2 (circuit). */
    private static final Fabric FABRIC = Fabric.parse("circuit=9; rack0=1/11/1/2; rack1=2/12/1/2; rack2=3/13/1/2;"
            + " rack3=4/14/1/2");

    /** Three days (200, 300 and 250 us with 20 us nights); day 2's output 2 is a dummy. */
    private static final WeekPlan WEEK = new WeekPlan(20, List.of(
            new Day(200, new int[] {1, 2, 3, 0}, new boolean[4]),
            new Day(300, new int[] {2, 3, 0, 1}, new boolean[4]),
            new Day(250, new int[] {3, 0, 1, 2}, new boolean[] {false, false, true, false})));

    private final Map<DatapathId, OFSwitch> switches = new ConcurrentHashMap<>();
    private final Map<Integer, FlowTable> tors = new TreeMap<>();
    private FakeSwitch circuitSwitch;
    private FlowTable circuit;

    private void fabric(OFVersion circuitVersion) {
        circuitSwitch = new FakeSwitch(9, circuitVersion);
        circuit = FlowTable.on(circuitSwitch);
        switches.put(circuitSwitch.getId(), circuitSwitch);
        for (int r = 0; r < RACKS; r++) {
            FakeSwitch tor = new FakeSwitch(r + 1, OFVersion.OF_13);
            tors.put(r, FlowTable.on(tor));
            switches.put(tor.getId(), tor);
        }
    }

    private ScheduleExecutor executor(ScheduleExecutor.Options options) {
        return new ScheduleExecutor(FABRIC, switches::get, 1000, options, () -> {
            throw new AssertionError("stepped by the test: no clock");
        }, false);
    }

    /** What the circuit switch should hold on day k: in_port of rack sourceOf[j] -> port of rack j, no dummies. */
    private static Map<Integer, Integer> circuitsOf(Day day) {
        Map<Integer, Integer> m = new TreeMap<>();
        for (int j = 0; j < RACKS; j++) {
            if (!day.dummy(j) && day.source(j) != j) { // a rack to itself needs no circuit
                m.put(11 + day.source(j), 11 + j);
            }
        }
        return m;
    }

    /** What rack r's ToR should hold: every other rack on the packet uplink, the circuit's on the circuit uplink. */
    private static Map<Integer, Integer> pairsOf(Day day, int r) {
        Map<Integer, Integer> m = new TreeMap<>();
        for (int d = 0; d < RACKS; d++) {
            if (d != r) {
                m.put(d, day != null && day.source(d) == r && !day.dummy(d) ? CIRCUIT : PACKET);
            }
        }
        return m;
    }

    /**
     * No ToR ever sends a pair into the circuit switch while the circuit switch does not carry that pair:
     * checked after every message any switch applies.
     */
    private void watchToRsNeverAheadOfTheCircuit() {
        for (Map.Entry<Integer, FlowTable> t : tors.entrySet()) {
            int r = t.getKey();
            t.getValue().watch(m -> t.getValue().pairs().forEach((d, uplink) -> {
                if (uplink == CIRCUIT && !Integer.valueOf(11 + d).equals(circuit.circuits().get(11 + r))) {
                    fail("rack " + r + " sends to rack " + d + " over a circuit the circuit switch does not have: "
                            + circuit.circuits());
                }
            }));
        }
        circuit.watch(m -> tors.forEach((r, t) -> t.pairs().forEach((d, uplink) -> {
            if (uplink == CIRCUIT && !Integer.valueOf(11 + d).equals(circuit.circuits().get(11 + r))) {
                fail("the circuit " + r + "->" + d + " went down while rack " + r + "'s ToR still sends into it");
            }
        })));
    }

    @Test
    void aWeeksDaysBecomeTheirEntriesAtTheirTimesAndNightsWithdrawThem() {
        fabric(OFVersion.OF_14);
        watchToRsNeverAheadOfTheCircuit();
        ScheduleExecutor exec = executor(ScheduleExecutor.Options.defaults());
        exec.run(WEEK, T0);
        List<Long> times = new ArrayList<>();
        long t = T0;
        while (t < T0 + 2 * 750 * US) {
            times.add((t - T0) / US);
            long next = exec.step(t);
            long offset = (t - T0) % (750 * US) / US;
            int k = offset < 200 ? 0 : offset < 500 ? 1 : 2;
            long upEnd = k == 0 ? 180 : k == 1 ? 480 : 730;
            Day day = offset < upEnd ? WEEK.days().get(k) : null;
            assertEquals(day == null ? Map.of() : circuitsOf(day), circuit.circuits(), "at " + offset + " us");
            for (int r = 0; r < RACKS; r++) {
                assertEquals(pairsOf(day, r), tors.get(r).pairs(), "rack " + r + " at " + offset + " us");
            }
            assertEquals(day == null ? -1 : k, exec.status().get("currentDay"));
            t = next;
        }
        assertEquals(List.of(0L, 180L, 200L, 480L, 500L, 730L, 750L, 930L, 950L, 1230L, 1250L, 1480L), times,
                "a step at each day's start and end, from the week's start");
        Map<String, Object> s = exec.status();
        assertEquals("bundles", s.get("mode"));
        assertEquals(6L, s.get("daysInstalled"));
        assertEquals(6L, s.get("nightsInstalled"));
        assertEquals(2L, s.get("weeksRun"));
        assertEquals(0L, s.get("lateDays"));
        assertEquals(0L, s.get("errors"), String.valueOf(s.get("lastError")));
        // Rack 0's ToR matches rack 1's hosts (10.0.1.0/24 by default) with the pair's cookie.
        FlowTable.Entry e = tors.get(0).entries().stream()
                .filter(x -> x.cookie() == ExecutorCookies.pair(0, 1)).findFirst().orElseThrow();
        assertEquals(IPv4AddressWithMask.of("10.0.1.0/24"), e.match().getMasked(MatchField.IPV4_DST));
        assertEquals(ScheduleExecutor.TOR_PRIORITY, e.priority());
    }

    @Test
    void inOrderedModeNoTwoInputsEverShareAnOutputEvenWhenAWeekReplacesAnotherMidDay() {
        fabric(OFVersion.OF_13);
        // Every message the circuit switch applies, in order; a barrier closes a phase.
        List<OFMessage> phase = new ArrayList<>();
        AtomicReference<Map<Integer, Integer>> atPhaseStart = new AtomicReference<>(new TreeMap<>());
        int[] modifies = {0};
        circuit.watch(m -> {
            if (m instanceof OFBarrierRequest) {
                checkEveryOrder(atPhaseStart.get(), phase);
                phase.clear();
                atPhaseStart.set(new TreeMap<>(circuit.circuits()));
                return;
            }
            phase.add(m);
            if (m instanceof OFFlowModifyStrict) {
                modifies[0]++;
            }
            Map<Integer, Integer> now = circuit.circuits();
            assertEquals(now.size(), new HashSet<>(now.values()).size(), "two inputs share an output: " + now);
        });
        ScheduleExecutor exec = executor(ScheduleExecutor.Options.defaults());
        Random random = new Random(23);
        long t = T0;
        for (int i = 0; i < 300; i++) {
            Day day = randomDay(random);
            exec.run(new WeekPlan(20, List.of(day)), t);
            exec.step(t);
            assertEquals(circuitsOf(day), circuit.circuits());
            assertTrue(phase.isEmpty(), "every phase ends with a barrier");
            t += 5 * US;
        }
        assertTrue(modifies[0] > 100, "entries moved in place (rings and chains), not only removed and added: " + modifies[0]);
        assertEquals("ordered", exec.status().get("mode"));
        assertEquals(0L, exec.status().get("errors"));
    }

    private static Day randomDay(Random random) {
        List<Integer> perm = new ArrayList<>(IntStream.range(0, RACKS).boxed().toList());
        Collections.shuffle(perm, random);
        boolean[] dummy = new boolean[RACKS];
        for (int j = 0; j < RACKS; j++) {
            dummy[j] = random.nextInt(6) == 0;
        }
        return new Day(200, perm.stream().mapToInt(Integer::intValue).toArray(), dummy);
    }

    /** Applying any subset of a phase's messages, in any order, to the state the phase began in keeps outputs distinct. */
    private static void checkEveryOrder(Map<Integer, Integer> start, List<OFMessage> phase) {
        int n = phase.size();
        assertTrue(n <= 16);
        for (int subset = 0; subset < 1 << n; subset++) {
            Map<Integer, Integer> state = new HashMap<>(start);
            for (int i = 0; i < n; i++) {
                if ((subset & 1 << i) != 0) {
                    OFFlowMod mod = (OFFlowMod) phase.get(i);
                    int in = mod.getMatch().get(MatchField.IN_PORT) == null ? -1
                            : mod.getMatch().get(MatchField.IN_PORT).getPortNumber();
                    if (mod instanceof OFFlowDeleteStrict) {
                        state.remove(in);
                    } else if (mod instanceof OFFlowDelete) {
                        state.clear(); // a first contact's delete of everything: only ever alone in its phase
                        assertEquals(1, n);
                    } else {
                        state.put(in, output(mod));
                    }
                }
            }
            assertEquals(state.size(), new HashSet<>(state.values()).size(),
                    "a phase applied in some order shares an output: " + start + " + " + phase);
        }
    }

    private static int output(OFFlowMod mod) {
        var apply = (org.projectfloodlight.openflow.protocol.instruction.OFInstructionApplyActions) mod.getInstructions().get(0);
        return ((org.projectfloodlight.openflow.protocol.action.OFActionOutput) apply.getActions().get(0)).getPort()
                .getPortNumber();
    }

    @Test
    void closeAndAFirstContactDeleteExactlyTheExecutorsEntries() {
        fabric(OFVersion.OF_14);
        var f = circuitSwitch.getFactory();
        var alienMatch = f.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(11)).build();
        circuit.put(0x99, 500, alienMatch, 12);
        // Left by an executor before a restart: an input this one would never use.
        circuit.put(ExecutorCookies.circuit(3), ScheduleExecutor.CIRCUIT_PRIORITY,
                f.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(99)).build(), 98);
        tors.get(2).put(0x77, ScheduleExecutor.TOR_PRIORITY, alienMatch, 5);
        tors.get(2).put(ExecutorCookies.pair(2, 7), ScheduleExecutor.TOR_PRIORITY,
                f.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(42)).build(), 2);

        ScheduleExecutor exec = executor(ScheduleExecutor.Options.defaults());
        exec.run(WEEK, T0);
        exec.step(T0);
        assertEquals(circuitsOf(WEEK.days().get(0)), circuit.circuits(), "the stale entry is gone");
        assertEquals(pairsOf(WEEK.days().get(0), 2), tors.get(2).pairs(), "the stale pair 2->7 is gone");
        assertEquals(1, circuit.entries().stream().filter(e -> e.cookie() == 0x99).count());
        assertEquals(1, tors.get(2).entries().stream().filter(e -> e.cookie() == 0x77).count());

        exec.close();
        assertEquals(List.of(0x99L), circuit.entries().stream().map(FlowTable.Entry::cookie).toList());
        assertEquals(List.of(0x77L), tors.get(2).entries().stream().map(FlowTable.Entry::cookie).toList());
        for (int r : List.of(0, 1, 3)) {
            assertEquals(List.of(), tors.get(r).entries());
        }
        assertEquals(null, exec.status().get("currentDay"));
    }

    @Test
    void aLateDayIsCountedAndMissedDaysAreSkippedWithoutDrift() {
        fabric(OFVersion.OF_14);
        ScheduleExecutor exec = executor(ScheduleExecutor.Options.defaults());
        exec.run(WEEK, T0);
        assertEquals(T0 + 180 * US, exec.step(T0));
        assertEquals(T0 + 200 * US, exec.step(T0 + 180 * US + 3 * US), "the night's end, wherever the step fell");
        // Day 1 starts 15 us (15 ms scaled) late: more than half a night.
        assertEquals(T0 + 480 * US, exec.step(T0 + 215 * US));
        assertEquals(1L, exec.status().get("lateDays"));
        assertEquals(circuitsOf(WEEK.days().get(1)), circuit.circuits());
        // The executor stalls from day 1 to the next week: day 2 passes unseen; the next day 0 is on time.
        assertEquals(T0 + (750 + 180) * US, exec.step(T0 + 755 * US));
        Map<String, Object> s = exec.status();
        assertEquals(1L, s.get("skippedDays"));
        assertEquals(1L, s.get("lateDays"));
        assertEquals(3L, s.get("daysInstalled"));
        assertEquals(2L, s.get("weeksRun"));
        assertEquals(circuitsOf(WEEK.days().get(0)), circuit.circuits(), "straight to where the week is");
        for (int r = 0; r < RACKS; r++) {
            assertEquals(pairsOf(WEEK.days().get(0), r), tors.get(r).pairs());
        }
    }

    @Test
    void aMissingSwitchOrARefusedBundleIsCountedAndTheNextDayTriesAgain() {
        fabric(OFVersion.OF_14);
        switches.remove(circuitSwitch.getId());
        ScheduleExecutor exec = executor(ScheduleExecutor.Options.defaults());
        exec.run(WEEK, T0);
        long t = exec.step(T0);
        assertEquals(1L, exec.status().get("errors"));
        assertTrue(String.valueOf(exec.status().get("lastError")).contains("is not connected"));
        for (int r = 0; r < RACKS; r++) {
            assertEquals(pairsOf(null, r), tors.get(r).pairs(), "no pair goes to a circuit that is not up");
        }
        switches.put(circuitSwitch.getId(), circuitSwitch);
        t = exec.step(t); // night
        t = exec.step(t); // day 1
        assertEquals(circuitsOf(WEEK.days().get(1)), circuit.circuits());
        t = exec.step(t); // night

        circuitSwitch.failBundleCommits(new IllegalStateException("refused by the switch"));
        t = exec.step(t); // day 2: refused
        assertEquals(Map.of(), circuit.circuits());
        assertTrue(String.valueOf(exec.status().get("lastError")).contains("refused by the switch"));
        for (int r = 0; r < RACKS; r++) {
            assertEquals(pairsOf(null, r), tors.get(r).pairs());
        }
        circuitSwitch.failBundleCommits(null);
        t = exec.step(t); // night: nothing to withdraw, the state unknown: deletes everything of the executor
        t = exec.step(t); // day 0 of week 1
        assertEquals(circuitsOf(WEEK.days().get(0)), circuit.circuits());
        Map<String, Object> s = exec.status();
        assertEquals(2L, s.get("errors"), s.toString()); // not connected, then refused
        assertEquals(2L, s.get("daysInstalled"));
    }

    @Test
    void resizesAreEmittedTauBeforeEachCircuitAndAtItsEnd() {
        fabric(OFVersion.OF_14);
        List<Resize> seen = new ArrayList<>();
        long[] now = {0};
        ScheduleExecutor exec = executor(ScheduleExecutor.Options.defaults()
                .withResize(new ResizePolicy(16, 128, 50), (pair, packets, when) ->
                        seen.add(new Resize(now[0], pair, packets, when))));
        exec.run(WEEK, T0);
        now[0] = T0;
        while (now[0] < T0 + 2 * 750 * US) {
            now[0] = exec.step(now[0]);
        }
        // When a week takes over, every pair is told its size: day 0's pairs are big (tau reaches back into the week).
        List<Resize> sync = seen.subList(0, RACKS * (RACKS - 1));
        for (Resize r : sync) {
            boolean day0 = WEEK.days().get(0).source(r.pair().dst()) == r.pair().src();
            assertEquals(day0 ? 128 : 16, r.packets(), r.toString());
            assertEquals(T0, r.when());
        }
        List<Resize> changes = seen.subList(sync.size(), seen.size());
        for (Resize r : changes) {
            assertEquals(r.at(), r.when(), "emitted at its time: " + r);
        }
        // Pair 1->0 (day 0): shrinks at 180, grows at 700 (tau before the next week's day 0).
        assertEquals(List.of(180L, 700L, 930L, 1450L), times(changes, new RackPair(1, 0)));
        // Pair 2->0 (day 1, up 200..480): grows at 150 and shrinks at 480.
        assertEquals(List.of(150L, 480L, 900L, 1230L), times(changes, new RackPair(2, 0)));
        assertEquals(List.of(128, 16, 128, 16), changes.stream().filter(r -> r.pair().equals(new RackPair(2, 0)))
                .map(Resize::packets).toList());
        // Pair 1->2 is up only as day 2's dummy: never resized after the first sync.
        assertEquals(List.of(), times(changes, new RackPair(1, 2)));
        assertEquals((long) seen.size(), exec.status().get("resizes"));
    }

    private record Resize(long at, RackPair pair, int packets, long when) {
    }

    private static List<Long> times(List<Resize> resizes, RackPair pair) {
        return resizes.stream().filter(r -> r.pair().equals(pair)).map(r -> (r.at() - T0) / US).toList();
    }

    @Test
    void theToRsMatchTheCircuitGroupsHosts() {
        fabric(OFVersion.OF_14);
        CircuitGroups groups = CircuitGroups.uniform(RACKS, 2);
        ScheduleExecutor exec = executor(ScheduleExecutor.Options.defaults().withGroups(groups));
        exec.run(WEEK, T0);
        exec.step(T0);
        Set<String> matched = new HashSet<>();
        for (FlowTable.Entry e : tors.get(0).entries()) {
            assertTrue(ExecutorCookies.isPair(e.cookie()));
            RackPair pair = ExecutorCookies.pairOf(e.cookie());
            assertTrue(e.match().isExact(MatchField.IPV4_DST), "a host is a /32: " + e.match());
            String host = e.match().get(MatchField.IPV4_DST).toString();
            assertEquals(pair.dst(), groups.rackOf(host).getAsInt());
            matched.add(host);
        }
        assertEquals(6, matched.size(), "two hosts in each other rack: " + matched);
    }

    @Test
    void itsOwnThreadKeepsTheTimesWithoutDrift() throws Exception {
        fabric(OFVersion.OF_14);
        ScheduleExecutor.Clock clock = ScheduleExecutor.Clock.SYSTEM;
        Map<Long, Long> changedAt = new ConcurrentHashMap<>();
        circuit.watch(m -> {
            if (m instanceof OFFlowAdd add) {
                changedAt.putIfAbsent(clock.epochNanos(), (long) add.getMatch().get(MatchField.IN_PORT).getPortNumber());
            }
        });
        long scale = 100; // a 750 us week lasts 75 ms
        try (ScheduleExecutor exec = new ScheduleExecutor(FABRIC, switches::get, scale,
                ScheduleExecutor.Options.defaults(), clock, true)) {
            long start = clock.epochNanos() + 20_000_000L;
            exec.run(WEEK, start);
            long end = start + 6 * 750 * 1000 * scale;
            while ((Long) exec.status().get("weeksRun") < 7 && clock.epochNanos() < end + 2_000_000_000L) {
                Thread.sleep(5); // waiting for the seventh week to begin
            }
            Map<String, Object> s = exec.status();
            assertTrue((Long) s.get("daysInstalled") >= 12, s.toString());
            assertEquals(0L, s.get("errors"), s.toString());
            // Every day's entries were added at or after the day's start, never before.
            long week = 750 * 1000 * scale;
            for (long at : changedAt.keySet()) {
                long offset = Math.floorMod(at - start, week) / (1000 * scale);
                assertTrue(offset >= 0 && offset < 180 || offset >= 200 && offset < 480 || offset >= 500 && offset < 730,
                        "an entry added during a night, at " + offset + " us of the week");
            }
            System.out.println("ScheduleExecutorTest: six 75 ms weeks on fake switches: " + s);
        }
        assertNotEquals(0, changedAt.size());
        assertFalse(circuit.circuits().size() > 0, "closed: withdrawn");
    }
}
