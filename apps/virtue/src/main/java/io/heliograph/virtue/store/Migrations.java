package io.heliograph.virtue.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Brings the measurement database's schema to this code's version: the versioned SQL scripts
 * {@code migrations/V1__measurements.sql}, {@code V2__...}, applied in order, each once, each in one
 * transaction, recorded in {@value #TABLE} with a checksum of its text.
 *
 * <p>A database an applied script of which has changed since (another build's V1) is refused, and so is a
 * database whose schema is newer than this code (written by a later Virtue): the message names the versions.
 * Neither is repaired: the data belongs to whoever wrote it.
 *
 * <p>Why not Flyway or Liquibase: both find their scripts by scanning the class path, which in OSGi means
 * bundle-specific scanners and fragments (Flyway's OSGi support needs its own resolver; Liquibase's
 * pulls in its service loader machinery), they bring 1 to 3 MB and a dozen optional dependencies to import
 * or exclude, and what Virtue needs is a few forward-only scripts on two databases. This runner is a page
 * of code with no class-path scanning: the scripts are named in {@link #SCRIPTS}. A class loader cannot
 * list a folder, and probing V1, V2, ... by name cannot find a file whose name carries its description; a
 * unit test checks that {@link #SCRIPTS} names every script of the folder, so none is forgotten.
 *
 * <p>Scripts use SQL that H2 2.x and PostgreSQL both take: VARCHAR(n), INTEGER, BIGINT, DOUBLE PRECISION,
 * TEXT; no keyword (VALUE, KEY, ...) as a column name. H2 commits DDL as it runs it, so there a script that
 * fails halfway is not undone; on PostgreSQL it is.
 */
public final class Migrations {

    public static final String TABLE = "virtue_schema_version";
    /** Where the bundled scripts are, as a class-loader resource path. */
    static final String FOLDER = "io/heliograph/virtue/store/migrations/";
    /** The bundled scripts, oldest first; their versions are 1, 2, ... in this order. */
    static final List<String> SCRIPTS = List.of(
            "V1__measurements.sql");

    private static final Pattern NAME = Pattern.compile("V([1-9][0-9]*)__([A-Za-z0-9_]+)\\.sql");

    /** One script: its version, its description (from its name) and its text. */
    public record Script(int version, String description, String sql) {

        public Script {
            Objects.requireNonNull(description, "description");
            Objects.requireNonNull(sql, "sql");
            sql = sql.replace("\r\n", "\n");
        }

        /** SHA-256 of the text (line ends normalised), hex. */
        public String checksum() {
            try {
                return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                        .digest(sql.getBytes(StandardCharsets.UTF_8)));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every JDK has SHA-256", e);
            }
        }

        String label() {
            return "V" + version + " (" + description + ")";
        }
    }

    private record Applied(int version, String description, String checksum) {
    }

    private final List<Script> scripts;

    /** These scripts, which must be versions 1, 2, ... in order. */
    public Migrations(List<Script> scripts) {
        this.scripts = List.copyOf(scripts);
        for (int i = 0; i < this.scripts.size(); i++) {
            if (this.scripts.get(i).version() != i + 1) {
                throw new IllegalArgumentException("migration scripts must be versions 1, 2, ... in order; script "
                        + (i + 1) + " is " + this.scripts.get(i).label());
            }
        }
    }

    /** The scripts bundled with this code. */
    public static Migrations bundled() {
        List<Script> scripts = new ArrayList<>();
        for (String name : SCRIPTS) {
            scripts.add(load(name));
        }
        return new Migrations(scripts);
    }

    static Script load(String name) {
        Matcher matcher = NAME.matcher(name);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("a migration script is named V<version>__<description>.sql, not " + name);
        }
        try (InputStream in = Migrations.class.getClassLoader().getResourceAsStream(FOLDER + name)) {
            if (in == null) {
                throw new IllegalStateException("the migration script " + FOLDER + name + " is missing from the bundle");
            }
            return new Script(Integer.parseInt(matcher.group(1)), matcher.group(2).replace('_', ' '),
                    new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the migration script " + FOLDER + name, e);
        }
    }

    public List<Script> scripts() {
        return scripts;
    }

    /** The schema version these scripts make: the last script's. */
    public int latestVersion() {
        return scripts.size();
    }

    /**
     * Applies the scripts {@code connection}'s database lacks, each in its own transaction; returns how many.
     * Several instances may migrate one PostgreSQL database at once: a script that fails because another
     * has just applied it counts as applied (its checksum is checked like any other).
     *
     * @throws DatabaseException when an applied script has changed, when the database is newer than this
     *                           code, or when a script fails (naming it)
     * @throws SQLException      when the database fails otherwise (unreachable, ...)
     */
    public int migrate(Connection connection) throws SQLException {
        createVersionTable(connection);
        TreeMap<Integer, Applied> applied = applied(connection);
        if (!applied.isEmpty()) {
            int newest = applied.lastKey();
            if (newest > latestVersion()) {
                Applied a = applied.get(newest);
                throw new DatabaseException("the database's schema is at version " + newest + " (" + a.description()
                        + ") but this code knows versions up to " + latestVersion()
                        + ": a newer Virtue wrote it; use that version, or another database");
            }
        }
        int count = 0;
        for (Script script : scripts) {
            Applied done = applied.get(script.version());
            if (done != null) {
                requireSameChecksum(script, done);
                continue;
            }
            try {
                apply(connection, script);
                count++;
            } catch (SQLException e) {
                Applied meanwhile = applied(connection).get(script.version());
                if (meanwhile == null) {
                    throw new DatabaseException("migration " + script.label() + " failed: " + e.getMessage(), e);
                }
                requireSameChecksum(script, meanwhile);
            }
        }
        return count;
    }

    private static void requireSameChecksum(Script script, Applied applied) {
        if (!applied.checksum().equals(script.checksum())) {
            throw new DatabaseException("migration " + script.label() + " was applied to this database with checksum "
                    + applied.checksum() + " (" + applied.description() + ") but this code's script has checksum "
                    + script.checksum() + ": the script changed after it was applied; refusing to use the database");
        }
    }

    private static void createVersionTable(Connection connection) throws SQLException {
        String ddl = "CREATE TABLE IF NOT EXISTS " + TABLE + " ("
                + "version INTEGER NOT NULL PRIMARY KEY, "
                + "description VARCHAR(200) NOT NULL, "
                + "checksum VARCHAR(64) NOT NULL, "
                + "applied_at TIMESTAMP WITH TIME ZONE NOT NULL)";
        try (Statement statement = connection.createStatement()) {
            statement.execute(ddl);
        } catch (SQLException e) {
            // Two instances creating it at once on PostgreSQL: one of them fails on the catalog; it exists now.
            try (Statement statement = connection.createStatement()) {
                statement.execute(ddl);
            } catch (SQLException again) {
                again.addSuppressed(e);
                throw again;
            }
        }
    }

    private static TreeMap<Integer, Applied> applied(Connection connection) throws SQLException {
        TreeMap<Integer, Applied> applied = new TreeMap<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT version, description, checksum FROM " + TABLE)) {
            while (rows.next()) {
                applied.put(rows.getInt(1), new Applied(rows.getInt(1), rows.getString(2), rows.getString(3)));
            }
        }
        return applied;
    }

    private static void apply(Connection connection, Script script) throws SQLException {
        connection.setAutoCommit(false);
        try {
            List<String> statements = statements(script.sql());
            try (Statement statement = connection.createStatement()) {
                for (int i = 0; i < statements.size(); i++) {
                    try {
                        statement.execute(statements.get(i));
                    } catch (SQLException e) {
                        throw new SQLException("statement " + (i + 1) + " of " + statements.size() + ": "
                                + e.getMessage(), e.getSQLState(), e.getErrorCode(), e);
                    }
                }
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + TABLE
                    + " (version, description, checksum, applied_at) VALUES (?, ?, ?, CURRENT_TIMESTAMP)")) {
                insert.setInt(1, script.version());
                insert.setString(2, script.description());
                insert.setString(3, script.checksum());
                insert.executeUpdate();
            }
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            try {
                connection.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    /**
     * The statements of a script: split at semicolons outside single-quoted strings, with {@code --}
     * comments dropped. (No dollar quoting or procedural blocks: the scripts are plain DDL.)
     */
    static List<String> statements(String sql) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (!quoted && c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? sql.length() : end;
                current.append('\n');
            } else if (!quoted && c == ';') {
                add(statements, current);
            } else {
                if (c == '\'') {
                    quoted = !quoted;
                }
                current.append(c);
            }
        }
        add(statements, current);
        return statements;
    }

    private static void add(List<String> statements, StringBuilder current) {
        String statement = current.toString().strip();
        if (!statement.isEmpty()) {
            statements.add(statement);
        }
        current.setLength(0);
    }
}
