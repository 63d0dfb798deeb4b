package io.heliograph.virtue.store;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A connection source that can be taken down on purpose: while down, connecting fails and every call on a
 * connection it gave (but close and isValid) fails as a dropped connection does (SQL state 08006).
 */
final class FlakySource implements ConnectionSource {

    private final ConnectionSource real;
    private volatile boolean down;
    final AtomicInteger connects = new AtomicInteger();
    final AtomicInteger refused = new AtomicInteger();

    FlakySource(ConnectionSource real) {
        this.real = real;
    }

    void down() {
        down = true;
    }

    void up() {
        down = false;
    }

    @Override
    public Connection connect() throws SQLException {
        if (down) {
            refused.incrementAndGet();
            throw new SQLException("connection refused (test: the database is down)", "08001");
        }
        connects.incrementAndGet();
        Connection connection = real.connect();
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (down) {
                        switch (method.getName()) {
                            case "close":
                                connection.close();
                                return null;
                            case "isValid":
                                return false;
                            default:
                                throw new SQLException("connection lost (test: the database is down)", "08006");
                        }
                    }
                    try {
                        return method.invoke(connection, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
