package io.heliograph.virtue.store;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

/** A database in a temporary directory with the stores on it, and sample records. */
final class StoreFixture implements AutoCloseable {

    static final Instant T0 = Instant.parse("2026-11-29T10:00:00.123Z");

    final FlakySource source;
    final VirtueDatabase database;
    final Experiments experiments;
    final Records records;
    final Queries queries;

    private StoreFixture(FlakySource source, VirtueDatabase database) {
        this.source = source;
        this.database = database;
        this.experiments = new Experiments(database);
        this.records = new Records(database);
        this.queries = new Queries(database);
    }

    /** The embedded H2 database of data directory {@code dir}, through a source the test can take down. */
    static StoreFixture open(Path dir) {
        FlakySource source = new FlakySource(VirtueDatabase.connectionSource(DatabaseSettings.embedded(dir)));
        return new StoreFixture(source, VirtueDatabase.open(source, "test H2 in " + dir));
    }

    static ExperimentRow experiment(String id) {
        return new ExperimentRow(id, "name of " + id, "CREATED", "{\"PMs\":[]}", T0.minusSeconds(60), null, null);
    }

    /** Round {@code i} of {@code experiment}: at T0 + 5 i s, rates that grow with i. */
    static Round round(String experiment, int i) {
        return new Round(experiment, T0.plusSeconds(5L * i),
                Map.of("00:01:1->00:02:1", 1000.0 * i, "00:02:1->00:01:1", 10.0 * i),
                Map.of(new Round.VmPair("vm0001", "vm0002"), 500.0 * i, new Round.VmPair("vm0002", "vm0001"), 1.5),
                Map.of("vm0001", new Round.Nic(500.0 * i, 1.5), "vm0002", new Round.Nic(1.5, 500.0 * i)),
                Map.of(new Round.Port("00:00:00:00:00:00:00:01", 4_294_967_040L), new Round.PortRate(1.0 * i, 2.0 * i)));
    }

    @Override
    public void close() {
        database.close();
    }
}
