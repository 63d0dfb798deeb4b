package io.heliograph.virtue.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The experiments table: save (insert or update), get, list, delete with every row recorded for it. */
public final class Experiments {

    private static final String COLUMNS = "id, name, state, edf, created_ms, started_ms, stopped_ms";

    private final VirtueDatabase database;

    public Experiments(VirtueDatabase database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /** Inserts {@code experiment}, or replaces the stored one with the same id. */
    public void save(ExperimentRow experiment) {
        try {
            database.inTransaction(connection -> {
                upsert(connection, experiment);
                return null;
            });
        } catch (SQLException e) {
            throw database.failure("saving experiment " + experiment.id(), e);
        }
    }

    /** UPDATE then INSERT: the one upsert H2 and PostgreSQL both take (no MERGE, no ON CONFLICT). */
    static void upsert(Connection connection, ExperimentRow experiment) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement("UPDATE virtue_experiment SET "
                + "name = ?, state = ?, edf = ?, created_ms = ?, started_ms = ?, stopped_ms = ? WHERE id = ?")) {
            bind(update, 1, experiment);
            update.setString(7, experiment.id());
            if (update.executeUpdate() > 0) {
                return;
            }
        }
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO virtue_experiment (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?)")) {
            insert.setString(1, experiment.id());
            bind(insert, 2, experiment);
            insert.executeUpdate();
        }
    }

    public Optional<ExperimentRow> get(String id) {
        try {
            return database.withConnection(connection -> {
                try (PreparedStatement select = connection.prepareStatement(
                        "SELECT " + COLUMNS + " FROM virtue_experiment WHERE id = ?")) {
                    select.setString(1, id);
                    try (ResultSet rows = select.executeQuery()) {
                        return rows.next() ? Optional.of(read(rows)) : Optional.<ExperimentRow>empty();
                    }
                }
            });
        } catch (SQLException e) {
            throw database.failure("reading experiment " + id, e);
        }
    }

    /** Every experiment, oldest first. */
    public List<ExperimentRow> list() {
        try {
            return database.withConnection(connection -> {
                List<ExperimentRow> experiments = new ArrayList<>();
                try (PreparedStatement select = connection.prepareStatement(
                        "SELECT " + COLUMNS + " FROM virtue_experiment ORDER BY created_ms, id");
                     ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        experiments.add(read(rows));
                    }
                }
                return experiments;
            });
        } catch (SQLException e) {
            throw database.failure("listing experiments", e);
        }
    }

    /** Deletes the experiment and every round and report recorded for it; false when there was none. */
    public boolean delete(String id) {
        try {
            return database.inTransaction(connection -> {
                try (PreparedStatement delete = connection.prepareStatement("DELETE FROM virtue_experiment WHERE id = ?")) {
                    delete.setString(1, id);
                    return delete.executeUpdate() > 0;
                }
            });
        } catch (SQLException e) {
            throw database.failure("deleting experiment " + id, e);
        }
    }

    private static void bind(PreparedStatement statement, int first, ExperimentRow experiment) throws SQLException {
        statement.setString(first, experiment.name());
        statement.setString(first + 1, experiment.state());
        statement.setString(first + 2, experiment.edf());
        statement.setLong(first + 3, experiment.created().toEpochMilli());
        setInstant(statement, first + 4, experiment.started());
        setInstant(statement, first + 5, experiment.stopped());
    }

    private static void setInstant(PreparedStatement statement, int index, Instant at) throws SQLException {
        if (at == null) {
            statement.setNull(index, Types.BIGINT);
        } else {
            statement.setLong(index, at.toEpochMilli());
        }
    }

    private static ExperimentRow read(ResultSet rows) throws SQLException {
        return new ExperimentRow(rows.getString(1), rows.getString(2), rows.getString(3), rows.getString(4),
                Instant.ofEpochMilli(rows.getLong(5)), instant(rows, 6), instant(rows, 7));
    }

    static Instant instant(ResultSet rows, int column) throws SQLException {
        long millis = rows.getLong(column);
        return rows.wasNull() ? null : Instant.ofEpochMilli(millis);
    }
}
