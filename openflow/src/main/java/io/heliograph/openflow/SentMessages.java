package io.heliograph.openflow;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.projectfloodlight.openflow.protocol.OFType;

/**
 * Messages the controller wrote to switches since the channel layer started, by type, over every
 * connection (the sending half of what {@link io.heliograph.core.MessageStatistics} counts as
 * received). Each connection counts its own as its messages are encoded, on its I/O thread, with
 * plain (opaque) stores: no atomic instruction and no shared cache line per message. A closed
 * connection's counts move to the totals, under the same lock the readers (scrapes) take, so the
 * totals never go down.
 */
final class SentMessages {

    private static final OFType[] TYPES = OFType.values();

    /** One connection's counts by type: written by its I/O thread only, read by any thread. */
    static final class Connection {
        private static final VarHandle COUNT = MethodHandles.arrayElementVarHandle(long[].class);

        private final long[] byType = new long[TYPES.length];

        /** On the connection's I/O thread. */
        void count(OFType type) {
            int i = type.ordinal();
            COUNT.setOpaque(byType, i, byType[i] + 1);
        }

        long count(int ordinal) {
            return (long) COUNT.getOpaque(byType, ordinal);
        }

        /** Every type together; any thread. */
        long total() {
            long sum = 0;
            for (int i = 0; i < byType.length; i++) {
                sum += count(i);
            }
            return sum;
        }
    }

    private final Set<Connection> open = new HashSet<>();
    private final long[] closed = new long[TYPES.length];

    /** A new connection's counts, part of the totals until {@link #close}. */
    synchronized Connection open() {
        Connection connection = new Connection();
        open.add(connection);
        return connection;
    }

    /** The connection is gone: its counts join the closed ones' (what it writes after this is not counted). */
    synchronized void close(Connection connection) {
        if (open.remove(connection)) {
            for (int i = 0; i < closed.length; i++) {
                closed[i] += connection.count(i);
            }
        }
    }

    /** By type; types never sent are absent. */
    synchronized Map<OFType, Long> byType() {
        Map<OFType, Long> counts = new EnumMap<>(OFType.class);
        for (int i = 0; i < TYPES.length; i++) {
            long n = closed[i];
            for (Connection connection : open) {
                n += connection.count(i);
            }
            if (n > 0) {
                counts.put(TYPES[i], n);
            }
        }
        return counts;
    }
}
