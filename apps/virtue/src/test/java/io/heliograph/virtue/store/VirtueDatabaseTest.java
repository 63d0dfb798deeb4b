package io.heliograph.virtue.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VirtueDatabaseTest {

    @TempDir
    Path dir;

    @Test
    void theEmbeddedDefaultLivesInTheDataDirectory() {
        try (VirtueDatabase database = VirtueDatabase.open(new DatabaseSettings(null, null, null, dir))) {
            assertTrue(database.ping());
            assertTrue(database.description().startsWith("jdbc:h2:file:" + dir.toAbsolutePath()), database.description());
        }
        assertTrue(Files.exists(dir.resolve("virtue/measurements.mv.db")));
    }

    @Test
    void anUnsupportedUrlIsRefusedNamingIt() {
        DatabaseException refused = assertThrows(DatabaseException.class,
                () -> VirtueDatabase.open(new DatabaseSettings("jdbc:mysql://db:3306/virtue", "u", "p", dir)));
        assertTrue(refused.getMessage().contains("unsupported JDBC URL jdbc:mysql://db:3306/virtue")
                && refused.getMessage().contains("jdbc:postgresql:"), refused.getMessage());
    }

    @Test
    void wrongCredentialsAreRefusedSayingSo() {
        VirtueDatabase.open(DatabaseSettings.embedded(dir)).close();
        String url = DatabaseSettings.embedded(dir).effectiveUrl();
        DatabaseException refused = assertThrows(DatabaseException.class,
                () -> VirtueDatabase.open(new DatabaseSettings(url, "intruder", "guess", dir)));
        assertTrue(refused.getMessage().contains(url) && refused.getMessage().contains("as intruder")
                && refused.getMessage().contains("user name or password was refused"), refused.getMessage());
        assertFalse(refused.getMessage().contains("guess"), "never the password: " + refused.getMessage());
    }

    @Test
    void aServerThatDoesNotAnswerIsNamed() {
        // Port 1 on loopback: nothing listens, the connection is refused at once.
        DatabaseException refused = assertThrows(DatabaseException.class,
                () -> VirtueDatabase.open(new DatabaseSettings("jdbc:postgresql://127.0.0.1:1/virtue?password=secret",
                        "virtue", "", dir)));
        assertTrue(refused.getMessage().contains("jdbc:postgresql://127.0.0.1:1/virtue?password=***")
                && refused.getMessage().contains("cannot connect"), refused.getMessage());
        assertFalse(refused.getMessage().contains("secret"), refused.getMessage());
    }

    @Test
    void aBrokenConnectionIsReplacedOnTheNextCall() throws Exception {
        try (StoreFixture store = StoreFixture.open(dir)) {
            store.experiments.save(StoreFixture.experiment("e1"));
            assertEquals(1, store.source.connects.get());
            store.source.down();
            assertThrows(DatabaseException.class, () -> store.experiments.list());
            assertFalse(store.database.ping());
            store.source.up();
            assertEquals(1, store.experiments.list().size());
            assertEquals(2, store.source.connects.get(), "one new connection after the outage");
        }
    }

    @Test
    void aClosedDatabaseSaysSo() {
        StoreFixture store = StoreFixture.open(dir);
        store.close();
        DatabaseException closed = assertThrows(DatabaseException.class, () -> store.experiments.list());
        assertTrue(closed.getMessage().contains("is closed"), closed.getMessage());
    }
}
