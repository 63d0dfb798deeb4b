package io.heliograph.openflow;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.metatype.annotations.Designate;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.MetricSource;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.StateBounds;
import io.heliograph.core.SwitchInitializer;
import io.heliograph.core.SwitchListener;
import io.heliograph.core.SwitchService;
import io.heliograph.core.cluster.MastershipService;
import io.heliograph.core.spi.PipelineDispatch;

/**
 * The OSGi shell of the channel layer: turns configuration into {@link OpenFlowSettings}, runs an
 * {@link OpenFlowServer}, publishes the {@link SwitchService} and feeds the whiteboard of switch
 * listeners and initializers into the {@link SwitchRegistry}. Configuration changes apply live (to
 * switches that connect after the change). It reports the per-switch bounds (pending requests,
 * pending write bytes, packet-in rate, ports) as {@link StateBounds}, and as {@link MetricSource} the
 * bad input it saw, the messages it sent by type and each switch's role, age and messages.
 */
@Component(service = {SwitchService.class, StateBounds.class, MetricSource.class},
        configurationPid = OpenFlowController.PID, immediate = true)
@Designate(ocd = OpenFlowConfiguration.class)
public final class OpenFlowController implements SwitchService, StateBounds, MetricSource {

    public static final String PID = "io.heliograph.openflow";

    private final SwitchRegistry registry = new SwitchRegistry();
    private final PipelineDispatch pipeline;
    private OpenFlowServer server;

    @Activate
    public OpenFlowController(@Reference(name = "pipeline") PipelineDispatch pipeline, OpenFlowConfiguration config) throws Exception {
        this.pipeline = pipeline;
        server = new OpenFlowServer(settings(config), registry, pipeline);
        server.start();
    }

    @Modified
    void modified(OpenFlowConfiguration config) throws Exception {
        server.reconfigure(settings(config));
    }

    @Deactivate
    void deactivate() {
        server.stop();
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addSwitchListener(SwitchListener l) {
        registry.addListener(l);
    }

    void removeSwitchListener(SwitchListener l) {
        registry.removeListener(l);
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addSwitchInitializer(SwitchInitializer i) {
        registry.addInitializer(i);
    }

    void removeSwitchInitializer(SwitchInitializer i) {
        registry.removeInitializer(i);
    }

    /** A cluster's mastership service: while it runs, connects leave flow tables to the switch's master. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    void setMastershipService(MastershipService mastership) {
        registry.setClustered(true);
    }

    void unsetMastershipService(MastershipService mastership) {
        registry.setClustered(false);
    }

    @Override
    public Map<DatapathId, OFSwitch> getSwitches() {
        return registry.getSwitches();
    }

    @Override
    public OFSwitch getSwitch(DatapathId id) {
        return registry.getSwitch(id);
    }

    @Override
    public Map<OFType, Long> getMessagesSent() {
        return server.counters().sent.byType();
    }

    @Override
    public List<Bound> bounds() {
        return ChannelBounds.bounds(server.settings(), registry.connections(), server.counters());
    }

    @Override
    public List<Sample> samples() {
        return ChannelBounds.samples(server.counters(), registry.connections());
    }

    /** Configuration to settings; invalid values fail here with a message naming the property. */
    static OpenFlowSettings settings(OpenFlowConfiguration c) {
        int threads = c.ioThreads() > 0 ? c.ioThreads() : Runtime.getRuntime().availableProcessors();
        boolean tls = c.tls_port() > 0;
        return new OpenFlowSettings(c.port(), c.address(), threads, OpenFlowVersions.parse(c.versions()),
                positive("handshakeTimeoutMs", c.handshakeTimeoutMs()), positive("echoIdleMs", c.echoIdleMs()),
                positive("echoTimeoutMs", c.echoTimeoutMs()), positive("requestTimeoutMs", c.requestTimeoutMs()),
                c.missSendLen(), c.clearFlowsOnConnect(), c.maxPendingWriteBytes(), tls ? c.tls_port() : -1,
                path(c.tls_certificate()), path(c.tls_key()), path(c.tls_trust()),
                new SwitchLimits(c.maxPorts(), c.maxPendingRequests(), c.packetInRate(), c.packetInBurst()),
                DuplicateDatapath.parse(c.duplicateDatapath()));
    }

    private static Duration positive(String name, long ms) {
        if (ms <= 0) {
            throw new IllegalArgumentException(name + " must be positive, was " + ms);
        }
        return Duration.ofMillis(ms);
    }

    private static Path path(String s) {
        return s == null || s.isBlank() ? null : Path.of(s.trim());
    }
}
