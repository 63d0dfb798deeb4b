package io.heliograph.testbed;

import io.heliograph.core.OFSwitch;
import io.heliograph.core.spi.PipelineDispatch;
import io.heliograph.openflow.OpenFlowServer;
import io.heliograph.openflow.OpenFlowSettings;
import io.heliograph.openflow.SwitchRegistry;
import java.time.Duration;
import java.util.List;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.types.DatapathId;

/**
 * The OpenFlow layer alone, in the test JVM, listening where a testbed's switches reach it: for tests
 * of the channel to real switches (bundles, a schedule executor) with no distribution in between.
 * One I/O thread, a 5 s request timeout, flow tables cleared on connect; messages from the switches
 * go to no app.
 */
public final class InJvmOpenFlow implements AutoCloseable {

    private final Testbed testbed;
    private final SwitchRegistry registry = new SwitchRegistry();
    private final OpenFlowServer server;

    private InJvmOpenFlow(Testbed testbed) {
        this.testbed = testbed;
        String address = testbed.controllerTarget("tcp", 1).split(":")[1];
        OpenFlowSettings d = OpenFlowSettings.defaults().withIoThreads(1);
        OpenFlowSettings settings = new OpenFlowSettings(0, address, d.ioThreads(), d.versions(),
                d.handshakeTimeout(), d.echoIdle(), d.echoTimeout(), Duration.ofSeconds(5), d.missSendLen(),
                true, d.maxPendingWriteBytes(), -1, null, null, null, d.limits(), d.duplicateDatapath());
        server = new OpenFlowServer(settings, registry, new IgnoringPipeline());
    }

    /** Listening on a free port at the testbed's controller address. */
    public static InJvmOpenFlow start(Testbed testbed) throws Exception {
        InJvmOpenFlow openflow = new InJvmOpenFlow(testbed);
        openflow.server.start();
        return openflow;
    }

    public SwitchRegistry registry() {
        return registry;
    }

    /** The controller target that bridges are given ("tcp:ADDRESS:PORT"). */
    public String target() {
        return testbed.controllerTarget("tcp", server.port());
    }

    /** The switch with this datapath id once it completed its handshake. */
    public OFSwitch awaitSwitch(long datapathId, Duration timeout) {
        return Poll.until("switch " + DatapathId.of(datapathId) + " announced", timeout,
                () -> registry.getSwitch(DatapathId.of(datapathId)), s -> s != null);
    }

    @Override
    public void close() {
        server.close();
    }

    private static final class IgnoringPipeline implements PipelineDispatch {
        @Override
        public void dispatch(OFSwitch sw, OFMessage message) {
        }

        @Override
        public void prepare(OFSwitch sw, List<OFMessage> read) {
        }
    }
}
