package io.heliograph.core;

import java.util.List;

/**
 * The bounded tables of one component: every table that grows with what switches send (hosts, MAC
 * addresses, installed paths, held packets, pending requests, packet-ins per second) has a bound that
 * is a documented setting, and what it evicts or refuses at that bound is counted. A component
 * registers this as an OSGi service (whiteboard); the web bundle lists every registered bound at
 * {@code GET /api/v1/limits} and in {@code /metrics}, so an operator sees a flood's effect.
 *
 * <p>Called from HTTP threads: implementations read their counters without blocking the I/O threads.
 */
public interface StateBounds {

    /** The bounds this component enforces now, with their current fill and counters. */
    List<Bound> bounds();

    /**
     * One bounded table.
     *
     * @param table       the table's name, {@code <app>.<table>}, e.g. {@code devices.hostsPerPort}
     * @param setting     the setting that sets the bound, {@code <pid>/<key>}, e.g.
     *                    {@code io.heliograph.devices/maxHostsPerPort}
     * @param limit       the bound (entries, or for a rate, entries per second)
     * @param size        entries held now; for a per-switch or per-port bound, the fullest one's
     * @param evicted     entries removed to make room for newer ones since the start
     * @param refused     new entries (or messages) turned away at the bound since the start
     * @param description what the table holds and what happens at the bound, one sentence
     */
    record Bound(String table, String setting, long limit, long size, long evicted, long refused, String description) {

        public Bound {
            if (table == null || table.isBlank()) {
                throw new IllegalArgumentException("a bound needs a table name");
            }
            if (limit < 0 || size < 0 || evicted < 0 || refused < 0) {
                throw new IllegalArgumentException(table + ": limit, size and counters are never negative");
            }
            setting = setting == null ? "" : setting;
            description = description == null ? "" : description;
        }
    }
}
