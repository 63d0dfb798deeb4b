package io.heliograph.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A k=4 fat tree of emulated switches against {@link ProbingController}, over real sockets: each
 * switch connects and describes its four ports, and a probe the controller sends out of a port
 * comes back exactly once, as a packet-in at the peer switch's peer port with the frame unchanged;
 * a probe out of a host port never comes back.
 */
@Timeout(60)
class EmulatedFabricTest {

    private static final long WAIT_NANOS = 30_000_000_000L;

    @ParameterizedTest
    @EnumSource(OpenFlowVersion.class)
    void everyProbeComesBackOnceAtThePeerPortOfItsCable(OpenFlowVersion v) throws Exception {
        Fabric tree = Fabric.fatTree(4);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (ProbingController controller = ProbingController.start(v);
             EmulatedFabric fabric = new EmulatedFabric(options(controller, v), quiet(printed))) {
            fabric.start();
            boolean done = fabric.runUntil(() -> fabric.toHostPorts() == tree.hostPorts()
                    && controller.arrivals().size() >= tree.directedLinks(), System.nanoTime() + WAIT_NANOS);
            assertTrue(done, "every probe delivered or swallowed: " + fabric.status() + "; " + controller.problems());

            assertEquals(List.of(), controller.problems());
            Map<Long, Integer> expectedPorts = new HashMap<>();
            for (int sw = 0; sw < tree.switches(); sw++) {
                expectedPorts.put(sw + 1L, 4);
            }
            assertEquals(expectedPorts, controller.portsOf(), "every switch, with its 4 ports");

            List<ProbingController.Arrival> arrivals = controller.arrivals();
            Set<String> sent = new HashSet<>();
            for (ProbingController.Arrival a : arrivals) {
                int sender = (int) a.fromDpid() - 1;
                String from = tree.name(sender) + " port " + a.fromPort();
                assertTrue(sent.add(from), "the probe out of " + from + " came back once, not again");
                assertEquals(tree.peerSwitch(sender, a.fromPort()) + 1L, a.atDpid(), "the peer switch of " + from);
                assertEquals(tree.peerPort(sender, a.fromPort()), a.atPort(), "the peer port of " + from);
                assertArrayEquals(ProbingController.probeFrame(a.fromDpid(), a.fromPort()), a.frame());
            }
            assertEquals(tree.directedLinks(), arrivals.size(), "one arrival per directed link");
            assertEquals(tree.directedLinks(), fabric.probedLinks());
            assertEquals(tree.hostPorts(), fabric.toHostPorts(), "the probes out of host ports were swallowed");
        }
    }

    @Test
    void aSwitchTheControllerDisconnectsConnectsAgainWithAFreshHandshake() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (ProbingController controller = ProbingController.start(OpenFlowVersion.OF_13);
             EmulatedFabric fabric = new EmulatedFabric(options(controller, OpenFlowVersion.OF_13), quiet(printed))) {
            controller.closeOnceAfterProbing(3);
            fabric.start();
            assertTrue(fabric.runUntil(() -> controller.handshakes(3) == 2, System.nanoTime() + WAIT_NANOS),
                    "switch 3 connected again: " + fabric.status());
            assertTrue(fabric.status().contains("connected 20/20,"), fabric.status());
            assertTrue(fabric.status().contains("connections lost 1,"), fabric.status());
            assertEquals(1, controller.handshakes(4), "the others stayed connected");
        }
    }

    private static FabricOptions options(ProbingController controller, OpenFlowVersion v) throws Exception {
        return FabricOptions.parse("--topology", "fattree:4", "-c", "127.0.0.1", "-p",
                Integer.toString(controller.port()), "-V", v.label());
    }

    private static PrintStream quiet(ByteArrayOutputStream sink) {
        return new PrintStream(sink, true, StandardCharsets.UTF_8);
    }
}
