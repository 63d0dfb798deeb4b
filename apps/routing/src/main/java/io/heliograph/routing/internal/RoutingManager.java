package io.heliograph.routing.internal;

import java.util.List;
import java.util.function.Function;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.types.DatapathId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.BoundService;
import io.heliograph.core.ConfiguredSettings;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.SwitchListener;
import io.heliograph.core.SwitchPort;
import io.heliograph.core.SwitchService;
import io.heliograph.routing.Metric;
import io.heliograph.routing.Route;
import io.heliograph.routing.RoutingService;
import io.heliograph.stats.PortRate;
import io.heliograph.topology.Link;
import io.heliograph.topology.Topology;
import io.heliograph.topology.TopologyEvent;
import io.heliograph.topology.TopologyListener;
import io.heliograph.topology.TopologyService;

/**
 * Wires {@link RoutingEngine} into the controller: the routing service, told of topology changes
 * (whiteboard topology listener) and of port changes (switch listener, for port speeds), configured
 * by pid {@value #PID}. Statistics are optional: without them UTILISATION costs are those of HOPS.
 * They come through {@link PortRates}, which only {@link StatisticsPortRates} implements: this class
 * declares no method with a statistics type, because Declarative Services reflects on its methods,
 * and without the stats bundle (an optional import) that would fail with NoClassDefFoundError.
 */
@Component(service = {RoutingService.class, TopologyListener.class, SwitchListener.class, LinkCosts.class},
        configurationPid = RoutingManager.PID)
@Designate(ocd = RoutingConfig.class)
public final class RoutingManager implements RoutingService, TopologyListener, SwitchListener, LinkCosts {

    public static final String PID = "io.heliograph.routing";

    private static final Logger LOG = LoggerFactory.getLogger(RoutingManager.class);

    private final RoutingEngine engine;
    private final BoundService<TopologyService> topology = new BoundService<>();
    private final BoundService<SwitchService> switches = new BoundService<>();
    private final BoundService<PortRates> rates = new BoundService<>();

    /*
     * Every reference is optional and dynamic. This component is itself a topology and a switch
     * listener, so the topology and OpenFlow components may activate it while they are activating
     * themselves; a mandatory reference back to them would then be circular and fail activation.
     * Until the topology is bound there are no routes (only src == dst); until the switches are,
     * port speeds are unknown and the configured default applies.
     */
    @Activate
    public RoutingManager(RoutingConfig config) {
        engine = new RoutingEngine(this::currentTopology, new SwitchPortSpeeds(switches), new BoundRates(),
                System::nanoTime);
        configure(config);
        LOG.info("routing active ({})", engine.settings());
    }

    @Modified
    void modified(RoutingConfig config) {
        configure(config);
        LOG.info("routing reconfigured ({})", engine.settings());
    }

    @Reference(name = "topology", cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void bindTopology(TopologyService service) {
        topology.bind(service);
        // A new topology service numbers its versions afresh: never trust a cached one across it.
        engine.topologyChanged();
    }

    void unbindTopology(TopologyService service) {
        if (topology.unbind(service)) {
            engine.topologyChanged();
        }
    }

    @Reference(name = "switches", cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void bindSwitches(SwitchService service) {
        switches.bind(service);
        engine.portsChanged();
    }

    void unbindSwitches(SwitchService service) {
        if (switches.unbind(service)) {
            engine.portsChanged();
        }
    }

    // Greedy, so statistics started after routing are still picked up.
    @Reference(name = "rates", cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void bindRates(PortRates service) {
        rates.bind(service);
        engine.portsChanged();
    }

    void unbindRates(PortRates service) {
        if (rates.unbind(service)) {
            engine.portsChanged();
        }
    }

    /** Bad values are refused with a line that names them; the previous settings stay in force. */
    private void configure(RoutingConfig config) {
        engine.configure(ConfiguredSettings.orPrevious(LOG, PID, engine.settings(),
                () -> new RoutingSettings(RoutingSettings.metric(config.defaultMetric()), config.maxEcmpPaths(),
                        config.utilisationWeight(), config.utilisationRefreshMs(), config.unknownSpeedMbps())));
    }

    private Topology currentTopology() {
        TopologyService service = topology.get();
        return service == null ? null : service.getTopology();
    }

    /**
     * The bound rates, or none. A named class rather than a lambda or method reference: either would
     * give this class a method returning PortRate (see the class comment).
     */
    private final class BoundRates implements Function<SwitchPort, PortRate> {
        @Override
        public PortRate apply(SwitchPort port) {
            PortRates current = rates.get();
            return current == null ? null : current.apply(port);
        }
    }

    RoutingSettings settings() {
        return engine.settings();
    }

    RoutingEngine engine() {
        return engine;
    }

    @Override
    public Route getRoute(DatapathId src, DatapathId dst, Metric metric) {
        return engine.route(src, dst, metric);
    }

    @Override
    public List<Route> getEqualCostRoutes(DatapathId src, DatapathId dst, Metric metric) {
        return engine.equalCostRoutes(src, dst, metric);
    }

    @Override
    public List<Route> getKShortestRoutes(DatapathId src, DatapathId dst, int k, Metric metric) {
        return engine.kShortestRoutes(src, dst, k, metric);
    }

    @Override
    public Metric getDefaultMetric() {
        return engine.settings().defaultMetric();
    }

    @Override
    public double linkCost(Link link, Metric metric) {
        return engine.linkCost(link, metric);
    }

    @Override
    public void topologyChanged(List<TopologyEvent> events) {
        engine.topologyChanged();
    }

    @Override
    public void portChanged(OFSwitch sw, OFPortDesc port, PortChange change) {
        engine.portsChanged();
    }

    @Override
    public void switchAdded(OFSwitch sw) {
        // A switch that reconnects may come back with other port speeds.
        engine.portsChanged();
    }
}
