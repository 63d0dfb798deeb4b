package io.heliograph.core.pipeline;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import org.projectfloodlight.openflow.protocol.OFType;

/**
 * Reads pipeline orders from configuration properties: {@code order.<TYPE> = name1,name2,...}.
 * Types without a key keep the default order.
 */
public final class PipelineOrders {

    public static final String KEY_PREFIX = "order.";

    /**
     * The default PACKET_IN order: discovery first (topology stops its own LLDP), then device
     * tracking, then routing-based forwarding, and the learning switch as the fallback.
     */
    public static final List<String> DEFAULT_PACKET_IN =
            List.of("topology", "devices", "forwarding", "learningswitch");

    private PipelineOrders() {
    }

    public static Map<OFType, List<String>> defaults() {
        Map<OFType, List<String>> orders = new EnumMap<>(OFType.class);
        orders.put(OFType.PACKET_IN, DEFAULT_PACKET_IN);
        return orders;
    }

    /**
     * The orders the properties give, over the defaults. Keys that do not name a message type and
     * values that are not names are reported to {@code problems} and ignored, so one typo does not
     * throw away the rest of the configuration.
     */
    public static Map<OFType, List<String>> parse(Map<String, ?> properties, Consumer<String> problems) {
        Map<OFType, List<String>> orders = defaults();
        for (Map.Entry<String, ?> entry : properties.entrySet()) {
            String key = entry.getKey();
            if (!key.startsWith(KEY_PREFIX)) {
                continue;
            }
            String typeName = key.substring(KEY_PREFIX.length()).trim().toUpperCase(Locale.ROOT);
            OFType type;
            try {
                type = OFType.valueOf(typeName);
            } catch (IllegalArgumentException e) {
                problems.accept("Ignoring pipeline order '" + key + "': '" + typeName
                        + "' is not an OpenFlow message type (e.g. PACKET_IN, PORT_STATUS, FLOW_REMOVED)");
                continue;
            }
            List<String> names = names(entry.getValue());
            if (names == null) {
                problems.accept("Ignoring pipeline order '" + key + "': expected comma-separated listener "
                        + "names, got " + entry.getValue().getClass().getSimpleName());
                continue;
            }
            orders.put(type, ListenerPipeline.cleanOrder(names));
        }
        return orders;
    }

    /** Splits "a, b,c" (or a String[] / collection of such) into names; null for other values. */
    private static List<String> names(Object value) {
        Collection<?> parts;
        if (value instanceof String s) {
            parts = List.of(s);
        } else if (value instanceof String[] array) {
            parts = Arrays.asList(array);
        } else if (value instanceof Collection<?> collection) {
            parts = collection;
        } else {
            return null;
        }
        List<String> names = new ArrayList<>();
        for (Object part : parts) {
            if (!(part instanceof String s)) {
                return null;
            }
            names.addAll(Arrays.asList(s.split(",")));
        }
        return names;
    }
}
