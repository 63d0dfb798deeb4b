package io.heliograph.learningswitch;

import java.util.List;
import java.util.Set;

import org.osgi.framework.BundleContext;
import org.osgi.framework.Version;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.BoundService;
import io.heliograph.core.ConfiguredSettings;
import io.heliograph.core.MessageListener;
import io.heliograph.core.MetricSource;
import io.heliograph.core.OFSwitch;
import io.heliograph.core.StateBounds;
import io.heliograph.core.SwitchListener;
import io.heliograph.core.SwitchService;

/**
 * Wires {@link LearningSwitch} into the controller: registers it as PACKET_IN listener
 * "learningswitch" and switch listener, and its tables' bounds and metrics as {@link StateBounds} and
 * {@link MetricSource}, configured by pid {@value #PID}.
 */
@Component(service = {MessageListener.class, SwitchListener.class, StateBounds.class, MetricSource.class},
        configurationPid = LearningSwitchComponent.PID)
@Designate(ocd = LearningSwitchConfig.class)
public final class LearningSwitchComponent implements MessageListener, SwitchListener, StateBounds, MetricSource {

    public static final String PID = "io.heliograph.learningswitch";

    private static final Logger LOG = LoggerFactory.getLogger(LearningSwitchComponent.class);

    private final LearningSwitch learningSwitch = new LearningSwitch(LearningSwitchSettings.DEFAULTS);
    private Version version = Version.emptyVersion;

    private final BoundService<SwitchService> switches = new BoundService<>();

    public LearningSwitchComponent() {
        learningSwitch.countSwitchesWith(() -> {
            SwitchService service = switches.get();
            return service == null ? 0 : service.getSwitches().size();
        });
    }

    /** Optional: only for the bound reported on the number of tables (the switches connected). */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void setSwitchService(SwitchService service) {
        switches.bind(service);
    }

    void unsetSwitchService(SwitchService service) {
        switches.unbind(service);
    }

    @Activate
    void activate(BundleContext context, LearningSwitchConfig config) {
        version = context.getBundle().getVersion();
        configure(config);
        // The hot-swap test reads this line to see which build is running.
        LOG.info("learningswitch {} active ({})", version, learningSwitch.settings());
    }

    @Modified
    void modified(LearningSwitchConfig config) {
        configure(config);
        LOG.info("learningswitch {} reconfigured ({})", version, learningSwitch.settings());
    }

    @Deactivate
    void deactivate() {
        learningSwitch.forgetAll();
        LOG.info("learningswitch {} stopped", version);
    }

    /** Bad values are refused with a line that names them; the previous settings stay in force. */
    private void configure(LearningSwitchConfig config) {
        learningSwitch.configure(ConfiguredSettings.orPrevious(LOG, PID, learningSwitch.settings(),
                () -> new LearningSwitchSettings(config.idleTimeout(), config.hardTimeout(), config.priority(),
                        config.maxHosts(), config.maxHostsPerPort(), config.hostIdleMs())));
    }

    LearningSwitchSettings settings() {
        return learningSwitch.settings();
    }

    @Override
    public String getName() {
        return learningSwitch.getName();
    }

    @Override
    public Set<OFType> getTypes() {
        return learningSwitch.getTypes();
    }

    @Override
    public Command receive(OFSwitch sw, OFMessage message) {
        return learningSwitch.receive(sw, message);
    }

    @Override
    public void prepare(OFSwitch sw, List<OFMessage> read) {
        learningSwitch.prepare(sw, read);
    }

    @Override
    public void switchRemoved(OFSwitch sw) {
        learningSwitch.switchRemoved(sw);
    }

    @Override
    public void portChanged(OFSwitch sw, OFPortDesc port, PortChange change) {
        learningSwitch.portChanged(sw, port, change);
    }

    @Override
    public List<Bound> bounds() {
        return learningSwitch.bounds();
    }

    @Override
    public List<Sample> samples() {
        return learningSwitch.samples();
    }
}
