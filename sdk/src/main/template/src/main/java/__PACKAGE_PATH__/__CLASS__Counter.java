package __PACKAGE__;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.metatype.annotations.Designate;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFType;
import org.projectfloodlight.openflow.types.DatapathId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.heliograph.core.MessageListener;
import io.heliograph.core.OFSwitch;

/**
 * Counts the packet-ins each switch sends and lets them go on down the pipeline. It runs on the
 * switch's I/O thread, so it must not block: a counter per switch, nothing more.
 */
@Component(service = {MessageListener.class, __CLASS__Counter.class}, configurationPid = __CLASS__Counter.PID)
@Designate(ocd = __CLASS__Config.class)
public class __CLASS__Counter implements MessageListener {

    public static final String PID = "__PACKAGE__";
    /** The listener's name: pipeline orders (etc/io.heliograph.pipelines.cfg) refer to it. */
    public static final String NAME = "__NAME__";

    private static final Logger LOG = LoggerFactory.getLogger(__CLASS__Counter.class);

    private final Map<DatapathId, LongAdder> packetIns = new ConcurrentHashMap<>();
    private volatile long logEvery;

    @Activate
    @Modified
    void configure(__CLASS__Config config) {
        if (config.logEvery() < 0) {
            LOG.error("Configuration {} refused: logEvery must be 0 (never) or more, was {}; keeping {}", PID,
                    config.logEvery(), logEvery);
            return;
        }
        logEvery = config.logEvery();
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public Set<OFType> getTypes() {
        return Set.of(OFType.PACKET_IN);
    }

    @Override
    public Command receive(OFSwitch sw, OFMessage message) {
        LongAdder count = packetIns.computeIfAbsent(sw.getId(), id -> new LongAdder());
        count.increment();
        long every = logEvery;
        if (every > 0 && count.sum() % every == 0) {
            LOG.info("{} packet-ins from switch {}", count.sum(), sw.getId());
        }
        return Command.CONTINUE;
    }

    /** The packet-ins counted so far, by switch. */
    public Map<DatapathId, Long> counts() {
        Map<DatapathId, Long> counts = new TreeMap<>();
        packetIns.forEach((dpid, count) -> counts.put(dpid, count.sum()));
        return counts;
    }
}
