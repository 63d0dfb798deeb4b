package io.heliograph.openflow;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import org.projectfloodlight.openflow.protocol.OFType;

/**
 * Messages the controller wrote to switches since the channel layer started, by type, over every
 * connection (the sending half of what {@link io.heliograph.core.MessageStatistics} counts as
 * received). Counted as each message is encoded, on its switch's I/O thread; a {@link LongAdder}
 * per type keeps the threads off each other's cache lines.
 */
final class SentMessages {

    private static final OFType[] TYPES = OFType.values();

    private final LongAdder[] byType = new LongAdder[TYPES.length];

    SentMessages() {
        for (int i = 0; i < byType.length; i++) {
            byType[i] = new LongAdder();
        }
    }

    void count(OFType type) {
        byType[type.ordinal()].increment();
    }

    /** By type; types never sent are absent. */
    Map<OFType, Long> byType() {
        Map<OFType, Long> counts = new EnumMap<>(OFType.class);
        for (int i = 0; i < byType.length; i++) {
            long n = byType[i].sum();
            if (n > 0) {
                counts.put(TYPES[i], n);
            }
        }
        return counts;
    }
}
