package io.heliograph.topology.internal;

import java.util.HashSet;
import java.util.Set;

import org.projectfloodlight.openflow.types.DatapathId;

import io.heliograph.core.SwitchPort;
import io.heliograph.topology.Link;

/** Topologies for tests, as switch and link sets. */
final class Graphs {

    final Set<DatapathId> switches = new HashSet<>();
    final Set<Link> links = new HashSet<>();

    static DatapathId dpid(long value) {
        return DatapathId.of(value);
    }

    Graphs switches(long... dpids) {
        for (long d : dpids) {
            switches.add(dpid(d));
        }
        return this;
    }

    /** A cable: links both ways. */
    Graphs cable(long a, int aPort, long b, int bPort) {
        oneWay(a, aPort, b, bPort);
        return oneWay(b, bPort, a, aPort);
    }

    Graphs oneWay(long a, int aPort, long b, int bPort) {
        switches(a, b);
        links.add(new Link(Fabric.end(a, aPort), Fabric.end(b, bPort)));
        return this;
    }

    TopologyGraph build() {
        return new TopologyGraph(1, switches, links);
    }

    /** Core switch c (0..3). */
    static long core(int c) {
        return 0x100 + c;
    }

    /** Aggregation switch j (0..1) of pod p (0..3). */
    static long agg(int p, int j) {
        return 0x200 + p * 0x10 + j;
    }

    /** Edge switch j (0..1) of pod p (0..3); its ports 3 and 4 face hosts. */
    static long edge(int p, int j) {
        return 0x300 + p * 0x10 + j;
    }

    /**
     * A k=4 fat tree: 4 core, 8 aggregation, 8 edge switches, 32 cables. Edge port j+1 goes to
     * aggregation switch j of the pod; aggregation ports 1-2 go to the edges, 3-4 to cores 2j, 2j+1;
     * core port p+1 goes to pod p.
     */
    static Graphs fatTree() {
        Graphs g = new Graphs();
        for (int p = 0; p < 4; p++) {
            for (int j = 0; j < 2; j++) {
                for (int e = 0; e < 2; e++) {
                    g.cable(edge(p, e), j + 1, agg(p, j), e + 1);
                }
                for (int c = 0; c < 2; c++) {
                    g.cable(agg(p, j), c + 3, core(2 * j + c), p + 1);
                }
            }
        }
        return g;
    }

    /** A ring of n switches 1..n: port 1 goes to the next, port 2 to the previous. */
    static Graphs ring(int n) {
        Graphs g = new Graphs();
        for (int i = 1; i <= n; i++) {
            g.cable(i, 1, i % n + 1, 2);
        }
        return g;
    }

    static SwitchPort port(long dpid, int port) {
        return Fabric.end(dpid, port);
    }
}
