package io.heliograph.webui;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.core.MessageStatistics;
import io.heliograph.core.MetricSource;
import io.heliograph.core.StateBounds;
import io.heliograph.core.SwitchService;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.OperationId;

/**
 * {@code GET /metrics} in the Prometheus text format (0.0.4): OpenFlow messages received by type as
 * counters (Prometheus' {@code rate()} makes the message rates), connected switches, the sampled pipeline
 * time as a histogram, the REST requests' time as a histogram by method, route template and status
 * class ({@link RestLatency}), the JVM's memory, threads and garbage collection, every bounded table of
 * the apps running now ({@code heliograph_state_*}, labelled by table) and the metrics of the components
 * running now ({@link MetricSource}). Those include, each from the component that owns the data:
 * <ul>
 * <li>the OpenFlow layer: messages sent by type ({@code heliograph_openflow_messages_sent_total}), and per
 * switch its role ({@code heliograph_switch_role{dpid,role}}, 1 for the role it has), when it connected and
 * its messages each way ({@code heliograph_switch_messages_received_total}, {@code _sent_total});</li>
 * <li>the statistics app: per switch its flow count ({@code heliograph_switch_flows}), per port the switch's
 * counters ({@code heliograph_port_rx_bytes_total} and the like for packets, drops and errors, both ways)
 * and the app's rates ({@code heliograph_port_rx_bytes_per_second} and the like);</li>
 * <li>topology's links ({@code heliograph_topology_links}), devices' hosts ({@code heliograph_devices_hosts}),
 * and the cluster's ZooKeeper session and mastership ({@code heliograph_cluster_*}).</li>
 * </ul>
 * Per-port series are labelled {@code dpid} and {@code port}: twelve a port, so about 58,000 for 100
 * switches of 48 ports; the statistics app's {@code portMetrics} setting turns them off.
 *
 * <p>An app's sample that would make the page unreadable to Prometheus (a family name the controller
 * uses, a bad label name, a label set given twice; a family whose samples disagree on type or help,
 * whole) is left out and logged: one app's mistake must not fail the scrape of everything else.
 */
@RestController
@ApiDescription("Prometheus metrics")
final class MetricsResource {

    static final String PATH = "/metrics";
    static final String CONTENT_TYPE = "text/plain;version=0.0.4;charset=utf-8";

    private static final Logger LOG = LoggerFactory.getLogger(MetricsResource.class);

    private final ControllerView controller;
    private final RestLatency rest;

    MetricsResource(ControllerView controller, RestLatency rest) {
        this.controller = controller;
        this.rest = rest;
    }

    @GetMapping(path = PATH, produces = CONTENT_TYPE)
    @ApiDescription("The controller's metrics in the Prometheus text format")
    @OperationId("getMetrics")
    public ResponseEntity<String> metrics() {
        PrometheusText out = new PrometheusText();
        MessageStatistics messages = controller.messages().get();
        if (messages != null) {
            out.family("heliograph_openflow_messages_total", "counter",
                    "OpenFlow messages from switches dispatched to the listener pipelines, by type");
            messages.dispatched().forEach((type, count) ->
                    out.sample("heliograph_openflow_messages_total", "type", type.name(), count));
            MessageStatistics.Latency latency = messages.latency();
            out.family("heliograph_pipeline_seconds", "histogram",
                    "Time a message spends in its listener pipeline, sampled over one message in "
                            + MessageStatistics.LATENCY_SAMPLE_EVERY);
            for (int i = 0; i < latency.boundsSeconds().size(); i++) {
                out.sample("heliograph_pipeline_seconds_bucket", "le",
                        PrometheusText.number(latency.boundsSeconds().get(i)), latency.counts().get(i));
            }
            out.sample("heliograph_pipeline_seconds_bucket", "le", "+Inf", latency.samples());
            out.sample("heliograph_pipeline_seconds_sum", latency.sumSeconds());
            out.sample("heliograph_pipeline_seconds_count", latency.samples());
        }
        SwitchService switches = controller.switches().get();
        out.family("heliograph_switches_connected", "gauge", "OpenFlow switches connected now");
        out.sample("heliograph_switches_connected", switches == null ? 0 : switches.getSwitches().size());
        stateBounds(out, controller.bounds());
        rest.writeTo(out);
        jvm(out);
        appMetrics(out, controller.appSamples());
        return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(out.toString());
    }

    /** The names this resource writes itself, which no app's family may take. */
    private static final Set<String> OWN = Set.of("heliograph_openflow_messages_total", "heliograph_pipeline_seconds",
            "heliograph_pipeline_seconds_bucket", "heliograph_pipeline_seconds_sum",
            "heliograph_pipeline_seconds_count", "heliograph_switches_connected", "heliograph_state_limit", "heliograph_state_entries",
            "heliograph_rest_request_seconds", "heliograph_rest_request_seconds_bucket",
            "heliograph_rest_request_seconds_sum", "heliograph_rest_request_seconds_count",
            "heliograph_state_evicted_total", "heliograph_state_refused_total", "jvm_memory_bytes_used",
            "jvm_memory_bytes_committed", "jvm_memory_bytes_max", "jvm_threads_current", "jvm_threads_daemon",
            "jvm_threads_peak", "jvm_gc_collection_seconds", "jvm_gc_collection_seconds_count",
            "jvm_gc_collection_seconds_sum", "process_start_time_seconds", "process_uptime_seconds");

    /** The apps' bounded tables: four families, one series per table. */
    private static void stateBounds(PrometheusText out, List<StateBounds.Bound> all) {
        // Table names are unique by convention (<app>.<table>); a repeated one would be a duplicate series.
        Map<String, StateBounds.Bound> bounds = new LinkedHashMap<>();
        all.forEach(bound -> bounds.putIfAbsent(bound.table(), bound));
        out.family("heliograph_state_limit", "gauge",
                "The bound of each bounded table of the apps running now (entries, or per second for a rate)");
        bounds.values().forEach(b -> out.sample("heliograph_state_limit", "table", b.table(), b.limit()));
        out.family("heliograph_state_entries", "gauge",
                "Entries each bounded table holds now; for a per-switch or per-port bound, the fullest one's");
        bounds.values().forEach(b -> out.sample("heliograph_state_entries", "table", b.table(), b.size()));
        out.family("heliograph_state_evicted_total", "counter",
                "Entries each bounded table removed to make room for newer ones");
        bounds.values().forEach(b -> out.sample("heliograph_state_evicted_total", "table", b.table(), b.evicted()));
        out.family("heliograph_state_refused_total", "counter",
                "New entries (or messages) each bounded table turned away at its bound");
        bounds.values().forEach(b -> out.sample("heliograph_state_refused_total", "table", b.table(), b.refused()));
    }

    private static void jvm(PrometheusText out) {
        var memory = ManagementFactory.getMemoryMXBean();
        MemoryUsage heap = memory.getHeapMemoryUsage();
        MemoryUsage nonHeap = memory.getNonHeapMemoryUsage();
        out.family("jvm_memory_bytes_used", "gauge", "Bytes of JVM memory in use, by area");
        out.sample("jvm_memory_bytes_used", "area", "heap", heap.getUsed());
        out.sample("jvm_memory_bytes_used", "area", "nonheap", nonHeap.getUsed());
        out.family("jvm_memory_bytes_committed", "gauge", "Bytes of JVM memory reserved, by area");
        out.sample("jvm_memory_bytes_committed", "area", "heap", heap.getCommitted());
        out.sample("jvm_memory_bytes_committed", "area", "nonheap", nonHeap.getCommitted());
        out.family("jvm_memory_bytes_max", "gauge", "The heap's limit in bytes");
        out.sample("jvm_memory_bytes_max", "area", "heap", heap.getMax());
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        out.family("jvm_threads_current", "gauge", "Live JVM threads");
        out.sample("jvm_threads_current", threads.getThreadCount());
        out.family("jvm_threads_daemon", "gauge", "Live daemon JVM threads");
        out.sample("jvm_threads_daemon", threads.getDaemonThreadCount());
        out.family("jvm_threads_peak", "gauge", "Most live JVM threads since the start");
        out.sample("jvm_threads_peak", threads.getPeakThreadCount());
        out.family("jvm_gc_collection_seconds", "summary", "Time spent in garbage collection, by collector");
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            out.sample("jvm_gc_collection_seconds_count", "gc", gc.getName(), Math.max(0, gc.getCollectionCount()));
            out.sample("jvm_gc_collection_seconds_sum", "gc", gc.getName(),
                    Math.max(0, gc.getCollectionTime()) / 1000.0);
        }
        var runtime = ManagementFactory.getRuntimeMXBean();
        out.family("process_start_time_seconds", "gauge", "Start of the controller JVM, seconds since the epoch");
        out.sample("process_start_time_seconds", runtime.getStartTime() / 1000.0);
        out.family("process_uptime_seconds", "gauge", "Seconds since the controller JVM started");
        out.sample("process_uptime_seconds", runtime.getUptime() / 1000.0);
    }

    /**
     * The apps' samples, grouped into families by name (families in name order, samples in label
     * order). A family whose samples disagree on type or help is left out whole: which of them is
     * right cannot be told, and the apps' order is no guide.
     */
    private static void appMetrics(PrometheusText out, List<MetricSource.Sample> samples) {
        Map<String, Family> families = new TreeMap<>();
        Set<String> leftOut = new TreeSet<>();
        for (MetricSource.Sample sample : samples) {
            if (sample.type() == null || OWN.contains(sample.name()) || !PrometheusText.validLabels(sample.labels())) {
                leftOut.add(sample.name());
                continue;
            }
            Family family = families.computeIfAbsent(sample.name(), name -> new Family(sample.type(), sample.help()));
            if (family.type != sample.type() || !family.help.equals(sample.help())) {
                family.disagrees = true;
            } else if (family.samples.putIfAbsent(PrometheusText.labels(sample.labels()), sample) != null) {
                leftOut.add(sample.name()); // the first of a label set given twice stays
            }
        }
        families.forEach((name, family) -> {
            if (family.disagrees) {
                leftOut.add(name);
                return;
            }
            out.family(name, family.type.prometheusName(), family.help);
            family.samples.values().forEach(s -> out.sample(name, s.labels(), s.value()));
        });
        if (!leftOut.isEmpty()) {
            LOG.warn("Metrics: samples of {} left out (a name the controller uses, samples of one family that "
                    + "disagree on type or help, a bad label name, or a label set given twice)", leftOut);
        }
    }

    private static final class Family {
        final MetricSource.Type type;
        final String help;
        final Map<String, MetricSource.Sample> samples = new TreeMap<>();
        boolean disagrees;

        Family(MetricSource.Type type, String help) {
            this.type = type;
            this.help = help;
        }
    }
}
