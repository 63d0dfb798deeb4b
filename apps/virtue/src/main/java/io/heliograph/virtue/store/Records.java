package io.heliograph.virtue.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Writes rounds, host reports and experiment rows. Each write replaces what is stored under the same key (a round: its
 * experiment and instant; a report: its experiment, instant and VM), so writing again after a failure
 * whose outcome is unknown (the commit went through, its answer did not) never duplicates rows.
 */
public final class Records {

    private final VirtueDatabase database;

    public Records(VirtueDatabase database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    VirtueDatabase database() {
        return database;
    }

    /** Stores {@code round} in one transaction. */
    public void write(Round round) {
        write(List.of(round));
    }

    /** Stores {@code report} in one transaction. */
    public void write(HostReport report) {
        write(List.of(report));
    }

    /**
     * Stores every item of {@code batch} in one transaction: all or none.
     *
     * @throws DatabaseException when the database fails; its cause is the driver's {@link SQLException}
     */
    public void write(List<? extends Recordable> batch) {
        if (batch.isEmpty()) {
            return;
        }
        try {
            writeBatch(batch);
        } catch (SQLException e) {
            Recordable first = batch.get(0);
            throw database.failure("writing " + batch.size() + " record(s) of experiment " + first.experiment()
                    + " from " + first.at(), e);
        }
    }

    /** As {@link #write(List)}, with the driver's exception as it is: what the recorder classifies. */
    void writeBatch(List<? extends Recordable> batch) throws SQLException {
        database.inTransaction(connection -> {
            for (Recordable item : batch) {
                if (item instanceof Round round) {
                    insert(connection, round);
                } else if (item instanceof HostReport report) {
                    insert(connection, report);
                } else {
                    Experiments.upsert(connection, (ExperimentRow) item);
                }
            }
            return null;
        });
    }

    private static void insert(Connection connection, Round round) throws SQLException {
        String experiment = round.experiment();
        long at = round.at().toEpochMilli();
        // Deleting the round's row deletes its rates too (ON DELETE CASCADE): then the round is written whole.
        try (PreparedStatement delete = connection.prepareStatement(
                "DELETE FROM virtue_round WHERE experiment = ? AND sampled_ms = ?")) {
            delete.setString(1, experiment);
            delete.setLong(2, at);
            delete.executeUpdate();
        }
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO virtue_round (experiment, sampled_ms) VALUES (?, ?)")) {
            insert.setString(1, experiment);
            insert.setLong(2, at);
            insert.executeUpdate();
        }
        if (!round.links().isEmpty()) {
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO virtue_link_rate "
                    + "(experiment, sampled_ms, link, bits_per_second) VALUES (?, ?, ?, ?)")) {
                for (Map.Entry<String, Double> link : round.links().entrySet()) {
                    key(insert, experiment, at);
                    insert.setString(3, link.getKey());
                    insert.setDouble(4, link.getValue());
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
        if (!round.traffic().isEmpty()) {
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO virtue_traffic "
                    + "(experiment, sampled_ms, source_vm, destination_vm, bits_per_second) VALUES (?, ?, ?, ?, ?)")) {
                for (Map.Entry<Round.VmPair, Double> flow : round.traffic().entrySet()) {
                    key(insert, experiment, at);
                    insert.setString(3, flow.getKey().source());
                    insert.setString(4, flow.getKey().destination());
                    insert.setDouble(5, flow.getValue());
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
        if (!round.nics().isEmpty()) {
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO virtue_nic_rate (experiment, "
                    + "sampled_ms, vm, sent_bits_per_second, received_bits_per_second) VALUES (?, ?, ?, ?, ?)")) {
                for (Map.Entry<String, Round.Nic> nic : round.nics().entrySet()) {
                    key(insert, experiment, at);
                    insert.setString(3, nic.getKey());
                    insert.setDouble(4, nic.getValue().sentBitsPerSecond());
                    insert.setDouble(5, nic.getValue().receivedBitsPerSecond());
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
        if (!round.ports().isEmpty()) {
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO virtue_port_rate (experiment, "
                    + "sampled_ms, dpid, port_number, received_bits_per_second, transmitted_bits_per_second) "
                    + "VALUES (?, ?, ?, ?, ?, ?)")) {
                for (Map.Entry<Round.Port, Round.PortRate> port : round.ports().entrySet()) {
                    key(insert, experiment, at);
                    insert.setString(3, port.getKey().dpid());
                    insert.setLong(4, port.getKey().number());
                    insert.setDouble(5, port.getValue().receivedBitsPerSecond());
                    insert.setDouble(6, port.getValue().transmittedBitsPerSecond());
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
    }

    private static void insert(Connection connection, HostReport report) throws SQLException {
        long at = report.at().toEpochMilli();
        try (PreparedStatement delete = connection.prepareStatement(
                "DELETE FROM virtue_vm_metric WHERE experiment = ? AND reported_ms = ? AND vm = ?")) {
            key(delete, report.experiment(), at);
            delete.setString(3, report.vm());
            delete.executeUpdate();
        }
        Map<String, Double> metrics = report.storedMetrics();
        if (metrics.isEmpty()) {
            return;
        }
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO virtue_vm_metric "
                + "(experiment, reported_ms, vm, metric, metric_value) VALUES (?, ?, ?, ?, ?)")) {
            for (Map.Entry<String, Double> metric : metrics.entrySet()) {
                key(insert, report.experiment(), at);
                insert.setString(3, report.vm());
                insert.setString(4, metric.getKey());
                insert.setDouble(5, metric.getValue());
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static void key(PreparedStatement statement, String experiment, long at) throws SQLException {
        statement.setString(1, experiment);
        statement.setLong(2, at);
    }
}
