package io.heliograph.virtue.engine;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An Experiment Description File (thesis Appendix B; spec §2.4): the experiment's parameters, its
 * physical machines and the VMs each hosts, the switches, the directed links and the routes of the
 * communicating VM pairs. Immutable; members keep the order they were read or built in, so a file
 * written back reads the same. {@link EdfFormat} reads, validates and writes it.
 *
 * <p>Every scalar is a string as in the thesis's files, except a switch's {@code software} flag and a
 * link's ports. The numbers an algorithm needs ({@code CPU_COUNT}, {@code CPU_SPEED},
 * {@code LINK_SPEED}, {@code INTRA_PM_LINK_SPEED}) are read from the parameters by
 * {@link PlacementProblem}, which says which of them is missing or not a number.
 */
public record Edf(Map<String, String> parameters, List<Pm> pms, List<Switch> switches, List<Link> links,
                  List<Route> routes) {

    /** Global parameter: CPUs of a PM, unless the PM's own parameters say otherwise. */
    public static final String CPU_COUNT = "CPU_COUNT";
    /** Global parameter: cycles per second of one CPU, unless the PM's own parameters say otherwise. */
    public static final String CPU_SPEED = "CPU_SPEED";
    /** Global or per-link parameter: a link's capacity in bits per second, per direction. */
    public static final String LINK_SPEED = "LINK_SPEED";
    /** Global parameter: the capacity of a VM's link to its PM's software switch, in bits per second. */
    public static final String INTRA_PM_LINK_SPEED = "INTRA_PM_LINK_SPEED";

    public Edf {
        parameters = frozen(parameters);
        pms = List.copyOf(pms);
        switches = List.copyOf(switches);
        links = List.copyOf(links);
        routes = List.copyOf(routes);
    }

    /**
     * One direction of a link's capacity in bits per second (spec §2.4.2): the link's own
     * {@code LINK_SPEED}; else, for a VM's link to or from its PM's switch, {@code INTRA_PM_LINK_SPEED};
     * else the file's {@code LINK_SPEED}. -1 when that figure is missing or not a positive number, which
     * {@link EdfFormat} refuses. The one rule for the placement estimates and the live measurements.
     */
    public double linkBitsPerSecond(Link link) {
        String own = link.parameters().get(LINK_SPEED);
        if (own != null) {
            return EdfFormat.number(own);
        }
        boolean vmLink = pms.stream().anyMatch(pm -> pm.vms().containsKey(link.sourceId())
                || pm.vms().containsKey(link.destinationId()));
        String global = vmLink && parameters.containsKey(INTRA_PM_LINK_SPEED) ? parameters.get(INTRA_PM_LINK_SPEED)
                : parameters.get(LINK_SPEED);
        return global == null ? -1 : EdfFormat.number(global);
    }

    /** A physical machine and the VMs it hosts, keyed by VM id as in the file. */
    public record Pm(String id, Map<String, String> parameters, Map<String, Vm> vms) {
        public Pm {
            Objects.requireNonNull(id, "id");
            parameters = frozen(parameters);
            vms = frozen(vms);
        }
    }

    /** A virtual machine; its parameters describe the workload it runs. */
    public record Vm(String id, Map<String, String> parameters) {
        public Vm {
            Objects.requireNonNull(id, "id");
            parameters = frozen(parameters);
        }
    }

    /** A switch by datapath id; a software switch (Open vSwitch) is a PM's network node. */
    public record Switch(String id, Map<String, String> parameters, boolean software) {
        public Switch {
            Objects.requireNonNull(id, "id");
            parameters = frozen(parameters);
        }
    }

    /**
     * One direction of a link, between two switches or between a VM and its PM's software switch; its
     * id is {@code source:port->destination:port}.
     */
    public record Link(String id, String sourceId, int sourcePort, String destinationId, int destinationPort,
                       Map<String, String> parameters) {
        public Link {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(sourceId, "sourceId");
            Objects.requireNonNull(destinationId, "destinationId");
            parameters = frozen(parameters);
        }

        /** The id the thesis gives a link: {@code source:port->destination:port}. */
        public static String idOf(String sourceId, int sourcePort, String destinationId, int destinationPort) {
            return sourceId + ":" + sourcePort + "->" + destinationId + ":" + destinationPort;
        }
    }

    /** The links, in order, that one VM's traffic to another crosses. */
    public record Route(String sourceId, String destinationId, List<String> linkIds) {
        public Route {
            Objects.requireNonNull(sourceId, "sourceId");
            Objects.requireNonNull(destinationId, "destinationId");
            linkIds = List.copyOf(linkIds);
        }
    }

    private static <V> Map<String, V> frozen(Map<String, V> map) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }
}
