package io.heliograph.learningswitch;

import static io.heliograph.benchmarks.WirePackets.host;

import java.util.List;

import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFBufferId;

import io.heliograph.benchmarks.WirePackets;
import io.heliograph.core.testing.FakeSwitch;

/** The messages the learning switch itself writes, for the benchmarks that encode them. */
public final class LearningSwitchResponses {

    private LearningSwitchResponses() {
    }

    /**
     * The answer to an unbuffered packet-in whose destination is known: a FLOW_MOD and a PACKET_OUT
     * carrying the frame. Host 1 on port 1 speaks first (flooded), host 2 on port 2 answers.
     */
    public static List<OFMessage> toKnownDestination(OFVersion version) {
        LearningSwitch app = new LearningSwitch(LearningSwitchSettings.DEFAULTS);
        FakeSwitch sw = new FakeSwitch(1, version);
        app.receive(sw, WirePackets.packetIn(version, 1, host(2), host(1), OFBufferId.NO_BUFFER));
        sw.take();
        app.receive(sw, WirePackets.packetIn(version, 2, host(1), host(2), OFBufferId.NO_BUFFER));
        List<OFMessage> response = sw.take();
        if (response.size() != 2) {
            throw new IllegalStateException("expected a flow-mod and a packet-out, the learning switch wrote " + response);
        }
        return response;
    }
}
