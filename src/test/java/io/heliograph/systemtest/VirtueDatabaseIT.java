package io.heliograph.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.heliograph.testbed.ArtifactDirectory;
import io.heliograph.testbed.ControllerProcess;
import io.heliograph.testbed.Poll;
import io.heliograph.testbed.PostgresServer;
import io.heliograph.virtue.store.DatabaseException;
import io.heliograph.virtue.store.DatabaseSettings;
import io.heliograph.virtue.store.ExperimentRow;
import io.heliograph.virtue.store.Experiments;
import io.heliograph.virtue.store.HostReport;
import io.heliograph.virtue.store.MetricSeries;
import io.heliograph.virtue.store.Migrations;
import io.heliograph.virtue.store.Queries;
import io.heliograph.virtue.store.Recorder;
import io.heliograph.virtue.store.Records;
import io.heliograph.virtue.store.Round;
import io.heliograph.virtue.store.VirtueDatabase;

/**
 * Virtue's measurement database (issue 22, "Database"): the same behaviour on the embedded H2 and on a real
 * PostgreSQL server, each a server of its own that the test stops and starts (PostgreSQL from Debian's
 * package, by pid; H2 as its TCP server in this JVM): records round trip, a database stopped while rounds
 * are submitted loses none of them, a database opened again (the app restarted) keeps everything.
 * Light (one PostgreSQL server, a few hundred rows): runs beside other classes.
 */
class VirtueDatabaseIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Recorder.Options QUICK_RETRY = Recorder.Options.defaults()
            .withRetry(Duration.ofMillis(100), Duration.ofSeconds(1));
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final AtomicInteger DATABASES = new AtomicInteger();

    private static PostgresServer postgres;

    @TempDir
    static Path h2Dir;

    @BeforeAll
    static void startPostgres() {
        postgres = PostgresServer.start(ArtifactDirectory.forTest("VirtueDatabaseIT").resolve("postgresql.log"));
    }

    @AfterAll
    static void stopPostgres() {
        if (postgres != null) {
            postgres.close();
        }
    }

    /** A fresh database on a server that can be stopped and started again. */
    private interface Server extends AutoCloseable {
        DatabaseSettings settings(String password);

        default DatabaseSettings settings() {
            return settings(password());
        }

        String password();

        void stop();

        void start();

        @Override
        void close();
    }

    private static Server server(String kind) {
        String name = "virtue_" + DATABASES.incrementAndGet();
        return switch (kind) {
            case "h2" -> new H2TcpServer(h2Dir, name);
            case "postgresql" -> {
                postgres.createDatabase(name);
                yield new Server() {
                    @Override
                    public DatabaseSettings settings(String password) {
                        return new DatabaseSettings(postgres.jdbcUrl(name), PostgresServer.USER, password, h2Dir);
                    }

                    @Override
                    public String password() {
                        return postgres.password();
                    }

                    @Override
                    public void stop() {
                        postgres.stop();
                    }

                    @Override
                    public void start() {
                        postgres.start();
                    }

                    @Override
                    public void close() {
                        if (!postgres.isRunning()) {
                            postgres.start();
                        }
                    }
                };
            }
            default -> throw new IllegalArgumentException(kind);
        };
    }

    /** H2's TCP server in this JVM, on a free port, its databases in {@code base}, made on first connection. */
    private static final class H2TcpServer implements Server {
        private final int port = ControllerProcess.freePort();
        private final Path base;
        private final String name;
        private final String password = UUID.randomUUID().toString();
        private org.h2.tools.Server server;

        H2TcpServer(Path base, String name) {
            this.base = base;
            this.name = name;
            start();
        }

        @Override
        public DatabaseSettings settings(String password) {
            return new DatabaseSettings("jdbc:h2:tcp://127.0.0.1:" + port + "/" + name, "virtue", password, base);
        }

        @Override
        public String password() {
            return password;
        }

        @Override
        public void stop() {
            server.stop();
        }

        @Override
        public void start() {
            try {
                server = org.h2.tools.Server.createTcpServer("-tcpPort", Integer.toString(port), "-baseDir",
                        base.toString(), "-ifNotExists").start();
            } catch (SQLException e) {
                throw new IllegalStateException("cannot start H2's TCP server on port " + port, e);
            }
        }

        @Override
        public void close() {
            server.stop();
        }
    }

    private static ExperimentRow experiment(String id) {
        return new ExperimentRow(id, "experiment " + id, "RUNNING", "{\"PMs\":[],\"VMs\":[]}", T0.minusSeconds(10),
                T0.minusSeconds(5), null);
    }

    private static Round round(String experiment, int i) {
        return new Round(experiment, T0.plusSeconds(5L * i),
                Map.of("00:00:00:00:00:00:00:01:1->00:00:00:00:00:00:00:02:1", 1e6 * i),
                Map.of(new Round.VmPair("vm0001", "vm0002"), 5e5 * i),
                Map.of("vm0001", new Round.Nic(5e5 * i, 0), "vm0002", new Round.Nic(0, 5e5 * i)),
                Map.of(new Round.Port("00:00:00:00:00:00:00:01", 1), new Round.PortRate(1e6 * i, 2e3)));
    }

    private static HostReport report(String experiment, int i) {
        return new HostReport(experiment, T0.plusSeconds(5L * i).plusMillis(7), "vm0001", 0.01 * i,
                Map.of("requests_per_second", 100.0 * i));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"h2", "postgresql"})
    void recordsRoundTripAndAnExperimentIsDeletedWithItsRows(String kind) {
        try (Server server = server(kind);
             VirtueDatabase database = VirtueDatabase.open(server.settings())) {
            Experiments experiments = new Experiments(database);
            Records records = new Records(database);
            Queries queries = new Queries(database);
            ExperimentRow e1 = experiment("e1");
            experiments.save(e1);
            experiments.save(experiment("e2").withEdf("{\"big\":\"" + "x".repeat(200_000) + "\"}"));
            for (int i = 1; i <= 3; i++) {
                records.write(round("e1", i));
                records.write(report("e1", i));
                records.write(round("e2", i));
            }
            records.write(List.of(round("e1", 2), report("e1", 2)));  // a retried batch: replaced, not duplicated

            assertEquals(Optional.of(e1), experiments.get("e1"));
            assertEquals(200_000 + 10, experiments.get("e2").orElseThrow().edf().length());
            assertEquals(List.of(round("e1", 1).at(), round("e1", 2).at(), round("e1", 3).at()), queries.times("e1"));
            assertEquals(Optional.of(round("e1", 2)), queries.roundAtOrBefore("e1", round("e1", 3).at().minusMillis(1)));
            List<MetricSeries> series = queries.series("e1", "vm0001", null, null);
            assertEquals(List.of("cpu", "requests_per_second"), series.stream().map(MetricSeries::metric).toList());
            assertEquals(3, series.get(0).points().size());
            assertEquals(report("e1", 3), queries.reportsAtOrBefore("e1", null).get("vm0001"));
            assertEquals(2e6, queries.averages("e1", null, null).links().values().iterator().next(), 1e-6);
            assertEquals(0.02, queries.averages("e1", null, null).cpu().get("vm0001"), 1e-9);

            assertTrue(experiments.delete("e2"));
            assertEquals(List.of(), queries.times("e2"));
            assertEquals(List.of("e1"), experiments.list().stream().map(ExperimentRow::id).toList());
            assertEquals(3, queries.summary("e1").rounds());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"h2", "postgresql"})
    void theDatabaseStoppedWhileRoundsAreSubmittedLosesNoRound(String kind) throws InterruptedException {
        try (Server server = server(kind);
             VirtueDatabase database = VirtueDatabase.open(server.settings())) {
            new Experiments(database).save(experiment("e1"));
            Queries queries = new Queries(database);
            List<Round> rounds = new ArrayList<>();
            try (Recorder recorder = new Recorder(new Records(database), QUICK_RETRY)) {
                for (int i = 0; i < 5; i++) {
                    rounds.add(round("e1", i));
                    recorder.submit(rounds.get(i));
                }
                assertTrue(recorder.awaitWritten(WAIT));

                server.stop();
                for (int i = 5; i < 25; i++) {
                    rounds.add(round("e1", i));
                    recorder.submit(rounds.get(i));
                    recorder.submit(report("e1", i));
                }
                Poll.until("the recorder to find the database down", WAIT, () -> !recorder.available());
                assertTrue(recorder.pending() > 0, "records wait for the database");
                assertFalse(database.ping());
                assertThrows(DatabaseException.class, () -> queries.times("e1"), "a read says the database failed");

                server.start();
                assertTrue(recorder.awaitWritten(WAIT), "everything written once the database is back: "
                        + recorder.status());
                assertTrue(recorder.available());
                assertEquals(0, recorder.dropped());
                assertEquals(0, recorder.rejected());
            }
            assertEquals(rounds.stream().map(Round::at).toList(), queries.times("e1"));
            for (Round round : rounds) {
                assertEquals(Optional.of(round), queries.roundAtOrBefore("e1", round.at()));
            }
            assertEquals(20, queries.series("e1", "vm0001", null, null).get(0).points().size());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"h2", "postgresql"})
    void aDatabaseOpenedAgainKeepsEverythingAndRecordsOn(String kind) throws Exception {
        try (Server server = server(kind)) {
            try (VirtueDatabase database = VirtueDatabase.open(server.settings());
                 Recorder recorder = new Recorder(new Records(database), QUICK_RETRY)) {
                new Experiments(database).save(experiment("e1"));
                for (int i = 0; i < 10; i++) {
                    recorder.submit(round("e1", i));
                    recorder.submit(report("e1", i));
                }
            }   // the app stopping: the recorder flushes, then the database closes
            try (VirtueDatabase database = VirtueDatabase.open(server.settings());
                 Recorder recorder = new Recorder(new Records(database), QUICK_RETRY)) {
                assertEquals(List.of(Migrations.bundled().latestVersion()), schemaVersions(database),
                        "opening again applied no migration twice");
                assertEquals(Optional.of(experiment("e1")), new Experiments(database).get("e1"));
                Queries queries = new Queries(database);
                assertEquals(10, queries.times("e1").size());
                assertEquals(Optional.of(round("e1", 9)), queries.latestRound("e1"));
                recorder.submit(round("e1", 10));
                assertTrue(recorder.awaitWritten(WAIT));
                assertEquals(11, queries.summary("e1").rounds());
                assertEquals(10, queries.series("e1", "vm0001", null, null).get(0).points().size());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"h2", "postgresql"})
    void wrongCredentialsAreRefusedSayingSo(String kind) {
        try (Server server = server(kind)) {
            VirtueDatabase.open(server.settings()).close();
            DatabaseException refused = assertThrows(DatabaseException.class,
                    () -> VirtueDatabase.open(server.settings("not the password")));
            assertTrue(refused.getMessage().contains(server.settings().effectiveUrl())
                    && refused.getMessage().contains("user name or password was refused"), refused.getMessage());
            assertFalse(refused.getMessage().contains("not the password"), refused.getMessage());
        }
    }

    private static List<Integer> schemaVersions(VirtueDatabase database) throws SQLException {
        return database.withConnection(connection -> {
            List<Integer> versions = new ArrayList<>();
            try (Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT version FROM " + Migrations.TABLE + " ORDER BY version")) {
                while (rows.next()) {
                    versions.add(rows.getInt(1));
                }
            }
            return versions;
        });
    }
}
