package io.heliograph.virtue.store;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The measurement database: one connection, opened from {@link DatabaseSettings}, its schema brought up to
 * date by {@link Migrations} on opening, and opened again after a failure (a PostgreSQL server restarted, a
 * network cut): a call that finds the connection broken discards it and the next call connects anew.
 *
 * <p>The drivers are instantiated directly, not found through {@link java.sql.DriverManager}: in OSGi the
 * drivers are embedded in this bundle, and DriverManager only returns drivers visible from its caller's
 * class loader, which is not reliably this bundle's. Neither driver's own OSGi activator or
 * DataSourceFactory is used.
 *
 * <p>Calls are serialised on the one connection: the recorder's writes are short transactions and the
 * REST reads few, so a pool would only add threads and settings.
 */
public final class VirtueDatabase implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(VirtueDatabase.class);
    private static final String H2_PREFIX = "jdbc:h2:";
    private static final String POSTGRESQL_PREFIX = "jdbc:postgresql:";
    private static final Pattern PASSWORD_IN_URL = Pattern.compile("(?i)(password=)[^&;]*");
    private static final int VALID_TIMEOUT_SECONDS = 2;

    /** Work on the connection; a {@link SQLException} is the database's answer, passed on. */
    @FunctionalInterface
    public interface SqlWork<T> {
        T run(Connection connection) throws SQLException;
    }

    private final ConnectionSource source;
    private final String description;
    private final ReentrantLock lock = new ReentrantLock();
    private Connection connection;
    private boolean closed;

    private VirtueDatabase(ConnectionSource source, String description) {
        this.source = Objects.requireNonNull(source, "source");
        this.description = Objects.requireNonNull(description, "description");
    }

    /**
     * Opens the database {@code settings} name and migrates its schema to this code's version.
     *
     * @throws DatabaseException naming the URL and the problem: an unsupported URL, a server that does not
     *                           answer, wrong credentials, a schema this code cannot use
     */
    public static VirtueDatabase open(DatabaseSettings settings) {
        return open(connectionSource(settings), redact(settings.effectiveUrl())
                + (settings.user().isEmpty() ? "" : " as " + settings.user()));
    }

    /** Opens the database {@code source} connects to (described as {@code description} in messages) and migrates it. */
    public static VirtueDatabase open(ConnectionSource source, String description) {
        return open(source, description, Migrations.bundled());
    }

    static VirtueDatabase open(ConnectionSource source, String description, Migrations migrations) {
        VirtueDatabase database = new VirtueDatabase(source, description);
        try {
            int applied = database.withConnection(migrations::migrate);
            LOG.info("Virtue database {} opened at schema version {}{}", description, migrations.latestVersion(),
                    applied == 0 ? "" : " (" + applied + " migration(s) applied)");
            return database;
        } catch (SQLException e) {
            database.close();
            throw new DatabaseException("cannot open the Virtue database " + description + ": " + explain(e), e);
        } catch (DatabaseException e) {
            database.close();
            throw new DatabaseException("cannot open the Virtue database " + description + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
    }

    /**
     * Connections to the URL of {@code settings} through the driver its prefix names: {@code jdbc:h2:} or
     * {@code jdbc:postgresql:}; any other URL is refused here, before anything connects.
     */
    static ConnectionSource connectionSource(DatabaseSettings settings) {
        String url = settings.isEmbedded()
                // Closed by close(), not by H2's shutdown hook: the hook would outlive an updated bundle.
                ? settings.effectiveUrl() + ";DB_CLOSE_ON_EXIT=FALSE"
                : settings.effectiveUrl();
        Driver driver;
        String name;
        Properties properties = new Properties();
        if (url.startsWith(H2_PREFIX)) {
            driver = new org.h2.Driver();
            name = "H2";
        } else if (url.startsWith(POSTGRESQL_PREFIX)) {
            driver = new org.postgresql.Driver();
            name = "PostgreSQL";
            // Defaults that the URL's own parameters override: a server that is down is found out in
            // seconds, and one that vanished mid-query does not hold the writer forever.
            properties.setProperty("connectTimeout", "5");
            properties.setProperty("socketTimeout", "60");
            properties.setProperty("ApplicationName", "heliograph-virtue");
        } else {
            throw new DatabaseException("unsupported JDBC URL " + redact(url)
                    + ": the Virtue database is H2 (jdbc:h2:...) or PostgreSQL (jdbc:postgresql://host:port/database),"
                    + " or leave the URL empty for the embedded H2 database in the data directory");
        }
        if (!settings.user().isEmpty()) {
            properties.setProperty("user", settings.user());
        }
        if (!settings.password().isEmpty()) {
            properties.setProperty("password", settings.password());
        }
        return () -> {
            Connection connection = driver.connect(url, properties);
            if (connection == null) {
                throw new SQLException("the " + name + " driver does not accept the URL " + redact(url), "08001");
            }
            return connection;
        };
    }

    /** The URL (without any password it carries) and user, as messages name the database. */
    public String description() {
        return description;
    }

    /**
     * Runs {@code work} on the connection in auto-commit mode, connecting first if there is no working
     * connection. If the connection turns out broken the work is tried once more on a new one.
     */
    public <T> T withConnection(SqlWork<T> work) throws SQLException {
        lock.lock();
        try {
            boolean fresh = connection == null;
            try {
                return work.run(connection());
            } catch (SQLException e) {
                if (!discardIfBroken(e) || fresh) {
                    throw e;
                }
                // A connection that worked before and broke since (a server restart): once more, anew.
                LOG.debug("Virtue database {}: connection broken ({}), connecting again", description, e.getMessage());
            }
            try {
                return work.run(connection());
            } catch (SQLException e) {
                discardIfBroken(e);
                throw e;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Runs {@code work} in one transaction: committed when it returns, rolled back when it throws. */
    public <T> T inTransaction(SqlWork<T> work) throws SQLException {
        return withConnection(connection -> {
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(connection, e);
                throw e;
            } finally {
                try {
                    connection.setAutoCommit(true);
                } catch (SQLException ignored) {
                    // a broken connection is discarded by withConnection
                }
            }
        });
    }

    /** Whether the database answers now (connecting if needed). */
    public boolean ping() {
        try {
            return withConnection(connection -> connection.isValid(VALID_TIMEOUT_SECONDS));
        } catch (SQLException e) {
            return false;
        }
    }

    /** A {@link DatabaseException} for {@code e} while {@code doing}, naming this database. */
    DatabaseException failure(String doing, SQLException e) {
        return new DatabaseException("Virtue database " + description + ": " + doing + " failed: " + explain(e), e);
    }

    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            closeConnection();
        } finally {
            lock.unlock();
        }
    }

    private Connection connection() throws SQLException {
        if (closed) {
            throw new SQLException("the Virtue database " + description + " is closed", "08003");
        }
        if (connection == null) {
            connection = source.connect();
        }
        return connection;
    }

    /** Drops the connection if {@code e} broke it; true when it did. */
    private boolean discardIfBroken(SQLException e) {
        if (connection == null) {
            return true;
        }
        boolean broken = isConnectionFailure(e);
        if (!broken) {
            try {
                broken = !connection.isValid(VALID_TIMEOUT_SECONDS);
            } catch (SQLException invalid) {
                broken = true;
            }
        }
        if (broken) {
            closeConnection();
        }
        return broken;
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.debug("Virtue database {}: closing the connection failed: {}", description, e.getMessage());
            }
            connection = null;
        }
    }

    private static void rollbackQuietly(Connection connection, Exception cause) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    /** Class 08 (connection exception) and the drivers' recoverable failures: the connection is gone. */
    static boolean isConnectionFailure(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLNonTransientConnectionException || t instanceof SQLRecoverableException) {
                return true;
            }
            if (t instanceof SQLException s && s.getSQLState() != null && s.getSQLState().startsWith("08")) {
                return true;
            }
        }
        return false;
    }

    /** The driver's message with what it means for whoever configured the URL. */
    static String explain(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String message = e.getMessage();
        if (state.startsWith("28")) {
            return "the user name or password was refused (" + message + ")";
        }
        if (state.equals("3D000")) {
            return "the database does not exist (" + message + ")";
        }
        if (state.startsWith("08")) {
            return "cannot connect (" + message + ")";
        }
        return message;
    }

    static String redact(String url) {
        return PASSWORD_IN_URL.matcher(url).replaceAll("$1***");
    }

    @Override
    public String toString() {
        return "VirtueDatabase[" + description + "]";
    }
}
