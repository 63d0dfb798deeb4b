package io.heliograph.webui;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.core.MessageStatistics;
import io.heliograph.core.SwitchService;
import io.heliograph.webui.api.ApiDescription;

/**
 * {@code GET /metrics} in the Prometheus text format (0.0.4): OpenFlow messages by type as counters
 * (Prometheus' {@code rate()} makes the message rates), connected switches, the sampled pipeline time
 * as a histogram, and the JVM's memory, threads and garbage collection.
 */
@RestController
@ApiDescription("Prometheus metrics")
final class MetricsResource {

    static final String PATH = "/metrics";
    static final String CONTENT_TYPE = "text/plain;version=0.0.4;charset=utf-8";

    private final ControllerView controller;

    MetricsResource(ControllerView controller) {
        this.controller = controller;
    }

    @GetMapping(path = PATH, produces = CONTENT_TYPE)
    @ApiDescription("The controller's metrics in the Prometheus text format")
    public ResponseEntity<String> metrics() {
        StringBuilder out = new StringBuilder(4096);
        MessageStatistics messages = controller.messages().get();
        if (messages != null) {
            family(out, "heliograph_openflow_messages_total", "counter",
                    "OpenFlow messages from switches dispatched to the listener pipelines, by type");
            messages.dispatched().forEach((type, count) ->
                    sample(out, "heliograph_openflow_messages_total", "type=\"" + type.name() + "\"", count));
            MessageStatistics.Latency latency = messages.latency();
            family(out, "heliograph_pipeline_seconds", "histogram",
                    "Time a message spends in its listener pipeline, sampled over one message in "
                            + MessageStatistics.LATENCY_SAMPLE_EVERY);
            for (int i = 0; i < latency.boundsSeconds().size(); i++) {
                sample(out, "heliograph_pipeline_seconds_bucket", "le=\"" + number(latency.boundsSeconds().get(i)) + "\"",
                        latency.counts().get(i));
            }
            sample(out, "heliograph_pipeline_seconds_bucket", "le=\"+Inf\"", latency.samples());
            sample(out, "heliograph_pipeline_seconds_sum", null, latency.sumSeconds());
            sample(out, "heliograph_pipeline_seconds_count", null, latency.samples());
        }
        SwitchService switches = controller.switches().get();
        family(out, "heliograph_switches_connected", "gauge", "OpenFlow switches connected now");
        sample(out, "heliograph_switches_connected", null, switches == null ? 0 : switches.getSwitches().size());

        var memory = ManagementFactory.getMemoryMXBean();
        MemoryUsage heap = memory.getHeapMemoryUsage();
        MemoryUsage nonHeap = memory.getNonHeapMemoryUsage();
        family(out, "jvm_memory_bytes_used", "gauge", "Bytes of JVM memory in use, by area");
        sample(out, "jvm_memory_bytes_used", "area=\"heap\"", heap.getUsed());
        sample(out, "jvm_memory_bytes_used", "area=\"nonheap\"", nonHeap.getUsed());
        family(out, "jvm_memory_bytes_committed", "gauge", "Bytes of JVM memory reserved, by area");
        sample(out, "jvm_memory_bytes_committed", "area=\"heap\"", heap.getCommitted());
        sample(out, "jvm_memory_bytes_committed", "area=\"nonheap\"", nonHeap.getCommitted());
        family(out, "jvm_memory_bytes_max", "gauge", "The heap's limit in bytes");
        sample(out, "jvm_memory_bytes_max", "area=\"heap\"", heap.getMax());
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        family(out, "jvm_threads_current", "gauge", "Live JVM threads");
        sample(out, "jvm_threads_current", null, threads.getThreadCount());
        family(out, "jvm_threads_daemon", "gauge", "Live daemon JVM threads");
        sample(out, "jvm_threads_daemon", null, threads.getDaemonThreadCount());
        family(out, "jvm_threads_peak", "gauge", "Most live JVM threads since the start");
        sample(out, "jvm_threads_peak", null, threads.getPeakThreadCount());
        family(out, "jvm_gc_collection_seconds", "summary", "Time spent in garbage collection, by collector");
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            String label = "gc=\"" + escape(gc.getName()) + "\"";
            sample(out, "jvm_gc_collection_seconds_count", label, Math.max(0, gc.getCollectionCount()));
            sample(out, "jvm_gc_collection_seconds_sum", label, Math.max(0, gc.getCollectionTime()) / 1000.0);
        }
        var runtime = ManagementFactory.getRuntimeMXBean();
        family(out, "process_start_time_seconds", "gauge", "Start of the controller JVM, seconds since the epoch");
        sample(out, "process_start_time_seconds", null, runtime.getStartTime() / 1000.0);
        family(out, "process_uptime_seconds", "gauge", "Seconds since the controller JVM started");
        sample(out, "process_uptime_seconds", null, runtime.getUptime() / 1000.0);
        return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(out.toString());
    }

    private static void family(StringBuilder out, String name, String type, String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static void sample(StringBuilder out, String name, String labels, double value) {
        out.append(name);
        if (labels != null) {
            out.append('{').append(labels).append('}');
        }
        out.append(' ').append(number(value)).append('\n');
    }

    private static String number(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return String.format(Locale.ROOT, "%s", value);
    }

    private static String escape(String label) {
        return label.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
