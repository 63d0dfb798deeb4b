package io.heliograph.stats.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.projectfloodlight.openflow.protocol.OFFlowStatsEntry;
import org.projectfloodlight.openflow.protocol.OFFlowStatsReply;
import org.projectfloodlight.openflow.protocol.OFGroupStatsReply;
import org.projectfloodlight.openflow.protocol.OFMeterStatsReply;
import org.projectfloodlight.openflow.protocol.OFPortStatsEntry;
import org.projectfloodlight.openflow.protocol.OFPortStatsReply;
import org.projectfloodlight.openflow.protocol.OFStatsReply;
import org.projectfloodlight.openflow.protocol.OFStatsRequest;
import org.projectfloodlight.openflow.protocol.OFTableStatsReply;
import org.projectfloodlight.openflow.types.DatapathId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.MetricSource;
import io.heliograph.core.OFErrorException;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.SwitchPort;
import io.heliograph.core.SwitchService;
import io.heliograph.stats.FlowKey;
import io.heliograph.stats.FlowRate;
import io.heliograph.stats.PortRate;
import io.heliograph.stats.StatisticsService;
import io.heliograph.stats.SwitchStatistics;
import io.heliograph.stats.SwitchStatistics.Sample;
import io.heliograph.stats.TrafficMatrix;

/**
 * Polls every connected switch for the statistics its version has, and keeps rates, their history,
 * the latest raw replies and the traffic matrix. {@link #poll()} sends one round of requests; the
 * replies are handled on {@code executor} (the component's scheduler thread), never on the switch's
 * I/O thread, so the collector's state has one writer.
 *
 * <p>A switch that does not answer a kind of request is not asked at the full rate forever: after n
 * failures in a row that kind waits {@code intervalMs * 2^n} (up to {@code backoffMaxMs}) before the
 * next, it is logged once, and each unanswered request is counted; the first answer brings it back
 * to the normal interval. A kind the switch refuses with an error is not asked again on that
 * connection. Other kinds and other switches are polled as usual.
 */
final class StatisticsCollector implements StatisticsService {

    private static final Logger LOG = LoggerFactory.getLogger(StatisticsCollector.class);

    /** A flow entry on a switch. */
    record FlowId(DatapathId dpid, FlowKey flow) {
    }

    private final SwitchService switches;
    private final Executor executor;
    private final StatsClock clock;
    private final Supplier<Predicate<SwitchPort>> edgePorts;
    private final ConcurrentMap<DatapathId, SwitchState> states = new ConcurrentHashMap<>();
    private final RateTracker<DatapathId, SwitchPort, PortRate> ports;
    private final RateTracker<DatapathId, FlowId, FlowRate> flows;
    private volatile StatsSettings settings;
    /** Whether the metrics have each port's counters and rates (setting portMetrics). */
    private volatile boolean portMetrics = true;

    private final Map<StatsKind, AtomicLong> unanswered = new java.util.EnumMap<>(StatsKind.class);
    private final AtomicLong flowUpdates = new AtomicLong();
    private volatile Instant lastFlowUpdate = Instant.EPOCH;
    private MatrixCache matrixCache;

    private record MatrixCache(long flowUpdates, Predicate<SwitchPort> edgePorts, TrafficMatrix matrix) {
    }

    /**
     * @param edgePorts the current edge-port predicate, or null when the topology is unknown
     */
    StatisticsCollector(SwitchService switches, Executor executor, StatsClock clock,
            Supplier<Predicate<SwitchPort>> edgePorts, StatsSettings settings) {
        this.switches = switches;
        this.executor = executor;
        this.clock = clock;
        this.edgePorts = edgePorts;
        this.settings = settings;
        this.ports = new RateTracker<>(settings.historySize(), SwitchPort::dpid, (port, at, r) -> new PortRate(port, at,
                r[SampleReader.RX_BYTES] * 8, r[SampleReader.TX_BYTES] * 8,
                r[SampleReader.RX_PACKETS], r[SampleReader.TX_PACKETS]));
        this.flows = new RateTracker<>(settings.historySize(), FlowId::dpid, (id, at, r) -> new FlowRate(id.dpid(), id.flow(), at,
                r[SampleReader.BYTES] * 8, r[SampleReader.PACKETS]));
        for (StatsKind kind : StatsKind.values()) {
            unanswered.put(kind, new AtomicLong());
        }
    }

    StatsSettings settings() {
        return settings;
    }

    void portMetrics(boolean on) {
        portMetrics = on;
    }

    void configure(StatsSettings newSettings) {
        settings = newSettings;
        ports.setHistorySize(newSettings.historySize());
        flows.setHistorySize(newSettings.historySize());
    }

    /** One round: asks every connected switch for each kind it supports that is not still pending nor backed off. */
    void poll() {
        long now = clock.nanoTime();
        Map<DatapathId, OFSwitch> connected = switches.getSwitches();
        for (DatapathId gone : Set.copyOf(states.keySet())) {
            if (!connected.containsKey(gone)) {
                forget(gone);
            }
        }
        connected.forEach((dpid, sw) -> {
            SwitchState state = states.get(dpid);
            if (state == null || state.sw != sw) {
                // A new connection: the counters may have restarted and the version may differ.
                forget(dpid);
                state = new SwitchState(sw);
                states.put(dpid, state);
            }
            for (StatsKind kind : StatsRequests.kindsFor(sw.getVersion())) {
                if (!state.refused.contains(kind) && state.isDue(kind, now) && state.inFlight.add(kind)) {
                    send(state, kind);
                }
            }
        });
    }

    private void forget(DatapathId dpid) {
        states.remove(dpid);
        ports.forget(dpid);
        flows.forget(dpid);
        flowUpdates.incrementAndGet();
    }

    private void send(SwitchState state, StatsKind kind) {
        CompletableFuture<? extends List<? extends OFStatsReply>> reply;
        try {
            reply = request(state.sw, StatsRequests.build(state.sw.getFactory(), kind));
        } catch (RuntimeException e) {
            state.inFlight.remove(kind);
            LOG.warn("Could not ask switch {} for {} statistics", state.sw.getId(), kind, e);
            return;
        }
        // A dependent copy carries our timeout, so the switch's own pending request is left alone.
        reply.thenApply(parts -> parts)
                .orTimeout(settings.timeoutMs(), TimeUnit.MILLISECONDS)
                .whenCompleteAsync((parts, error) -> {
                    state.inFlight.remove(kind);
                    if (states.get(state.sw.getId()) != state) {
                        return; // the switch left or reconnected meanwhile
                    }
                    if (error != null) {
                        failed(state, kind, error);
                    } else {
                        received(state, kind, parts);
                    }
                }, executor);
    }

    private static <R extends OFStatsReply> CompletableFuture<List<R>> request(OFSwitch sw, OFStatsRequest<R> request) {
        return sw.requestStatistics(request);
    }

    private void failed(SwitchState state, StatsKind kind, Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        DatapathId dpid = state.sw.getId();
        if (cause instanceof OFErrorException) {
            state.refused.add(kind);
            LOG.info("Switch {} refused {} statistics ({}); not asking it again on this connection", dpid, kind,
                    cause.getMessage());
        } else if (!state.sw.isConnected()) {
            LOG.debug("Switch {} disconnected before answering {} statistics", dpid, kind);
        } else {
            if (cause instanceof TimeoutException) {
                unanswered.get(kind).incrementAndGet();
            }
            StatsSettings s = settings;
            if (state.failed(kind, clock.nanoTime(), s) == 1) {
                String why = cause instanceof TimeoutException ? "no complete answer within " + s.timeoutMs() + " ms"
                        : cause.toString();
                LOG.warn("Switch {} {} statistics failed: {}; asking again at a growing interval, up to every {} s, "
                        + "until they work (logged once until then)", dpid, kind, why, s.backoffMaxMs() / 1000);
            }
        }
    }

    private void received(SwitchState state, StatsKind kind, List<? extends OFStatsReply> parts) {
        long nanos = clock.nanoTime();
        Instant at = clock.now();
        if (state.answered(kind)) {
            LOG.info("Switch {} {} statistics work again; polled every {} ms again", state.sw.getId(), kind,
                    settings.intervalMs());
        }
        try {
            switch (kind) {
                case PORT -> receivedPorts(state, nanos, at,
                        MultipartReplies.entries(parts, OFPortStatsReply.class, OFPortStatsReply::getEntries));
                case FLOW -> receivedFlows(state, nanos, at,
                        MultipartReplies.entries(parts, OFFlowStatsReply.class, OFFlowStatsReply::getEntries));
                case TABLE -> state.storeTables(new Sample<>(at,
                        MultipartReplies.entries(parts, OFTableStatsReply.class, OFTableStatsReply::getEntries)));
                case GROUP -> state.storeGroups(new Sample<>(at,
                        MultipartReplies.entries(parts, OFGroupStatsReply.class, OFGroupStatsReply::getEntries)));
                case METER -> state.storeMeters(new Sample<>(at,
                        MultipartReplies.entries(parts, OFMeterStatsReply.class, OFMeterStatsReply::getEntries)));
            }
        } catch (RuntimeException e) {
            // One malformed reply costs this sample only; the next round asks again.
            LOG.warn("Switch {} sent {} statistics that could not be read: {}", state.sw.getId(), kind, e.toString());
        }
    }

    private void receivedPorts(SwitchState state, long nanos, Instant at, List<OFPortStatsEntry> entries) {
        DatapathId dpid = state.sw.getId();
        Set<SwitchPort> present = new HashSet<>();
        for (OFPortStatsEntry entry : entries) {
            SwitchPort port = SwitchPort.of(dpid, entry.getPortNo());
            present.add(port);
            ports.record(port, SampleReader.port(entry, nanos, at));
        }
        ports.retain(dpid, present);
        state.storePorts(new Sample<>(at, entries));
    }

    private void receivedFlows(SwitchState state, long nanos, Instant at, List<OFFlowStatsEntry> entries) {
        DatapathId dpid = state.sw.getId();
        Set<FlowId> present = new HashSet<>();
        for (OFFlowStatsEntry entry : entries) {
            FlowId id = new FlowId(dpid, keyOf(entry));
            present.add(id);
            flows.record(id, SampleReader.flow(entry, nanos, at));
        }
        flows.retain(dpid, present);
        state.storeFlows(new Sample<>(at, entries));
        lastFlowUpdate = at;
        flowUpdates.incrementAndGet();
    }

    static FlowKey keyOf(OFFlowStatsEntry entry) {
        return new FlowKey(entry.getTableId(), entry.getPriority(), entry.getMatch(), entry.getCookie());
    }

    @Override
    public PortRate getPortRate(SwitchPort port) {
        return ports.latest(port);
    }

    @Override
    public List<PortRate> getPortRateHistory(SwitchPort port) {
        return ports.history(port);
    }

    @Override
    public List<PortRate> getPortRates(DatapathId dpid) {
        List<PortRate> rates = ports.latestOf(dpid);
        rates.sort(Comparator.comparing(rate -> rate.port().port().getPortNumber()));
        return List.copyOf(rates);
    }

    @Override
    public List<FlowRate> getFlowRates(DatapathId dpid) {
        return List.copyOf(flows.latestOf(dpid));
    }

    @Override
    public List<FlowRate> getFlowRateHistory(DatapathId dpid, FlowKey flow) {
        return flows.history(new FlowId(dpid, flow));
    }

    @Override
    public SwitchStatistics getSwitchStatistics(DatapathId dpid) {
        SwitchState state = states.get(dpid);
        return state == null ? null : state.latest();
    }

    /** Rebuilt only when flow statistics or the topology changed since the last call. */
    @Override
    public synchronized TrafficMatrix getTrafficMatrix() {
        long updates = flowUpdates.get();
        Predicate<SwitchPort> edges = edgePorts.get();
        MatrixCache cache = matrixCache;
        if (cache != null && cache.flowUpdates() == updates && cache.edgePorts() == edges) {
            return cache.matrix();
        }
        Map<DatapathId, Collection<FlowRate>> byDpid = new HashMap<>(flows.latestOfAll().stream()
                .collect(Collectors.groupingBy(FlowRate::dpid, Collectors.toCollection(ArrayList::new))));
        TrafficMatrix matrix = TrafficMatrixBuilder.build(lastFlowUpdate, byDpid, edges);
        matrixCache = new MatrixCache(updates, edges, matrix);
        return matrix;
    }

    /** Requests of this kind that a switch did not answer within {@code timeoutMs}, since the start. */
    long unanswered(StatsKind kind) {
        return unanswered.get(kind).get();
    }

    /** Connected switches asked for this kind at a longer interval than usual, because they did not answer it. */
    long backedOff(StatsKind kind) {
        return states.values().stream().filter(state -> state.isBackedOff(kind)).count();
    }

    /**
     * The metrics: by kind, the requests switches did not answer and the switches asked less often for
     * it; each switch's flow count and, unless portMetrics is off, each port's counters and rates
     * ({@link PortMetrics}).
     */
    List<MetricSource.Sample> samples() {
        boolean withPorts = portMetrics;
        List<MetricSource.Sample> samples = new ArrayList<>(PortMetrics.samples(
                states.values().stream().map(SwitchState::latest).toList(),
                withPorts ? ports.latestOfAll() : List.of(), withPorts));
        for (StatsKind kind : StatsKind.values()) {
            Map<String, String> labels = Map.of("kind", kind.name().toLowerCase(Locale.ROOT));
            samples.add(new MetricSource.Sample("heliograph_stats_unanswered_requests_total", MetricSource.Type.COUNTER,
                    "Statistics requests a switch did not answer within timeoutMs", labels, unanswered(kind)));
            samples.add(new MetricSource.Sample("heliograph_stats_backed_off_switches", MetricSource.Type.GAUGE,
                    "Switches asked for these statistics less often than intervalMs because they did not answer "
                            + "(backoff up to backoffMaxMs)", labels, backedOff(kind)));
        }
        return samples;
    }

    /** Requests of this kind waiting for their answer on this switch (for tests and diagnostics). */
    boolean isInFlight(DatapathId dpid, StatsKind kind) {
        SwitchState state = states.get(dpid);
        return state != null && state.inFlight.contains(kind);
    }
}
