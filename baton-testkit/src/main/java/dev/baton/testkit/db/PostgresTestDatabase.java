package dev.baton.testkit.db;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;

/**
 * A throwaway PostgreSQL schema for one test class, on the server at 127.0.0.1:5432 (override with
 * {@code BATON_TEST_POSTGRES_URL}). When the server is not reachable the tests are skipped — unless the
 * environment says {@code CI=true}, where a missing database is a failure, not a skip.
 *
 * <pre>{@code
 * static PostgresTestDatabase pg;
 * @BeforeAll static void start() { pg = PostgresTestDatabase.create(); }   // skips or fails as above
 * @AfterAll  static void stop()  { pg.drop(); }
 * ... Database.open(pg.url(), ...) ...
 * }</pre>
 */
public final class PostgresTestDatabase {
    private static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

    private final String baseUrl;
    private final String schema;

    private PostgresTestDatabase(String baseUrl, String schema) {
        this.baseUrl = baseUrl;
        this.schema = schema;
    }

    /** Creates a fresh schema, or skips (fails on CI) when PostgreSQL is not running. */
    public static PostgresTestDatabase create() {
        String baseUrl = System.getenv().getOrDefault("BATON_TEST_POSTGRES_URL", DEFAULT_URL);
        requireReachable(baseUrl);
        installSharedExtensions(baseUrl);
        String schema = "baton_it_"
                + UUID.randomUUID().toString().replace("-", "").substring(0, 16).toLowerCase(Locale.ROOT);
        execute(baseUrl, "CREATE SCHEMA " + schema);
        return new PostgresTestDatabase(baseUrl, schema);
    }

    /** The JDBC URL whose connections work in this schema only. */
    public String url() {
        return baseUrl + (baseUrl.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }

    public String schema() {
        return schema;
    }

    public void drop() {
        execute(baseUrl, "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }

    /**
     * Extensions belong to the database, not to a schema: one installed by a migration into a test's schema would be
     * dropped with that schema while other tests (in other schemas, other builds) use it. So the ones Baton's
     * migrations need (pg_trgm, for the learning library) are installed once in {@code public}, which no test drops;
     * the migrations then find them there.
     */
    private static void installSharedExtensions(String url) {
        try {
            execute(url, "CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public");
        } catch (IllegalStateException e) {
            // two builds installing it at the same moment: one wins, and the other finds it installed
            if (!installed(url, "pg_trgm")) throw e;
        }
    }

    private static boolean installed(String url, String extension) {
        try (Connection c = DriverManager.getConnection(url);
                var ps = c.prepareStatement("SELECT 1 FROM pg_extension WHERE extname = ?")) {
            ps.setString(1, extension);
            try (var rs = ps.executeQuery()) {
                return rs.next();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("checking for extension " + extension + " failed: " + e.getMessage(), e);
        }
    }

    private static void requireReachable(String url) {
        // jdbc:postgresql://host:port/db?...
        String hostPort = url.substring("jdbc:postgresql://".length()).split("[/?]", 2)[0];
        String host = hostPort.contains(":") ? hostPort.substring(0, hostPort.lastIndexOf(':')) : hostPort;
        int port = hostPort.contains(":") ? Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1)) : 5432;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 1_000);
        } catch (IOException e) {
            String message = "PostgreSQL is not reachable at " + host + ":" + port + " (" + e.getMessage() + ")";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) fail(message + "; CI=true requires it");
            Assumptions.abort(message + "; skipping PostgreSQL tests (set CI=true to make this a failure)");
        }
    }

    private static void execute(String url, String sql) {
        try (Connection c = DriverManager.getConnection(url);
                Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + " failed: " + e.getMessage(), e);
        }
    }
}
