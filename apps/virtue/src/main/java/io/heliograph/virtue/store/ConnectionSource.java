package io.heliograph.virtue.store;

import java.sql.Connection;
import java.sql.SQLException;

/** Opens a new connection to the measurement database each time it is asked. */
@FunctionalInterface
public interface ConnectionSource {

    Connection connect() throws SQLException;
}
