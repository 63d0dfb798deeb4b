package io.heliograph.core.pipeline;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.MessageListener;
import io.heliograph.core.MessageStatistics;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.PipelineService;
import io.heliograph.core.spi.PipelineDispatch;

/**
 * The pipeline service: collects {@link MessageListener} services (whiteboard) into
 * {@link ListenerPipelines}, ordered by configuration pid {@value #PID}.
 *
 * <p>A configuration update reorders only the types whose configured order changed, so an order set
 * at runtime with {@link #setOrder} survives an unrelated edit of the file.
 */
@Component(service = {PipelineService.class, PipelineDispatch.class, MessageStatistics.class}, configurationPid = MessagePipelines.PID)
@Designate(ocd = PipelinesConfig.class)
public final class MessagePipelines implements PipelineService, PipelineDispatch, MessageStatistics {

    public static final String PID = "io.heliograph.pipelines";

    private static final Logger LOG = LoggerFactory.getLogger(MessagePipelines.class);

    private final ListenerPipelines pipelines =
            new ListenerPipelines(new ListenerFailureLog(System::nanoTime, LOG::warn));
    private Map<OFType, List<String>> configured = new EnumMap<>(OFType.class);
    private final DispatchStatistics statistics = new DispatchStatistics();

    public MessagePipelines() {
        // Listeners may be bound before activation; give them the default order from the start.
        applyConfiguration(Map.of());
    }

    @Activate
    void activate(Map<String, Object> properties) {
        applyConfiguration(properties);
        LOG.info("Listener pipelines active: {}", pipelines.names());
    }

    @Modified
    void modified(Map<String, Object> properties) {
        applyConfiguration(properties);
        LOG.info("Listener pipelines reconfigured: {}", pipelines.names());
    }

    private synchronized void applyConfiguration(Map<String, ?> properties) {
        Map<OFType, List<String>> next = PipelineOrders.parse(properties, LOG::warn);
        for (OFType type : OFType.values()) {
            List<String> order = next.getOrDefault(type, List.of());
            if (!Objects.equals(configured.getOrDefault(type, List.of()), order)) {
                pipelines.setOrder(type, order);
            }
        }
        configured = next;
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void addListener(MessageListener listener) {
        // Apps come and go at runtime (hot deploy): say so, with the pipelines as they are now.
        if (pipelines.add(listener)) {
            LOG.info("Listener '{}' joined: {}", listener.getName(), pipelines.names());
        }
    }

    void removeListener(MessageListener listener) {
        String name = pipelines.remove(listener);
        if (name != null) {
            LOG.info("Listener '{}' left: {}", name, pipelines.names());
        }
    }

    @Override
    public Map<OFType, List<String>> getPipelines() {
        return pipelines.names();
    }

    @Override
    public List<String> getOrder(OFType type) {
        return pipelines.getOrder(type);
    }

    @Override
    public void setOrder(OFType type, List<String> names) {
        pipelines.setOrder(type, names);
        LOG.info("Pipeline order for {} set to {}: {}", type, pipelines.getOrder(type), pipelines.names(type));
    }

    @Override
    public void prepare(OFSwitch sw, List<OFMessage> read) {
        pipelines.prepare(sw, read);
    }

    @Override
    public void dispatch(OFSwitch sw, OFMessage message) {
        if (statistics.count(message.getType())) {
            long start = System.nanoTime();
            pipelines.dispatch(sw, message);
            statistics.timed(System.nanoTime() - start);
        } else {
            pipelines.dispatch(sw, message);
        }
    }

    @Override
    public Map<OFType, Long> dispatched() {
        return statistics.dispatched();
    }

    @Override
    public Latency latency() {
        return statistics.latency();
    }
}
