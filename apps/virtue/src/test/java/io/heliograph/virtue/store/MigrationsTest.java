package io.heliograph.virtue.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MigrationsTest {

    @TempDir
    Path dir;

    private ConnectionSource h2() {
        return VirtueDatabase.connectionSource(DatabaseSettings.embedded(dir));
    }

    @Test
    void aFreshDatabaseGetsEveryScriptOnceAndReopeningAppliesNothing() throws SQLException {
        Migrations bundled = Migrations.bundled();
        try (Connection connection = h2().connect()) {
            assertEquals(bundled.latestVersion(), bundled.migrate(connection));
            assertEquals(List.of("1 measurements " + bundled.scripts().get(0).checksum()), versions(connection));
            assertEquals(0, bundled.migrate(connection), "a second migration applies nothing");
        }
        // Reopened (a restart): still one row a version, nothing applied again; the tables are there.
        try (Connection connection = h2().connect()) {
            assertEquals(0, bundled.migrate(connection));
            assertEquals(1, versions(connection).size());
            try (Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM virtue_round")) {
                rows.next();
                assertEquals(0, rows.getInt(1));
            }
        }
    }

    @Test
    void aScriptChangedAfterItWasAppliedIsRefusedNamingItsVersion() throws SQLException {
        try (Connection connection = h2().connect()) {
            Migrations.bundled().migrate(connection);
        }
        Migrations.Script v1 = Migrations.bundled().scripts().get(0);
        Migrations changed = new Migrations(List.of(new Migrations.Script(1, v1.description(), v1.sql() + "\n-- edited\n")));
        try (Connection connection = h2().connect()) {
            DatabaseException refused = assertThrows(DatabaseException.class, () -> changed.migrate(connection));
            assertTrue(refused.getMessage().contains("V1 (measurements)") && refused.getMessage().contains(v1.checksum())
                    && refused.getMessage().contains("changed"), refused.getMessage());
        }
        // And through VirtueDatabase.open, which names the database as well.
        DatabaseException refused = assertThrows(DatabaseException.class,
                () -> VirtueDatabase.open(h2(), "the test database", changed));
        assertTrue(refused.getMessage().contains("the test database"), refused.getMessage());
    }

    @Test
    void aDatabaseNewerThanTheCodeIsRefusedNamingBothVersions() throws SQLException {
        Migrations.Script v1 = Migrations.bundled().scripts().get(0);
        Migrations newer = new Migrations(List.of(v1,
                new Migrations.Script(2, "later things", "CREATE TABLE virtue_later (id INTEGER NOT NULL PRIMARY KEY);")));
        try (Connection connection = h2().connect()) {
            assertEquals(2, newer.migrate(connection));
        }
        DatabaseException refused = assertThrows(DatabaseException.class,
                () -> VirtueDatabase.open(DatabaseSettings.embedded(dir)));
        assertTrue(refused.getMessage().contains("at version 2 (later things)")
                && refused.getMessage().contains("versions up to 1"), refused.getMessage());
    }

    @Test
    void aFailingScriptIsNotRecordedAndTheErrorNamesIt() throws SQLException {
        Migrations.Script v1 = Migrations.bundled().scripts().get(0);
        Migrations broken = new Migrations(List.of(v1,
                new Migrations.Script(2, "broken", "CREATE TABLE virtue_ok (id INTEGER);\nCREATE TABLE nonsense nonsense;")));
        try (Connection connection = h2().connect()) {
            DatabaseException failed = assertThrows(DatabaseException.class, () -> broken.migrate(connection));
            assertTrue(failed.getMessage().contains("V2 (broken)") && failed.getMessage().contains("statement 2 of 2"),
                    failed.getMessage());
            assertEquals(1, versions(connection).size(), "V1 applied, V2 not recorded");
        }
    }

    @Test
    void scriptsMustBeNumberedFromOneInOrder() {
        assertThrows(IllegalArgumentException.class,
                () -> new Migrations(List.of(new Migrations.Script(2, "two", "SELECT 1"))));
    }

    @Test
    void everyScriptInTheFolderIsListed() throws IOException {
        // The runner does not list its folder (a class loader cannot): this test does, from the sources.
        Path folder = Path.of("src/main/resources", Migrations.FOLDER);
        List<String> files = new ArrayList<>();
        try (Stream<Path> paths = Files.list(folder)) {
            paths.map(p -> p.getFileName().toString()).sorted().forEach(files::add);
        }
        List<String> listed = new ArrayList<>(Migrations.SCRIPTS);
        listed.sort(null);
        assertEquals(files, listed);
    }

    @Test
    void statementsSplitAtSemicolonsOutsideStringsWithoutComments() {
        assertEquals(List.of("CREATE TABLE a (x VARCHAR(3) DEFAULT ';')", "INSERT INTO a VALUES ('it''s; -- not a comment')"),
                Migrations.statements("-- a comment; with a semicolon\nCREATE TABLE a (x VARCHAR(3) DEFAULT ';'); -- trailing\n"
                        + "INSERT INTO a VALUES ('it''s; -- not a comment');\n\n"));
    }

    private static List<String> versions(Connection connection) throws SQLException {
        List<String> versions = new ArrayList<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT version, description, checksum, applied_at FROM "
                     + Migrations.TABLE + " ORDER BY version")) {
            while (rows.next()) {
                assertTrue(rows.getObject(4) != null);
                versions.add(rows.getInt(1) + " " + rows.getString(2) + " " + rows.getString(3));
            }
        }
        return versions;
    }
}
