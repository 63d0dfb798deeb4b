package io.heliograph.virtue.store;

/**
 * The measurement database failed or refused: unreachable, bad credentials, an unknown URL, a schema it
 * cannot use. The message says which, naming the URL (never the password) or the schema versions; the
 * cause, where there is one, is the driver's {@link java.sql.SQLException}.
 */
public class DatabaseException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public DatabaseException(String message) {
        super(message);
    }

    public DatabaseException(String message, Throwable cause) {
        super(message, cause);
    }
}
