package io.heliograph.virtue.store;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where the measurement database is: a JDBC URL with its user and password, or, when the URL is empty,
 * the embedded H2 database in {@code <dataDir>/virtue/measurements} (files {@code measurements.mv.db}, ...).
 *
 * @param jdbcUrl  {@code jdbc:postgresql://host:port/db} or {@code jdbc:h2:...}; null or blank for the embedded default
 * @param user     the database user; null or blank for none (H2's default user)
 * @param password the user's password; null for none. Never shown by {@link #toString()}
 * @param dataDir  the controller's data directory, used only for the embedded default
 */
public record DatabaseSettings(String jdbcUrl, String user, String password, Path dataDir) {

    /** The embedded H2 database's files, relative to the data directory, without H2's suffix. */
    public static final String EMBEDDED_PATH = "virtue/measurements";

    public DatabaseSettings {
        jdbcUrl = jdbcUrl == null ? "" : jdbcUrl.strip();
        user = user == null ? "" : user.strip();
        password = password == null ? "" : password;
        if (jdbcUrl.isEmpty()) {
            Objects.requireNonNull(dataDir, "the data directory (the embedded database lives there when no JDBC URL is given)");
        }
    }

    /** The embedded default in {@code dataDir}. */
    public static DatabaseSettings embedded(Path dataDir) {
        return new DatabaseSettings("", "", "", dataDir);
    }

    public boolean isEmbedded() {
        return jdbcUrl.isEmpty();
    }

    /** The URL actually opened: the given one, or the embedded file database's. */
    public String effectiveUrl() {
        if (!isEmbedded()) {
            return jdbcUrl;
        }
        // The path is absolute: H2 refuses relative file paths that do not start with ./ or ~.
        return "jdbc:h2:file:" + dataDir.toAbsolutePath().resolve(EMBEDDED_PATH);
    }

    @Override
    public String toString() {
        return "DatabaseSettings[" + effectiveUrl() + (user.isEmpty() ? "" : " as " + user) + "]";
    }
}
