package io.heliograph.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The fat tree the fabric mode emulates: its size, where each cable goes, and how -s picks k. */
class FabricTest {

    @ParameterizedTest(name = "k={0}")
    @ValueSource(ints = {2, 4, 8, 28})
    void aFatTreeHasAlFaresCounts(int k) {
        Fabric tree = Fabric.fatTree(k);
        assertEquals(5 * k * k / 4, tree.switches());
        assertEquals(k * k * k / 2, tree.cables(), "k³/4 edge-aggregation and k³/4 aggregation-core cables");
        assertEquals(k * k * k, tree.directedLinks());
        assertEquals(k * k * k / 4, tree.hostPorts(), "k/2 hosts on each of the k²/2 edge switches");
        for (int sw = 0; sw < tree.switches(); sw++) {
            assertEquals(k, tree.ports(sw), tree.name(sw));
        }
    }

    @Test
    void everyCableConnectsTwoPortsBothWays() {
        Fabric tree = Fabric.fatTree(8);
        Set<Integer> seen = new HashSet<>();
        for (int sw = 0; sw < tree.switches(); sw++) {
            for (int port = 1; port <= tree.ports(sw); port++) {
                int peer = tree.peerSwitch(sw, port);
                if (peer < 0) {
                    continue;
                }
                int peerPort = tree.peerPort(sw, port);
                assertTrue(peer != sw, tree.name(sw) + " port " + port + " is cabled to itself");
                assertEquals(sw, tree.peerSwitch(peer, peerPort), tree.name(sw) + " port " + port);
                assertEquals(port, tree.peerPort(peer, peerPort), tree.name(sw) + " port " + port);
                assertTrue(seen.add(tree.portIndex(sw, port)));
            }
        }
        assertEquals(tree.directedLinks(), seen.size());
    }

    @Test
    void theK4TreeIsWiredLayerToLayer() {
        Fabric tree = Fabric.fatTree(4);
        // Cores 0-3; pod 0: aggregation 4, 5, edge 6, 7; pod 1: 8, 9, 10, 11; ...
        assertEquals("core 0", tree.name(0));
        assertEquals("pod 0 aggregation 0", tree.name(4));
        assertEquals("pod 0 edge 0", tree.name(6));
        assertEquals("pod 3 edge 1", tree.name(19));
        // edge: ports 1, 2 are host ports, 3 and 4 go up to the pod's aggregation switches
        assertEquals(-1, tree.peerSwitch(6, 1));
        assertEquals(-1, tree.peerSwitch(6, 2));
        assertEquals(4, tree.peerSwitch(6, 3));
        assertEquals(1, tree.peerPort(6, 3));
        assertEquals(5, tree.peerSwitch(7, 4));
        assertEquals(2, tree.peerPort(7, 4));
        // aggregation 1 of pod 2 (switch 13) goes up to cores 2 and 3, at their port 3
        assertEquals(2, tree.peerSwitch(13, 3));
        assertEquals(3, tree.peerPort(13, 3));
        assertEquals(3, tree.peerSwitch(13, 4));
        // a core reaches one aggregation switch in every pod
        for (int pod = 0; pod < 4; pod++) {
            assertEquals("pod " + pod + " aggregation 0", tree.name(tree.peerSwitch(1, pod + 1)));
        }
    }

    @ParameterizedTest(name = "-s {0} -> k={1}")
    @CsvSource({"5, 2", "19, 2", "20, 4", "320, 16", "500, 20", "979, 26", "980, 28", "1000, 28", "1124, 28",
        "1125, 30"})
    void fatTreeWithSwitchesPicksTheLargestTreeThatFits(int switches, int k) {
        assertEquals(k, Fabric.fatTreeArityFor(switches));
        assertEquals(k, Math.round(Math.sqrt(Fabric.parse("fattree", switches).switches() * 4 / 5.0)));
    }

    @Test
    void badTopologiesAreRefusedByName() {
        assertEquals("a fat tree needs an even k from 2 to 254 (each switch has k ports), got 5",
                assertThrows(IllegalArgumentException.class, () -> Fabric.parse("fattree:5", 0)).getMessage());
        assertEquals("fattree:K needs an even number K, got 'x'",
                assertThrows(IllegalArgumentException.class, () -> Fabric.parse("fattree:x", 0)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Fabric.parse("mesh", 10)).getMessage()
                .startsWith("unknown topology 'mesh'"));
        assertEquals("the smallest fat tree (k=2) has 5 switches; -s 4 is too few",
                assertThrows(IllegalArgumentException.class, () -> Fabric.parse("fattree", 4)).getMessage());
    }

    @Test
    void theOptionsChooseTheTreeAndRefuseWhatDoesNotFit() throws Exception {
        FabricOptions o = FabricOptions.parse("--topology", "fattree", "-s", "1000", "-p", "7000", "--health",
                "http://localhost:8080/api/v1/health", "--duration=5");
        assertEquals(980, o.fabric().switches());
        assertEquals(7000, o.port());
        assertEquals(OpenFlowVersion.OF_13, o.version(), "1.3 unless -V says otherwise");
        assertEquals(5, o.durationSeconds());
        assertEquals(OpenFlowVersion.OF_10, FabricOptions.parse("--topology=fattree:4", "-V1.0").version());

        assertEquals("--topology fattree needs -s N (the most switches), or name k: fattree:K",
                usage("--topology", "fattree"));
        assertEquals("-s 100 goes with --topology fattree (which picks the largest fat tree of at most N switches),"
                + " not with 'fattree:4'", usage("--topology", "fattree:4", "-s", "100"));
        assertEquals("unknown flag '-t' in the fabric mode (it takes --topology, -s, -c, -p, -V, -o, --health,"
                + " --duration; try -h)", usage("--topology", "fattree:4", "-t"));
        assertEquals("-p needs a TCP port number (1-65535), got 0", usage("--topology", "fattree:4", "-p", "0"));
        assertTrue(usage("--topology", "fattree:4", "--health", "ftp://x/").startsWith("--health needs an http://"));
        assertEquals("--duration needs a number of seconds (0 or more), got '-1'",
                usage("--topology", "fattree:4", "--duration", "-1"));
        assertEquals("-s needs a value", usage("--topology", "fattree", "-s"));
    }

    private static String usage(String... args) {
        return assertThrows(BenchOptions.UsageException.class, () -> FabricOptions.parse(args)).getMessage();
    }
}
