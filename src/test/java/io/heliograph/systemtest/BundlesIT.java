package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.projectfloodlight.openflow.protocol.OFBundleCtrlMsg;
import org.projectfloodlight.openflow.protocol.OFBundleCtrlType;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowAdd;
import org.projectfloodlight.openflow.protocol.OFFlowModFlags;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.EthType;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.U64;

import io.heliograph.core.OFBundle;
import io.heliograph.core.OFBundleException;
import io.heliograph.core.OFSwitch;
import io.heliograph.testbed.Bridge;
import io.heliograph.testbed.InJvmOpenFlow;
import io.heliograph.testbed.Testbed;

/**
 * OFSwitch's bundles against real Open vSwitch speaking OpenFlow 1.4: a circuit switch's day (one
 * entry per input port) commits whole, and a bundle with one flow-mod the switch refuses, at commit
 * or as it is added, commits nothing and says which error. The controller is the OpenFlow layer
 * itself in this JVM (no distribution needed): what is tested is the channel to a real switch.
 */
@Timeout(60)
class BundlesIT {

    private static final int PORTS = 4;

    @Test
    void aDayCommitsWholeAndABundleWithARefusedFlowModCommitsNothing() throws Exception {
        Testbed.requireRoot();
        try (Testbed testbed = Testbed.start("BundlesIT")) {
            try (InJvmOpenFlow openflow = InJvmOpenFlow.start(testbed)) {
                Bridge bridge = testbed.addSwitch(1, List.of("OpenFlow14"));
                bridge.setController(openflow.target());
                OFSwitch sw = openflow.awaitSwitch(1, Duration.ofSeconds(15));
                assertEquals(OFVersion.OF_14, sw.getVersion());
                assertTrue(sw.supportsBundles());
                OFFactory f = sw.getFactory();

                long started = System.nanoTime();
                OFBundle day = sw.bundle();
                for (int in = 1; in <= PORTS; in++) {
                    day.add(circuit(f, 0x23, in, in % PORTS + 1));
                }
                OFBundleCtrlMsg reply = day.commit().get(10, TimeUnit.SECONDS);
                System.out.printf("BundlesIT: a day of %d entries committed in %.1f ms%n", PORTS,
                        (System.nanoTime() - started) / 1e6);
                assertEquals(OFBundleCtrlType.COMMIT_REPLY, reply.getBundleCtrlType());
                assertEquals(List.of("in_port=1 output:2", "in_port=2 output:3", "in_port=3 output:4",
                        "in_port=4 output:1"), entries(bridge, "cookie=0x23"));

                // Refused at commit: the last flow-mod asks for no overlap with an entry the switch has.
                sw.write(circuit(f, 0x99, 9, 1));
                sw.barrier().get(10, TimeUnit.SECONDS);
                List<OFMessage> overlapping = new ArrayList<>();
                for (int in = 5; in <= 7; in++) {
                    overlapping.add(circuit(f, 0x24, in, in - 4));
                }
                // (Open vSwitch takes an identical match as a replacement, not an overlap: IPv4 from port 9 is both.)
                overlapping.add(f.buildFlowAdd().setCookie(U64.of(0x24)).setPriority(100)
                        .setFlags(Set.of(OFFlowModFlags.CHECK_OVERLAP))
                        .setMatch(f.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(9))
                                .setExact(MatchField.ETH_TYPE, EthType.IPv4).build())
                        .setActions(List.of(f.actions().output(OFPort.of(2), 0))).build());
                OFBundleException overlap = refused(sw.bundle().add(overlapping));
                System.out.println("BundlesIT: " + overlap.getMessage());
                assertTrue(overlap.getMessage().contains("OVERLAP"), overlap.getMessage());
                assertEquals(List.of(), entries(bridge, "cookie=0x24"), "nothing of the refused bundle");

                // Refused as it is added (a port no switch has): discarded, never committed in part.
                List<OFMessage> badPort = new ArrayList<>();
                badPort.add(circuit(f, 0x25, 5, 1));
                badPort.add(f.buildFlowAdd().setCookie(U64.of(0x25)).setPriority(100)
                        .setMatch(f.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(6)).build())
                        .setActions(List.of(f.actions().output(OFPort.ANY, 0))).build());
                badPort.add(circuit(f, 0x25, 7, 3));
                OFBundleException bad = refused(sw.bundle().add(badPort));
                System.out.println("BundlesIT: " + bad.getMessage());
                assertTrue(bad.getMessage().contains("BAD_OUT_PORT"), bad.getMessage());
                assertEquals(List.of(), entries(bridge, "cookie=0x25"), "nothing of the refused bundle");

                // What was there before the refusals is untouched.
                assertEquals(4, entries(bridge, "cookie=0x23").size());
                assertEquals(List.of("in_port=9 output:1"), entries(bridge, "cookie=0x99"));
            }
        }
    }

    private static OFBundleException refused(OFBundle bundle) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> bundle.commit().get(10, TimeUnit.SECONDS));
        return assertInstanceOf(OFBundleException.class, e.getCause());
    }

    private static OFFlowAdd circuit(OFFactory f, long cookie, int in, int out) {
        return f.buildFlowAdd().setCookie(U64.of(cookie)).setPriority(100)
                .setMatch(f.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(in)).build())
                .setActions(List.of(f.actions().output(OFPort.of(out), 0))).build();
    }

    /** The bridge's entries with this cookie as "match actions", sorted. */
    private static List<String> entries(Bridge bridge, String cookie) {
        return bridge.dumpFlows().stream().filter(e -> e.line().contains(cookie + ","))
                .map(e -> e.match() + " " + e.actions()).sorted().toList();
    }
}
