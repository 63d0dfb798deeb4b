package io.heliograph.virtue.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads what was recorded: an experiment's sample instants, the round at or before an instant, the host
 * reports in force at an instant, metric series, the averages the optimiser is fed, and how many rounds
 * each experiment has.
 */
public final class Queries {

    private final VirtueDatabase database;

    public Queries(VirtueDatabase database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /** The instants of {@code experiment}'s rounds, oldest first. */
    public List<Instant> times(String experiment) {
        return read("reading the sample times of " + experiment, connection -> {
            List<Instant> times = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT sampled_ms FROM virtue_round WHERE experiment = ? ORDER BY sampled_ms")) {
                select.setString(1, experiment);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        times.add(Instant.ofEpochMilli(rows.getLong(1)));
                    }
                }
            }
            return times;
        });
    }

    /** The last round of {@code experiment} at or before {@code at}; empty when none is that old. */
    public Optional<Round> roundAtOrBefore(String experiment, Instant at) {
        return read("reading the round of " + experiment + " at " + at,
                connection -> roundAtOrBefore(connection, experiment, millis(at)));
    }

    /** The last round of {@code experiment}. */
    public Optional<Round> latestRound(String experiment) {
        return read("reading the latest round of " + experiment,
                connection -> roundAtOrBefore(connection, experiment, Long.MAX_VALUE));
    }

    /** Per VM, the last report of {@code experiment} at or before {@code at} (null: the latest). */
    public Map<String, HostReport> reportsAtOrBefore(String experiment, Instant at) {
        return read("reading the host reports of " + experiment, connection -> {
            Map<String, Long> times = new HashMap<>();
            Map<String, Map<String, Double>> metrics = new LinkedHashMap<>();
            try (PreparedStatement select = connection.prepareStatement("SELECT m.vm, m.reported_ms, m.metric, "
                    + "m.metric_value FROM virtue_vm_metric m JOIN (SELECT vm, MAX(reported_ms) AS last_ms "
                    + "FROM virtue_vm_metric WHERE experiment = ? AND reported_ms <= ? GROUP BY vm) l "
                    + "ON m.vm = l.vm AND m.reported_ms = l.last_ms WHERE m.experiment = ? ORDER BY m.vm, m.metric")) {
                select.setString(1, experiment);
                select.setLong(2, at == null ? Long.MAX_VALUE : millis(at));
                select.setString(3, experiment);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        times.put(rows.getString(1), rows.getLong(2));
                        metrics.computeIfAbsent(rows.getString(1), vm -> new LinkedHashMap<>())
                                .put(rows.getString(3), rows.getDouble(4));
                    }
                }
            }
            Map<String, HostReport> reports = new LinkedHashMap<>();
            metrics.forEach((vm, values) -> {
                Double cpu = values.remove(HostReport.CPU);
                reports.put(vm, new HostReport(experiment, Instant.ofEpochMilli(times.get(vm)), vm, cpu, values));
            });
            return reports;
        });
    }

    /**
     * The metric series of {@code experiment}, of every VM or only {@code vm} (null: all), between
     * {@code from} and {@code to} inclusive (null: unbounded), by VM and metric, points oldest first.
     */
    public List<MetricSeries> series(String experiment, String vm, Instant from, Instant to) {
        return read("reading the metric series of " + experiment, connection -> {
            List<MetricSeries> series = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement("SELECT vm, metric, reported_ms, metric_value "
                    + "FROM virtue_vm_metric WHERE experiment = ? AND reported_ms >= ? AND reported_ms <= ?"
                    + (vm == null ? "" : " AND vm = ?") + " ORDER BY vm, metric, reported_ms")) {
                select.setString(1, experiment);
                select.setLong(2, from == null ? Long.MIN_VALUE : millis(from));
                select.setLong(3, to == null ? Long.MAX_VALUE : millis(to));
                if (vm != null) {
                    select.setString(4, vm);
                }
                try (ResultSet rows = select.executeQuery()) {
                    String currentVm = null;
                    String currentMetric = null;
                    List<MetricSeries.Point> points = new ArrayList<>();
                    while (rows.next()) {
                        String rowVm = rows.getString(1);
                        String rowMetric = rows.getString(2);
                        if (!rowVm.equals(currentVm) || !rowMetric.equals(currentMetric)) {
                            if (currentVm != null) {
                                series.add(new MetricSeries(currentVm, currentMetric, points));
                            }
                            currentVm = rowVm;
                            currentMetric = rowMetric;
                            points = new ArrayList<>();
                        }
                        points.add(new MetricSeries.Point(Instant.ofEpochMilli(rows.getLong(3)), rows.getDouble(4)));
                    }
                    if (currentVm != null) {
                        series.add(new MetricSeries(currentVm, currentMetric, points));
                    }
                }
            }
            return series;
        });
    }

    /** {@code experiment}'s averages over its rounds from {@code from} to {@code to} inclusive (null: unbounded). */
    public Averages averages(String experiment, Instant from, Instant to) {
        long first = from == null ? Long.MIN_VALUE : millis(from);
        long last = to == null ? Long.MAX_VALUE : millis(to);
        return read("averaging the measurements of " + experiment, connection -> {
            long rounds;
            try (PreparedStatement count = window(connection,
                    "SELECT COUNT(*) FROM virtue_round WHERE experiment = ? AND sampled_ms >= ? AND sampled_ms <= ?",
                    experiment, first, last);
                 ResultSet rows = count.executeQuery()) {
                rows.next();
                rounds = rows.getLong(1);
            }
            Map<String, Double> cpu = new LinkedHashMap<>();
            try (PreparedStatement select = window(connection, "SELECT vm, AVG(metric_value) FROM virtue_vm_metric "
                    + "WHERE experiment = ? AND reported_ms >= ? AND reported_ms <= ? AND metric = '" + HostReport.CPU
                    + "' GROUP BY vm ORDER BY vm", experiment, first, last);
                 ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    cpu.put(rows.getString(1), rows.getDouble(2));
                }
            }
            Map<String, Round.Nic> nics = new LinkedHashMap<>();
            Map<Round.VmPair, Double> traffic = new LinkedHashMap<>();
            Map<String, Double> links = new LinkedHashMap<>();
            if (rounds > 0) {
                try (PreparedStatement select = window(connection, "SELECT vm, SUM(sent_bits_per_second), "
                        + "SUM(received_bits_per_second) FROM virtue_nic_rate WHERE experiment = ? AND sampled_ms >= ? "
                        + "AND sampled_ms <= ? GROUP BY vm ORDER BY vm", experiment, first, last);
                     ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        nics.put(rows.getString(1), new Round.Nic(rows.getDouble(2) / rounds, rows.getDouble(3) / rounds));
                    }
                }
                try (PreparedStatement select = window(connection, "SELECT source_vm, destination_vm, "
                        + "SUM(bits_per_second) FROM virtue_traffic WHERE experiment = ? AND sampled_ms >= ? "
                        + "AND sampled_ms <= ? GROUP BY source_vm, destination_vm ORDER BY source_vm, destination_vm",
                        experiment, first, last);
                     ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        traffic.put(new Round.VmPair(rows.getString(1), rows.getString(2)), rows.getDouble(3) / rounds);
                    }
                }
                try (PreparedStatement select = window(connection, "SELECT link, SUM(bits_per_second) "
                        + "FROM virtue_link_rate WHERE experiment = ? AND sampled_ms >= ? AND sampled_ms <= ? "
                        + "GROUP BY link ORDER BY link", experiment, first, last);
                     ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        links.put(rows.getString(1), rows.getDouble(2) / rounds);
                    }
                }
            }
            return new Averages(from, to, rounds, cpu, nics, traffic, links);
        });
    }

    /** How many rounds {@code experiment} has, and its first and last instants. */
    public SampleSummary summary(String experiment) {
        return read("counting the rounds of " + experiment, connection -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT COUNT(*), MIN(sampled_ms), "
                    + "MAX(sampled_ms) FROM virtue_round WHERE experiment = ?")) {
                select.setString(1, experiment);
                try (ResultSet rows = select.executeQuery()) {
                    rows.next();
                    return summary(rows, 1);
                }
            }
        });
    }

    /** {@link #summary} of every experiment that has rounds, in one query (for the experiment list). */
    public Map<String, SampleSummary> summaries() {
        return read("counting the rounds of every experiment", connection -> {
            Map<String, SampleSummary> summaries = new LinkedHashMap<>();
            try (PreparedStatement select = connection.prepareStatement("SELECT experiment, COUNT(*), "
                    + "MIN(sampled_ms), MAX(sampled_ms) FROM virtue_round GROUP BY experiment ORDER BY experiment");
                 ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    summaries.put(rows.getString(1), summary(rows, 2));
                }
            }
            return summaries;
        });
    }

    private static SampleSummary summary(ResultSet rows, int column) throws SQLException {
        long count = rows.getLong(column);
        if (count == 0) {
            return SampleSummary.NONE;
        }
        return new SampleSummary(count, Instant.ofEpochMilli(rows.getLong(column + 1)),
                Instant.ofEpochMilli(rows.getLong(column + 2)));
    }

    private static Optional<Round> roundAtOrBefore(Connection connection, String experiment, long at) throws SQLException {
        long sampled;
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT MAX(sampled_ms) FROM virtue_round WHERE experiment = ? AND sampled_ms <= ?")) {
            select.setString(1, experiment);
            select.setLong(2, at);
            try (ResultSet rows = select.executeQuery()) {
                rows.next();
                sampled = rows.getLong(1);
                if (rows.wasNull()) {
                    return Optional.empty();
                }
            }
        }
        Map<String, Double> links = new LinkedHashMap<>();
        try (PreparedStatement select = round(connection, "SELECT link, bits_per_second FROM virtue_link_rate "
                + "WHERE experiment = ? AND sampled_ms = ? ORDER BY link", experiment, sampled);
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                links.put(rows.getString(1), rows.getDouble(2));
            }
        }
        Map<Round.VmPair, Double> traffic = new LinkedHashMap<>();
        try (PreparedStatement select = round(connection, "SELECT source_vm, destination_vm, bits_per_second "
                + "FROM virtue_traffic WHERE experiment = ? AND sampled_ms = ?", experiment, sampled);
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                traffic.put(new Round.VmPair(rows.getString(1), rows.getString(2)), rows.getDouble(3));
            }
        }
        Map<String, Round.Nic> nics = new LinkedHashMap<>();
        try (PreparedStatement select = round(connection, "SELECT vm, sent_bits_per_second, received_bits_per_second "
                + "FROM virtue_nic_rate WHERE experiment = ? AND sampled_ms = ?", experiment, sampled);
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                nics.put(rows.getString(1), new Round.Nic(rows.getDouble(2), rows.getDouble(3)));
            }
        }
        Map<Round.Port, Round.PortRate> ports = new LinkedHashMap<>();
        try (PreparedStatement select = round(connection, "SELECT dpid, port_number, received_bits_per_second, "
                + "transmitted_bits_per_second FROM virtue_port_rate WHERE experiment = ? AND sampled_ms = ?",
                experiment, sampled);
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                ports.put(new Round.Port(rows.getString(1), rows.getLong(2)),
                        new Round.PortRate(rows.getDouble(3), rows.getDouble(4)));
            }
        }
        return Optional.of(new Round(experiment, Instant.ofEpochMilli(sampled), links, traffic, nics, ports));
    }

    private static PreparedStatement round(Connection connection, String sql, String experiment, long at)
            throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        statement.setString(1, experiment);
        statement.setLong(2, at);
        return statement;
    }

    private static PreparedStatement window(Connection connection, String sql, String experiment, long first,
                                            long last) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        statement.setString(1, experiment);
        statement.setLong(2, first);
        statement.setLong(3, last);
        return statement;
    }

    private static long millis(Instant at) {
        try {
            return at.toEpochMilli();
        } catch (ArithmeticException e) {
            return at.isBefore(Instant.EPOCH) ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    private <T> T read(String doing, VirtueDatabase.SqlWork<T> work) {
        try {
            return database.withConnection(work);
        } catch (SQLException e) {
            throw database.failure(doing, e);
        }
    }
}
