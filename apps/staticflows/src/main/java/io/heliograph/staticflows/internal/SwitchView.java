package io.heliograph.staticflows.internal;

import java.util.Collection;
import java.util.TreeSet;
import java.util.function.Function;

import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFPort;

import io.heliograph.core.OFSwitch;

/**
 * What validation knows of an entry's switch: nothing when it is not connected, otherwise its
 * version, table count and ports.
 *
 * @param version null when the switch is not connected
 * @param tables  the number of flow tables, or 0 when unknown
 * @param ports   the switch's port table, or null when unknown
 */
record SwitchView(OFVersion version, int tables, Function<OFPort, OFPortDesc> ports, Collection<OFPortDesc> allPorts) {

    static final SwitchView UNKNOWN = new SwitchView(null, 0, null, null);

    static SwitchView of(OFSwitch sw) {
        if (sw == null || !sw.isConnected()) {
            return UNKNOWN;
        }
        int tables = 0;
        try {
            tables = sw.getFeatures() == null ? 0 : sw.getFeatures().getNTables();
        } catch (RuntimeException e) {
            // some fakes and some switches have no features: the table count stays unknown
        }
        return new SwitchView(sw.getVersion(), tables, sw::getPort, sw.getPorts());
    }

    boolean connected() {
        return version != null;
    }

    boolean atLeast(OFVersion v) {
        return version == null || version.compareTo(v) >= 0;
    }

    String portList() {
        TreeSet<Long> numbers = new TreeSet<>();
        if (allPorts != null) {
            for (OFPortDesc p : allPorts) {
                if (Integer.compareUnsigned(p.getPortNo().getPortNumber(), 0xffffff00) < 0) {
                    numbers.add(Integer.toUnsignedLong(p.getPortNo().getPortNumber()));
                }
            }
        }
        return numbers.toString();
    }

    static String name(OFVersion v) {
        return switch (v) {
            case OF_10 -> "OpenFlow 1.0";
            case OF_11 -> "OpenFlow 1.1";
            case OF_12 -> "OpenFlow 1.2";
            case OF_13 -> "OpenFlow 1.3";
            case OF_14 -> "OpenFlow 1.4";
            case OF_15 -> "OpenFlow 1.5";
            default -> v.toString();
        };
    }
}
