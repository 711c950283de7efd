package dev.baton.store.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/** Work done on a JDBC connection, inside or outside a transaction; see {@link Database}. */
@FunctionalInterface
public interface SqlWork<T> {
    T run(Connection c) throws SQLException;
}
