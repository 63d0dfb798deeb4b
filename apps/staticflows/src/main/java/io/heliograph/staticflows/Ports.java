package io.heliograph.staticflows;

import java.util.Locale;
import java.util.Map;

import org.projectfloodlight.openflow.types.OFPort;

/** Port numbers as operators write them: a number or a reserved name (Floodlight's names). */
public final class Ports {

    private static final Map<String, OFPort> RESERVED = Map.of(
            "local", OFPort.LOCAL, "controller", OFPort.CONTROLLER, "all", OFPort.ALL, "in_port", OFPort.IN_PORT,
            "flood", OFPort.FLOOD, "normal", OFPort.NORMAL, "table", OFPort.TABLE, "any", OFPort.ANY);

    private Ports() {
    }

    public static OFPort parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        OFPort reserved = RESERVED.get(t);
        if (reserved != null) {
            return reserved;
        }
        try {
            long n = Long.decode(t);
            if (n < 0 || n > 0xffffffffL) {
                throw new IllegalArgumentException("port " + text + " is out of range 0..0xffffffff");
            }
            return OFPort.ofInt((int) n);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a port: a number or one of " + RESERVED.keySet());
        }
    }

    public static String format(OFPort port) {
        for (Map.Entry<String, OFPort> e : RESERVED.entrySet()) {
            if (e.getValue().equals(port)) {
                return e.getKey();
            }
        }
        return Integer.toUnsignedString(port.getPortNumber());
    }

    /** True for OpenFlow's reserved ports (the numbers above the physical range). */
    public static boolean isReserved(OFPort port) {
        return RESERVED.containsValue(port) || Integer.compareUnsigned(port.getPortNumber(), 0xffffff00) > 0;
    }
}
