package dev.baton.store.jdbc;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.slf4j.LoggerFactory;

/**
 * SQLite connections that keep their prepared statements: {@code prepareStatement(sql)} hands out the statement the
 * connection prepared for that text before, and closing it returns it, reset, instead of finalising it.
 *
 * <p>The SQLite driver compiles every statement afresh and HikariCP keeps no statement cache on purpose, so a turn
 * compiled each of its ~20 statements on every turn: {@code sqlite3_prepare} was about a sixth of SQLite's CPU per turn.
 * A statement goes back to the cache only if it was used in the ways that leave nothing behind once its result set
 * is closed and its parameters cleared (binding, {@code executeQuery}, {@code executeUpdate}, batches); any other
 * use, or a failure while resetting it, closes it for real. An open result set is closed on return, which resets
 * the statement, so an idle statement never holds a read transaction open (it would pin the WAL and block
 * checkpoints). Each connection keeps at most {@link #PER_CONNECTION} statements, the least recently used go first,
 * and closing the connection closes them all.
 *
 * <p>Each execution is logged at TRACE on this class's logger with its SQL: with statements compiled once, the
 * driver's own trace of compilations no longer counts what runs (baton-bench counts a turn's statements from this).
 */
final class StatementCachingDataSource implements DataSource {
    static final int PER_CONNECTION = 128;

    private static final org.slf4j.Logger executions = LoggerFactory.getLogger(StatementCachingDataSource.class);

    private static final Set<String> EXECUTIONS =
            Set.of("executeQuery", "executeUpdate", "executeLargeUpdate", "executeBatch", "executeLargeBatch");

    /** What a cached statement may be asked, besides executing and binding, without spoiling its reuse. */
    private static final Set<String> HARMLESS_USES = Set.of(
            "addBatch",
            "clearBatch",
            "clearParameters",
            "getUpdateCount",
            "getLargeUpdateCount",
            "getParameterMetaData",
            "getMetaData",
            "unwrap",
            "isWrapperFor");

    private final DataSource target;

    StatementCachingDataSource(DataSource target) {
        this.target = target;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return cachingConnection(target.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return cachingConnection(target.getConnection(username, password));
    }

    private static Connection cachingConnection(Connection connection) {
        return (Connection) Proxy.newProxyInstance(
                StatementCachingDataSource.class.getClassLoader(),
                new Class<?>[] {Connection.class},
                new CachingConnection(connection));
    }

    /** One physical connection and the statements it prepared, idle ones keyed by their SQL. */
    private static final class CachingConnection implements InvocationHandler {
        private final Connection connection;
        private final LinkedHashMap<String, PreparedStatement> idle = new LinkedHashMap<>(32, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
                if (size() <= PER_CONNECTION) return false;
                closeQuietly(eldest.getValue());
                return true;
            }
        };

        CachingConnection(Connection connection) {
            this.connection = connection;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            if (name.equals("prepareStatement") && args.length == 1)
                return prepare((Connection) proxy, (String) args[0]);
            if (name.equals("close") || name.equals("abort")) closeIdle();
            if (name.equals("unwrap") && ((Class<?>) args[0]).isInstance(proxy)) return proxy;
            return invokeOn(connection, method, args);
        }

        private PreparedStatement prepare(Connection proxy, String sql) throws SQLException {
            PreparedStatement statement;
            synchronized (idle) {
                statement = idle.remove(sql);
            }
            if (statement == null || statement.isClosed()) statement = connection.prepareStatement(sql);
            return (PreparedStatement) Proxy.newProxyInstance(
                    StatementCachingDataSource.class.getClassLoader(),
                    new Class<?>[] {PreparedStatement.class},
                    new Lease(this, proxy, sql, statement));
        }

        /** Takes a statement back, or closes it when it cannot be reused or another one for its SQL came back first. */
        void giveBack(String sql, PreparedStatement statement, ResultSet open, boolean reusable) {
            if (reusable) {
                try {
                    if (open != null) open.close(); // resets the statement: it no longer holds a read transaction
                    statement.clearParameters();
                    statement.clearBatch();
                } catch (SQLException e) {
                    reusable = false;
                }
            }
            if (reusable) {
                synchronized (idle) {
                    if (!idle.containsKey(sql)) {
                        idle.put(sql, statement);
                        return;
                    }
                }
            }
            closeQuietly(statement);
        }

        private void closeIdle() {
            synchronized (idle) {
                idle.values().forEach(CachingConnection::closeQuietly);
                idle.clear();
            }
        }

        private static void closeQuietly(PreparedStatement statement) {
            try {
                statement.close();
            } catch (SQLException ignored) {
                // the connection is going away or the statement was already unusable: nothing to keep
            }
        }
    }

    /** One use of a cached statement: closing it gives it back to its connection. */
    private static final class Lease implements InvocationHandler {
        private final CachingConnection owner;
        private final Connection connectionProxy;
        private final String sql;
        private final PreparedStatement statement;
        private ResultSet open;
        private boolean reusable = true;
        private boolean returned;

        Lease(CachingConnection owner, Connection connectionProxy, String sql, PreparedStatement statement) {
            this.owner = owner;
            this.connectionProxy = connectionProxy;
            this.sql = sql;
            this.statement = statement;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            switch (name) {
                case "toString", "hashCode", "equals" -> {
                    return invokeOn(statement, method, args);
                }
                case "close" -> {
                    if (!returned) {
                        returned = true;
                        owner.giveBack(sql, statement, open, reusable);
                    }
                    return null;
                }
                case "isClosed" -> {
                    return returned;
                }
                case "getConnection" -> {
                    return connectionProxy;
                }
                default -> {}
            }
            if (returned) throw new SQLException("statement closed");
            boolean execution = EXECUTIONS.contains(name);
            if (!execution && !HARMLESS_USES.contains(name) && !bindsParameter(method)) reusable = false;
            if (execution && executions.isTraceEnabled()) executions.trace("{}", sql);
            Object result = invokeOn(statement, method, args);
            if (name.equals("executeQuery")) open = (ResultSet) result;
            return result;
        }
    }

    /** setString(1, ...), setNull(2, ...)...: cleared on return; other setters (timeouts, row limits) would outlive it. */
    private static boolean bindsParameter(Method method) {
        return method.getName().startsWith("set")
                && method.getParameterCount() >= 2
                && method.getParameterTypes()[0] == int.class;
    }

    private static Object invokeOn(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return target.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        target.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        target.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return target.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return target.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return type.isInstance(this) ? type.cast(this) : target.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return type.isInstance(this) || target.isWrapperFor(type);
    }
}
