package io.heliograph.bench;

import java.util.Arrays;
import java.util.Locale;

/**
 * The switches of an emulated network, how many ports each has, and the cables between ports. A
 * port without a cable is a host port: what goes out of it reaches no switch. Switches are indexed
 * from 0; the generator gives switch {@code i} the datapath id {@code -o} + i. Immutable.
 */
final class Fabric {

    private static final int NO_CABLE = -1;

    private final String description;
    private final String[] names;
    /** Global index of each switch's port 1; the last entry is the number of ports in the fabric. */
    private final int[] firstPort;
    /** By global port index: the switch and port at the cable's other end, or NO_CABLE. */
    private final int[] peerSwitch;
    private final int[] peerPort;
    private final int cables;

    private Fabric(String description, String[] names, int[] firstPort, int[] peerSwitch, int[] peerPort, int cables) {
        this.description = description;
        this.names = names;
        this.firstPort = firstPort;
        this.peerSwitch = peerSwitch;
        this.peerPort = peerPort;
        this.cables = cables;
    }

    /**
     * The fabric {@code --topology} names: {@code fattree:K}, or {@code fattree} and the largest fat
     * tree with at most {@code switches} switches.
     *
     * @throws IllegalArgumentException naming what is wrong with the spec
     */
    static Fabric parse(String spec, int switches) {
        String s = spec.trim().toLowerCase(Locale.ROOT);
        if (s.equals("fattree")) {
            return fatTree(fatTreeArityFor(switches));
        }
        if (s.startsWith("fattree:")) {
            String k = s.substring("fattree:".length());
            try {
                return fatTree(Integer.parseInt(k));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("fattree:K needs an even number K, got '" + k + "'");
            }
        }
        throw new IllegalArgumentException("unknown topology '" + spec + "': the generator emulates fattree:K (a k-ary"
                + " fat tree, 5k\u00b2/4 switches) or fattree with -s N (the largest fat tree of at most N switches)");
    }

    /** The largest even k whose fat tree (5k²/4 switches) has at most {@code switches} switches. */
    static int fatTreeArityFor(int switches) {
        if (switches < 5) {
            throw new IllegalArgumentException("the smallest fat tree (k=2) has 5 switches; -s " + switches
                    + " is too few");
        }
        int k = 2;
        while (fatTreeSwitches(k + 2) <= switches && k + 2 <= SwitchMessages.MAX_PORTS) {
            k += 2;
        }
        return k;
    }

    static int fatTreeSwitches(int k) {
        return 5 * k * k / 4;
    }

    /**
     * A k-ary fat tree (Al-Fares et al.): k pods of k/2 edge and k/2 aggregation switches, and (k/2)²
     * core switches, every switch with k ports. Switches in the order the testbed's fat tree numbers
     * its bridges: the cores, then pod by pod its aggregation and then its edge switches.
     * <ul>
     *   <li>edge switch e of a pod: ports 1..k/2 are host ports, port k/2+1+a goes to the pod's
     *       aggregation switch a (its port e+1);</li>
     *   <li>aggregation switch a: port e+1 goes down to edge switch e, port k/2+1+j up to core
     *       a·k/2+j (its port pod+1);</li>
     *   <li>core switch c: port p+1 goes to pod p.</li>
     * </ul>
     */
    static Fabric fatTree(int k) {
        if (k < 2 || k % 2 != 0 || k > SwitchMessages.MAX_PORTS) {
            throw new IllegalArgumentException("a fat tree needs an even k from 2 to " + (SwitchMessages.MAX_PORTS - 1)
                    + " (each switch has k ports), got " + k);
        }
        int half = k / 2;
        int cores = half * half;
        int switches = fatTreeSwitches(k);
        String[] names = new String[switches];
        for (int c = 0; c < cores; c++) {
            names[c] = "core " + c;
        }
        for (int pod = 0; pod < k; pod++) {
            for (int i = 0; i < half; i++) {
                names[aggregation(k, pod, i)] = "pod " + pod + " aggregation " + i;
                names[edge(k, pod, i)] = "pod " + pod + " edge " + i;
            }
        }
        int[] ports = new int[switches];
        Arrays.fill(ports, k);
        Builder b = new Builder(names, ports);
        for (int pod = 0; pod < k; pod++) {
            for (int e = 0; e < half; e++) {
                for (int a = 0; a < half; a++) {
                    b.cable(edge(k, pod, e), half + 1 + a, aggregation(k, pod, a), e + 1);
                }
            }
            for (int a = 0; a < half; a++) {
                for (int j = 0; j < half; j++) {
                    b.cable(aggregation(k, pod, a), half + 1 + j, a * half + j, pod + 1);
                }
            }
        }
        return b.build(String.format(Locale.ROOT, "fat tree k=%d: %d switches (%d core, %d aggregation, %d edge)",
                k, switches, cores, k * half, k * half));
    }

    private static int aggregation(int k, int pod, int i) {
        return k * k / 4 + pod * k + i;
    }

    private static int edge(int k, int pod, int i) {
        return k * k / 4 + pod * k + k / 2 + i;
    }

    int switches() {
        return names.length;
    }

    int ports(int sw) {
        return firstPort[sw + 1] - firstPort[sw];
    }

    /** Ports of all switches together. */
    int totalPorts() {
        return firstPort[names.length];
    }

    /** A number from 0 to {@link #totalPorts()} - 1 for port {@code port} (1-based) of switch {@code sw}. */
    int portIndex(int sw, int port) {
        return firstPort[sw] + port - 1;
    }

    boolean hasPort(int sw, int port) {
        return port >= 1 && port <= ports(sw);
    }

    /** The switch at the other end of the cable in {@code port} of {@code sw}; -1 for a host port. */
    int peerSwitch(int sw, int port) {
        return peerSwitch[portIndex(sw, port)];
    }

    /** The port at the other end of the cable in {@code port} of {@code sw}; -1 for a host port. */
    int peerPort(int sw, int port) {
        return peerPort[portIndex(sw, port)];
    }

    int cables() {
        return cables;
    }

    /** What a controller's topology should list when it has found everything: each cable both ways. */
    int directedLinks() {
        return 2 * cables;
    }

    /** Ports with no cable. */
    int hostPorts() {
        return totalPorts() - directedLinks();
    }

    /** Where switch {@code sw} is in the fabric, e.g. "pod 3 edge 1". */
    String name(int sw) {
        return names[sw];
    }

    /** One line: the kind of fabric, its switches, cables and host ports. */
    String describe() {
        return String.format(Locale.ROOT, "%s, %d cables (%d directed links), %d ports of which %d host ports",
                description, cables, directedLinks(), totalPorts(), hostPorts());
    }

    @Override
    public String toString() {
        return description;
    }

    /** Lays the cables, refusing a port that does not exist or already has one. */
    private static final class Builder {
        private final String[] names;
        private final int[] firstPort;
        private final int[] peerSwitch;
        private final int[] peerPort;
        private int cables;

        Builder(String[] names, int[] ports) {
            this.names = names;
            firstPort = new int[ports.length + 1];
            for (int i = 0; i < ports.length; i++) {
                firstPort[i + 1] = firstPort[i] + ports[i];
            }
            peerSwitch = new int[firstPort[ports.length]];
            peerPort = new int[peerSwitch.length];
            Arrays.fill(peerSwitch, NO_CABLE);
            Arrays.fill(peerPort, NO_CABLE);
        }

        void cable(int a, int portA, int b, int portB) {
            if (a == b) {
                throw new IllegalStateException("a cable from " + names[a] + " to itself");
            }
            plug(a, portA, b, portB);
            plug(b, portB, a, portA);
            cables++;
        }

        private void plug(int sw, int port, int otherSwitch, int otherPort) {
            if (port < 1 || firstPort[sw] + port > firstPort[sw + 1]) {
                throw new IllegalStateException(names[sw] + " has no port " + port);
            }
            int at = firstPort[sw] + port - 1;
            if (peerSwitch[at] != NO_CABLE) {
                throw new IllegalStateException(names[sw] + " port " + port + " has a cable already");
            }
            peerSwitch[at] = otherSwitch;
            peerPort[at] = otherPort;
        }

        Fabric build(String description) {
            return new Fabric(description, names, firstPort, peerSwitch, peerPort, cables);
        }
    }
}
