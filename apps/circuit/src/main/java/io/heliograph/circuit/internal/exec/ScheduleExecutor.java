package io.heliograph.circuit.internal.exec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowMod;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.IPv4AddressWithMask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.circuit.engine.CircuitGroups;
import io.heliograph.circuit.engine.Day;
import io.heliograph.circuit.engine.MatchingTransition;
import io.heliograph.circuit.engine.WeekPlan;
import io.heliograph.core.OFBundle;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.WorkerThreads;

/**
 * Runs weeks of circuit days on a {@link Fabric}, at scaled time, over OpenFlow.
 *
 * <p><b>Time.</b> A schedule's microsecond is {@code timeScale} real microseconds (1000 by default: a
 * 20 us night lasts 20 ms, a 180 us day 180 ms, a 2,000 us week 2 s). A week repeats from its start
 * until {@link #run} gives the next, which takes over at its own start (a start already past takes over
 * at once, at the point the week has reached). Every deadline is computed from the week's start, never
 * by adding up waits, so nothing drifts; the executor waits on its own thread ({@code circuit-executor}),
 * never on an I/O thread.
 *
 * <p><b>A day</b> (its up time: the day's length less the night that ends it): on the circuit switch,
 * one entry per non-dummy input, {@code in_port} = rack {@code sourceOf[j]}'s port, output rack j's port,
 * at {@link #CIRCUIT_PRIORITY}; installed in one OpenFlow bundle when the switch negotiated 1.4 or later
 * ({@code mode: bundles}), else in {@link MatchingTransition}'s phases with a barrier after each
 * ({@code mode: ordered}), so no two inputs ever share an output. The night withdraws them the same way.
 * On the ToRs, every rack pair has its entries (one per prefix of the destination rack's hosts, at
 * {@link #TOR_PRIORITY}, cookie {@link ExecutorCookies#pair}) out of the source ToR's packet uplink;
 * while the pair's circuit is up they send out of its circuit uplink instead, so the pair's packet path
 * is off during its day. The pairs leaving the circuit move back to packets (and their ToRs confirm,
 * by barrier) before the circuit switch changes; the pairs gaining a circuit move after it confirmed.
 *
 * <p><b>Late days.</b> A day whose installation begins more than half a night after its start counts as
 * late; a day whose whole up time passed while the executor was busy (a slow switch, a stalled thread)
 * is skipped and counted, and the executor goes straight to where the week is now.
 *
 * <p><b>Errors</b> (a switch not connected, a refused bundle, no answer within the switch timeout) are
 * counted and shown by {@link #status()}, never thrown to the caller; the switch's state is then taken as
 * unknown, and the next change first deletes every entry of the executor there (cookie-masked) and
 * installs the state whole. The first contact with a switch (after a restart of the controller too) does
 * the same, so stale entries of an earlier executor never linger. {@link #close()} deletes them all.
 *
 * <p><b>Buffer resizing</b> ({@link ResizePolicy}, {@link ResizeAction}) is emitted from the same
 * timeline: each change at its time, every pair's size when a week takes over.
 */
public final class ScheduleExecutor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ScheduleExecutor.class);

    /** The circuit switch's entries: above the table-miss and any default entry. */
    public static final int CIRCUIT_PRIORITY = 1000;
    /** The ToRs' pair entries: above the forwarding apps' entries (at most 100 by default), below operators' static flows. */
    public static final int TOR_PRIORITY = 1000;
    public static final long DEFAULT_TIME_SCALE = 1000;

    /**
     * What the executor needs beyond the contract's three arguments.
     *
     * @param rackHosts the hosts ("10.0.1.5") or prefixes ("10.0.1.0/24") of each rack, read once at construction
     * @param resize the resize policy, or null for none
     * @param onResize where resizes go
     * @param switchTimeout how long the executor waits for a switch's commit or barrier
     */
    public record Options(Function<Integer, List<String>> rackHosts, ResizePolicy resize, ResizeAction onResize,
                          Duration switchTimeout) {
        public Options {
            Objects.requireNonNull(rackHosts, "rackHosts");
            Objects.requireNonNull(onResize, "onResize");
            Objects.requireNonNull(switchTimeout, "switchTimeout");
        }

        /** Rack r is 10.0.r.0/24; no resizing; a 2 s switch timeout. */
        public static Options defaults() {
            return new Options(r -> List.of("10.0." + r + ".0/24"), null, ResizeAction.NONE, Duration.ofSeconds(2));
        }

        /** The hosts of each rack from the circuit groups. */
        public Options withGroups(CircuitGroups groups) {
            return new Options(groups::hosts, resize, onResize, switchTimeout);
        }

        public Options withRackHosts(Function<Integer, List<String>> hosts) {
            return new Options(hosts, resize, onResize, switchTimeout);
        }

        public Options withResize(ResizePolicy policy, ResizeAction action) {
            return new Options(rackHosts, policy, action, switchTimeout);
        }

        public Options withSwitchTimeout(Duration timeout) {
            return new Options(rackHosts, resize, onResize, timeout);
        }
    }

    /** Wall-clock time in nanoseconds since the epoch. */
    interface Clock {
        long epochNanos();

        /** System.currentTimeMillis() based, with nanoTime's resolution and monotony. */
        Clock SYSTEM = new Clock() {
            private final long base = System.currentTimeMillis() * 1_000_000L - System.nanoTime();

            @Override
            public long epochNanos() {
                return base + System.nanoTime();
            }
        };
    }

    /** A week as the executor runs it: the day boundaries and resize events in nanoseconds from the week's start. */
    private record Running(WeekPlan plan, long start, long weekNanos, long[] upStart, long[] upEnd, long[] boundaries,
                           List<int[]> outputs, List<ResizePolicy.Event> events, long[] eventNanos,
                           Map<RackPair, List<long[]>> spans, long nightNanos) {
    }

    private static final long IDLE_NANOS = 1_000_000_000L;

    private final Fabric fabric;
    private final Function<DatapathId, OFSwitch> switches;
    private final long timeScale;
    private final Options options;
    private final Clock clock;
    private final List<List<IPv4AddressWithMask>> prefixes = new ArrayList<>();
    private final Thread thread;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wake = lock.newCondition();
    private Running pending;          // guarded by lock
    private boolean woken;            // guarded by lock
    private volatile boolean closed;

    // Owned by the executor's thread (or by the test that steps it).
    private Running current;
    private long installedSlot = Long.MIN_VALUE;
    private long lastDayAbs = -1;
    private long lastWeekIndex = -1;
    private boolean syncResize;
    private long resizeCursor;
    private OFSwitch circuitHandle;
    private int[] circuitState;       // outputOf[input] installed, -1 for none; null: unknown
    private final OFSwitch[] torHandles;
    private final boolean[][] onCircuit; // [src][dst] the pair sends out of its circuit uplink; a null row: unknown

    private final AtomicLong weeksReceived = new AtomicLong();
    private final AtomicLong weeksRun = new AtomicLong();
    private final AtomicLong daysInstalled = new AtomicLong();
    private final AtomicLong nightsInstalled = new AtomicLong();
    private final AtomicLong lateDays = new AtomicLong();
    private final AtomicLong skippedDays = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong resizes = new AtomicLong();
    private volatile String lastError;
    private volatile long lastErrorAtMillis;
    private volatile String mode = "unknown";
    private volatile Integer currentDay;
    private volatile long currentWeekStart;
    private final RecentTimes changeTimes = new RecentTimes();
    private final RecentTimes dayLags = new RecentTimes();
    private final Set<String> logged = new HashSet<>();

    /** The contract's executor: rack r's hosts are 10.0.r.0/24, no resizing. */
    public ScheduleExecutor(Fabric fabric, Function<DatapathId, OFSwitch> switches, long timeScale) {
        this(fabric, switches, timeScale, Options.defaults());
    }

    public ScheduleExecutor(Fabric fabric, Function<DatapathId, OFSwitch> switches, long timeScale, Options options) {
        this(fabric, switches, timeScale, options, Clock.SYSTEM, true);
    }

    /** With {@code ownThread} false nothing runs by itself: a test calls {@link #step} at the times it chooses. */
    ScheduleExecutor(Fabric fabric, Function<DatapathId, OFSwitch> switches, long timeScale, Options options,
                     Clock clock, boolean ownThread) {
        this.fabric = Objects.requireNonNull(fabric, "fabric");
        this.switches = Objects.requireNonNull(switches, "switches");
        if (timeScale < 1) {
            throw new IllegalArgumentException("timeScale must be 1 or more, not " + timeScale);
        }
        this.timeScale = timeScale;
        this.options = Objects.requireNonNull(options, "options");
        this.clock = clock;
        for (int r = 0; r < fabric.size(); r++) {
            List<String> hosts = options.rackHosts().apply(r);
            if (hosts == null || hosts.isEmpty()) {
                throw new IllegalArgumentException("rack " + r + " has no hosts: its ToR pairs would match nothing");
            }
            prefixes.add(hosts.stream().map(CircuitFlows::prefix).distinct().toList());
        }
        this.torHandles = new OFSwitch[fabric.size()];
        this.onCircuit = new boolean[fabric.size()][];
        if (ownThread) {
            thread = WorkerThreads.named("circuit-executor").newThread(this::loop);
            thread.setPriority(Thread.MAX_PRIORITY);
            thread.start();
        } else {
            thread = null;
        }
    }

    /**
     * Runs {@code week} from {@code weekStartEpochNanos} on, repeating it until the next call's week takes
     * over at its own start. Returns at once.
     *
     * @throws IllegalArgumentException when the week's racks are not the fabric's
     */
    public void run(WeekPlan week, long weekStartEpochNanos) {
        if (week.racks() != fabric.size()) {
            throw new IllegalArgumentException("the week has " + week.racks() + " racks, the fabric " + fabric.size());
        }
        Running next = running(week, weekStartEpochNanos);
        lock.lock();
        try {
            pending = next;
            woken = true;
            wake.signalAll();
        } finally {
            lock.unlock();
        }
        weeksReceived.incrementAndGet();
    }

    private Running running(WeekPlan week, long start) {
        long scale = 1000L * timeScale; // nanoseconds per schedule microsecond
        int days = week.days().size();
        long[] upStart = new long[days];
        long[] upEnd = new long[days];
        List<int[]> outputs = new ArrayList<>();
        long at = 0;
        long[] boundaries = new long[2 * days + 1];
        for (int k = 0; k < days; k++) {
            Day day = week.days().get(k);
            upStart[k] = at * scale;
            upEnd[k] = (at + day.micros() - week.nightMicros()) * scale;
            boundaries[2 * k] = upStart[k];
            boundaries[2 * k + 1] = upEnd[k];
            at += day.micros();
            int[] outputOf = new int[fabric.size()];
            Arrays.fill(outputOf, -1);
            for (int j = 0; j < outputOf.length; j++) {
                if (!day.dummy(j) && day.source(j) != j) { // a rack to itself needs no circuit
                    outputOf[day.source(j)] = j;
                }
            }
            outputs.add(outputOf);
        }
        boundaries[2 * days] = at * scale;
        List<ResizePolicy.Event> events = options.resize() == null ? List.of() : options.resize().events(week);
        long[] eventNanos = events.stream().mapToLong(e -> e.offsetMicros() * scale).toArray();
        Map<RackPair, List<long[]>> spans = options.resize() == null ? Map.of() : options.resize().bigSpans(week);
        return new Running(week, start, at * scale, upStart, upEnd, boundaries, outputs, events, eventNanos, spans,
                week.nightMicros() * scale);
    }

    // --- the executor's thread ---

    private void loop() {
        while (!closed) {
            long next;
            try {
                next = step(clock.epochNanos());
            } catch (RuntimeException e) {
                error("a step failed: " + e);
                next = clock.epochNanos() + 100_000_000L;
            }
            lock.lock();
            try {
                while (!closed && !woken) {
                    long wait = next - clock.epochNanos();
                    if (wait <= 0) {
                        break;
                    }
                    wake.awaitNanos(wait);
                }
                woken = false;
            } catch (InterruptedException e) {
                return;
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Does what is due at {@code now} (a week taking over, a day or night, resizes) and returns when the
     * next thing is due. Called by the executor's thread, or by a test with a thread of its own.
     */
    long step(long now) {
        Running next;
        lock.lock();
        try {
            next = pending;
            if (next != null && now >= next.start()) {
                pending = null;
            } else {
                next = null;
            }
        } finally {
            lock.unlock();
        }
        if (next != null) {
            current = next;
            installedSlot = Long.MIN_VALUE;
            lastDayAbs = -1;
            lastWeekIndex = -1;
            syncResize = true;
            currentWeekStart = next.start();
        }
        Running week = current;
        long waitingStart = pendingStart();
        if (week == null || now < week.start()) {
            return Math.min(waitingStart, now + IDLE_NANOS);
        }
        long elapsed = now - week.start();
        long weekIndex = elapsed / week.weekNanos();
        long offset = elapsed % week.weekNanos();
        long weekStart = week.start() + weekIndex * week.weekNanos();
        if (weekIndex != lastWeekIndex) {
            lastWeekIndex = weekIndex;
            weeksRun.incrementAndGet();
        }
        int days = week.upStart().length;
        int k = days - 1;
        while (week.upStart()[k] > offset) {
            k--;
        }
        boolean up = offset < week.upEnd()[k];
        long slot = up ? weekIndex * days + k : -1 - (weekIndex * days + k);
        if (slot != installedSlot) {
            if (up) {
                long abs = weekIndex * days + k;
                if (lastDayAbs >= 0 && abs - lastDayAbs > 1) {
                    skippedDays.addAndGet(abs - lastDayAbs - 1);
                }
                lastDayAbs = abs;
                if (offset - week.upStart()[k] > week.nightNanos() / 2) {
                    lateDays.incrementAndGet();
                }
            }
            installedSlot = slot;
            int[] target = up ? week.outputs().get(k) : none();
            long applying = System.nanoTime();
            if (apply(target)) {
                (up ? daysInstalled : nightsInstalled).incrementAndGet();
                if (up) {
                    dayLags.record(offset - week.upStart()[k] + System.nanoTime() - applying);
                }
            }
            currentDay = up ? k : -1;
        }
        resize(week, now, weekIndex, offset);
        long due = weekStart + week.weekNanos();
        for (long b : week.boundaries()) {
            if (b > offset) {
                due = Math.min(due, weekStart + b);
                break;
            }
        }
        if (!week.events().isEmpty()) {
            due = Math.min(due, eventTime(week, resizeCursor));
        }
        return Math.min(due, waitingStart);
    }

    private long pendingStart() {
        lock.lock();
        try {
            return pending == null ? Long.MAX_VALUE : pending.start();
        } finally {
            lock.unlock();
        }
    }

    private int[] none() {
        int[] none = new int[fabric.size()];
        Arrays.fill(none, -1);
        return none;
    }

    // --- resizing ---

    private long eventTime(Running week, long n) {
        int count = week.events().size();
        return week.start() + n / count * week.weekNanos() + week.eventNanos()[(int) (n % count)];
    }

    private void resize(Running week, long now, long weekIndex, long offset) {
        ResizePolicy policy = options.resize();
        if (policy == null) {
            return;
        }
        int count = week.events().size();
        boolean behind = count > 0 && !syncResize && now - eventTime(week, resizeCursor) > week.weekNanos();
        if (syncResize || behind) {
            // Every pair's size now: when a week takes over, or instead of replaying more than a week of changes.
            syncResize = false;
            long offsetMicros = offset / (1000L * timeScale);
            for (int s = 0; s < fabric.size(); s++) {
                for (int d = 0; d < fabric.size(); d++) {
                    if (s != d) {
                        RackPair pair = new RackPair(s, d);
                        emit(pair, policy.sizeAt(week.spans(), pair, offsetMicros), now);
                    }
                }
            }
            if (count > 0) {
                long n = weekIndex * count;
                while (eventTime(week, n) <= now) {
                    n++;
                }
                resizeCursor = n;
            }
            return;
        }
        if (count == 0) {
            return;
        }
        // What fell due since the last step; a pair changed twice meanwhile gets only its last size.
        Map<RackPair, ResizePolicy.Event> due = new LinkedHashMap<>();
        Map<RackPair, Long> when = new LinkedHashMap<>();
        while (eventTime(week, resizeCursor) <= now) {
            ResizePolicy.Event e = week.events().get((int) (resizeCursor % count));
            due.remove(e.pair());
            due.put(e.pair(), e);
            when.put(e.pair(), eventTime(week, resizeCursor));
            resizeCursor++;
        }
        due.forEach((pair, e) -> emit(pair, e.packets(), when.get(pair)));
    }

    private void emit(RackPair pair, int packets, long at) {
        resizes.incrementAndGet();
        try {
            options.onResize().resize(pair, packets, at);
        } catch (RuntimeException e) {
            error("resizing " + pair + " to " + packets + " failed: " + e);
        }
    }

    // --- the switches ---

    /** Takes the fabric to {@code target} (outputOf[input], -1 for none); false when anything failed. */
    private boolean apply(int[] target) {
        boolean ok = tors(target, false);
        boolean circuitOk = circuit(target);
        if (circuitOk) {
            ok &= tors(target, true);
        }
        return ok && circuitOk;
    }

    private boolean circuit(int[] target) {
        DatapathId id = fabric.circuitSwitch();
        OFSwitch sw = connected(id, "the circuit switch");
        if (sw == null) {
            circuitState = null;
            return false;
        }
        long started = System.nanoTime();
        try {
            OFFactory f = sw.getFactory();
            CircuitFlows.requireCookieMasks(f);
            boolean fresh = sw != circuitHandle || circuitState == null;
            int[] from = fresh ? none() : circuitState;
            MatchingTransition transition = MatchingTransition.between(from, target);
            circuitHandle = sw;
            circuitState = null; // unknown until the switch confirms
            if (sw.supportsBundles()) {
                mode = "bundles";
                List<OFMessage> messages = new ArrayList<>();
                if (fresh) {
                    messages.add(CircuitFlows.deleteAll(f, ExecutorCookies.TAG, ExecutorCookies.TAG_MASK));
                }
                for (MatchingTransition.Step s : transition.steps()) {
                    messages.add(CircuitFlows.circuit(f, fabric, s));
                }
                if (!messages.isEmpty()) {
                    OFBundle bundle = sw.bundle();
                    bundle.add(messages);
                    await(bundle.commit(), "the circuit switch's bundle");
                }
            } else {
                mode = "ordered";
                if (fresh) {
                    sw.write(CircuitFlows.deleteAll(f, ExecutorCookies.TAG, ExecutorCookies.TAG_MASK));
                    await(sw.barrier(), "the circuit switch's barrier");
                }
                for (List<MatchingTransition.Step> phase : transition.phases()) {
                    List<OFFlowMod> mods = phase.stream().map(s -> CircuitFlows.circuit(f, fabric, s)).toList();
                    if (!sw.write(mods)) {
                        throw new IllegalStateException("the circuit switch " + id + " disconnected");
                    }
                    await(sw.barrier(), "the circuit switch's barrier");
                }
            }
            circuitState = target.clone();
            changeTimes.record(System.nanoTime() - started);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (RuntimeException | ExecutionException | TimeoutException e) {
            error("the circuit switch " + id + ": " + describe(e));
            return false;
        }
    }

    /**
     * The ToRs' pair entries: with {@code entering} false, the pairs that lose their circuit go back to
     * packets (and an unknown ToR gets all its entries on packets); with it true, the pairs of
     * {@code target} go to their circuit.
     */
    private boolean tors(int[] target, boolean entering) {
        boolean ok = true;
        List<CompletableFuture<?>> barriers = new ArrayList<>();
        List<Integer> waiting = new ArrayList<>();
        for (int r = 0; r < fabric.size(); r++) {
            Fabric.Rack rack = fabric.rack(r);
            OFSwitch sw = connected(rack.tor(), "the ToR of rack " + r);
            if (sw == null) {
                onCircuit[r] = null;
                ok = false;
                continue;
            }
            try {
                OFFactory f = sw.getFactory();
                CircuitFlows.requireCookieMasks(f);
                List<OFMessage> mods = new ArrayList<>();
                if (sw != torHandles[r] || onCircuit[r] == null) {
                    torHandles[r] = sw;
                    onCircuit[r] = new boolean[fabric.size()];
                    mods.add(CircuitFlows.deleteAll(f, ExecutorCookies.TAG, ExecutorCookies.TAG_MASK));
                    for (int d = 0; d < fabric.size(); d++) {
                        if (d != r) {
                            boolean circuitNow = entering && target[r] == d;
                            mods.addAll(CircuitFlows.pair(f, new RackPair(r, d), prefixes.get(d),
                                    circuitNow ? rack.torCircuitUplink() : rack.torPacketUplink(), true));
                            onCircuit[r][d] = circuitNow;
                        }
                    }
                }
                for (int d = 0; d < fabric.size(); d++) {
                    if (d == r) {
                        continue;
                    }
                    boolean wanted = target[r] == d;
                    if (entering ? wanted && !onCircuit[r][d] : onCircuit[r][d] && !wanted) {
                        mods.addAll(CircuitFlows.pair(f, new RackPair(r, d), prefixes.get(d),
                                wanted ? rack.torCircuitUplink() : rack.torPacketUplink(), false));
                        onCircuit[r][d] = wanted;
                    }
                }
                if (mods.isEmpty()) {
                    continue;
                }
                if (!sw.write(mods)) {
                    throw new IllegalStateException("disconnected");
                }
                barriers.add(sw.barrier());
                waiting.add(r);
            } catch (RuntimeException e) {
                error("the ToR of rack " + r + " (" + rack.tor() + "): " + describe(e));
                onCircuit[r] = null;
                ok = false;
            }
        }
        for (int i = 0; i < barriers.size(); i++) {
            int r = waiting.get(i);
            try {
                await(barriers.get(i), "the barrier of rack " + r + "'s ToR");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (RuntimeException | ExecutionException | TimeoutException e) {
                error("the ToR of rack " + r + " (" + fabric.rack(r).tor() + "): " + describe(e));
                onCircuit[r] = null;
                ok = false;
            }
        }
        return ok;
    }

    private OFSwitch connected(DatapathId id, String what) {
        OFSwitch sw = switches.apply(id);
        if (sw == null || !sw.isConnected()) {
            error(what + " " + id + " is not connected");
            return null;
        }
        return sw;
    }

    private void await(CompletableFuture<?> future, String what)
            throws InterruptedException, ExecutionException, TimeoutException {
        try {
            future.get(options.switchTimeout().toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new TimeoutException("no answer to " + what + " within " + options.switchTimeout().toMillis() + " ms");
        }
    }

    private static String describe(Throwable e) {
        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        String message = cause.getMessage();
        return message == null ? cause.getClass().getSimpleName() : message;
    }

    private void error(String message) {
        errors.incrementAndGet();
        lastError = message;
        lastErrorAtMillis = System.currentTimeMillis();
        synchronized (logged) {
            if (logged.size() < 64 && logged.add(message)) {
                LOG.warn("circuit executor: {} (counted; the next day tries again)", message);
            }
        }
    }

    /** The last 256 durations of something, for their median, 90th percentile and maximum in milliseconds. */
    private static final class RecentTimes {
        private final long[] nanos = new long[256];
        private long count;

        synchronized void record(long duration) {
            nanos[(int) (count++ % nanos.length)] = duration;
        }

        Map<String, Object> summary() {
            long[] sorted;
            synchronized (this) {
                sorted = Arrays.copyOf(nanos, (int) Math.min(count, nanos.length));
            }
            Arrays.sort(sorted);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("count", sorted.length);
            m.put("median", sorted.length == 0 ? null : sorted[sorted.length / 2] / 1e6);
            m.put("p90", sorted.length == 0 ? null : sorted[(int) (sorted.length * 0.9)] / 1e6);
            m.put("max", sorted.length == 0 ? null : sorted[sorted.length - 1] / 1e6);
            return m;
        }
    }

    // --- status and close ---

    /**
     * What the executor has done, JSON-ready (plain maps, strings, numbers, null): {@code mode}
     * ({@code bundles}, {@code ordered}, or {@code unknown} before the first contact with the circuit
     * switch), {@code timeScale}, {@code weeksReceived} (calls of {@link #run}), {@code weeksRun} (weeks
     * begun, each repetition counted), {@code daysInstalled} and {@code nightsInstalled} (changes that
     * succeeded), {@code lateDays}, {@code skippedDays}, {@code currentDay} (the running week's day, -1
     * at night, null before the first week and after close), {@code currentWeekStartEpochNanos},
     * {@code errors}, {@code lastError}, {@code lastErrorAtEpochMillis}, {@code resizes} (emitted), and
     * over the last 256 changes {@code circuitChangeMillis} (the circuit switch's bundle commit, or its
     * ordered phases with their barriers) and {@code dayUpLagMillis} (from a day's scheduled start until
     * its circuits and ToRs were confirmed), each {@code {count, median, p90, max}}.
     */
    public Map<String, Object> status() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("mode", mode);
        s.put("timeScale", timeScale);
        s.put("weeksReceived", weeksReceived.get());
        s.put("weeksRun", weeksRun.get());
        s.put("daysInstalled", daysInstalled.get());
        s.put("nightsInstalled", nightsInstalled.get());
        s.put("lateDays", lateDays.get());
        s.put("skippedDays", skippedDays.get());
        s.put("currentDay", currentDay);
        s.put("currentWeekStartEpochNanos", currentWeekStart);
        s.put("errors", errors.get());
        s.put("lastError", lastError);
        s.put("lastErrorAtEpochMillis", lastError == null ? null : lastErrorAtMillis);
        s.put("resizes", resizes.get());
        // How long the circuit switch took to change (a bundle's commit, or the ordered phases and their
        // barriers), and how long after its scheduled start each day's circuits were up (ToRs included).
        s.put("circuitChangeMillis", changeTimes.summary());
        s.put("dayUpLagMillis", dayLags.summary());
        return s;
    }

    /**
     * Stops the executor's thread and deletes every entry an executor wrote (its cookie tag, masked) on
     * the circuit switch and the ToRs, waiting up to the switch timeout for each to confirm.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (thread != null) {
            lock.lock();
            try {
                wake.signalAll();
            } finally {
                lock.unlock();
            }
            thread.interrupt();
            try {
                thread.join(options.switchTimeout().toMillis() + 1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        List<DatapathId> ids = new ArrayList<>();
        ids.add(fabric.circuitSwitch());
        fabric.racks().forEach(r -> ids.add(r.tor()));
        List<CompletableFuture<?>> barriers = new ArrayList<>();
        for (DatapathId id : ids) {
            OFSwitch sw = switches.apply(id);
            if (sw == null || !sw.isConnected()) {
                continue; // its entries went with its connection (or are deleted at the next first contact)
            }
            try {
                CircuitFlows.requireCookieMasks(sw.getFactory());
                sw.write(CircuitFlows.deleteAll(sw.getFactory(), ExecutorCookies.TAG, ExecutorCookies.TAG_MASK));
                barriers.add(sw.barrier());
            } catch (RuntimeException e) {
                error("withdrawing from " + id + ": " + describe(e));
            }
        }
        for (CompletableFuture<?> b : barriers) {
            try {
                await(b, "a barrier after withdrawing");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException | ExecutionException | TimeoutException e) {
                error("withdrawing: " + describe(e));
            }
        }
        currentDay = null;
    }
}
