package io.heliograph.webui;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.RuntimeMXBean;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import io.heliograph.core.MessageStatistics;
import io.heliograph.core.SwitchService;
import io.heliograph.webui.api.ApiDescription;
import io.heliograph.webui.api.OperationId;

/** {@code GET /api/v1/controller}: what this controller instance is and how it is doing. */
@RestController
@ApiDescription("This controller instance")
final class ControllerResource {

    static final String PATH = "/api/v1/controller";

    record Memory(@ApiDescription("bytes of heap in use") long heapUsed,
                  @ApiDescription("bytes of heap the JVM has reserved") long heapCommitted,
                  @ApiDescription("the heap's limit in bytes; -1 if none") long heapMax,
                  @ApiDescription("bytes of non-heap memory in use (metaspace, code cache)") long nonHeapUsed) {
    }

    record Messages(@ApiDescription("OpenFlow messages dispatched to the listener pipelines, by type")
                    Map<String, Long> dispatched,
                    @ApiDescription("OpenFlow messages the controller wrote to switches, by type")
                    Map<String, Long> sent,
                    @ApiDescription("pipeline time sampled over one message in 64: samples taken") long latencySamples,
                    @ApiDescription("mean sampled pipeline time in microseconds; 0 without samples")
                    double meanLatencyMicros) {
    }

    record ControllerInfo(String version,
                          @ApiDescription("this instance's name in the cluster: --instance-id, else kept in the data directory")
                          String instanceId,
                          Instant started,
                          long uptimeSeconds,
                          @ApiDescription("switches connected now; -1 while the OpenFlow layer is not running")
                          int switches,
                          int threads,
                          Memory memory,
                          @ApiDescription("absent while the pipelines are not running") Messages messages) {
    }

    private final ControllerView controller;
    private final String instanceId;

    ControllerResource(ControllerView controller, String instanceId) {
        this.controller = controller;
        this.instanceId = instanceId;
    }

    @GetMapping(PATH)
    @ApiDescription("Version, instance id, uptime, switches, memory and message counters")
    @OperationId("getController")
    public ControllerInfo controller() {
        RuntimeMXBean runtime = ManagementFactory.getRuntimeMXBean();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        SwitchService switches = controller.switches().get();
        return new ControllerInfo(controller.version(), instanceId, Instant.ofEpochMilli(runtime.getStartTime()),
                runtime.getUptime() / 1000, switches == null ? -1 : switches.getSwitches().size(),
                threads.getThreadCount(),
                new Memory(memory.getHeapMemoryUsage().getUsed(), memory.getHeapMemoryUsage().getCommitted(),
                        memory.getHeapMemoryUsage().getMax(), memory.getNonHeapMemoryUsage().getUsed()),
                messages(controller.messages().get(), switches));
    }

    private static Messages messages(MessageStatistics statistics, SwitchService switches) {
        if (statistics == null) {
            return null;
        }
        Map<String, Long> dispatched = new LinkedHashMap<>();
        statistics.dispatched().forEach((type, count) -> dispatched.put(type.name(), count));
        Map<String, Long> sent = new LinkedHashMap<>();
        if (switches != null) {
            switches.getMessagesSent().forEach((type, count) -> sent.put(type.name(), count));
        }
        MessageStatistics.Latency latency = statistics.latency();
        double mean = latency.samples() == 0 ? 0 : latency.sumSeconds() * 1e6 / latency.samples();
        return new Messages(dispatched, sent, latency.samples(), mean);
    }
}
