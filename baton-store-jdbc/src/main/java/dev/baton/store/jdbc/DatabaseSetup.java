package dev.baton.store.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** How a {@link Database} is set up once at start: the PostgreSQL pool and the Flyway migrations of every module. */
final class DatabaseSetup {
    private static final Logger log = LoggerFactory.getLogger(Database.class);
    private static final String BATON_MIGRATIONS = "classpath:db/migration/baton";

    private DatabaseSetup() {}

    static HikariDataSource postgresPool(String jdbcUrl, DatabaseSettings settings) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("baton-postgresql");
        config.setJdbcUrl(jdbcUrl);
        config.setMaximumPoolSize(10);
        config.setConnectionTimeout(settings.connectionTimeout().toMillis());
        config.setValidationTimeout(validationTimeout(settings));
        try {
            return new HikariDataSource(config);
        } catch (RuntimeException e) {
            throw new StoreException("cannot connect to " + Dialect.redact(jdbcUrl) + ": " + e.getMessage(), e);
        }
    }

    /** HikariCP wants the validation timeout below the connection timeout, and at least 250 ms. */
    static long validationTimeout(DatabaseSettings settings) {
        return Math.max(250, settings.connectionTimeout().toMillis() / 2);
    }

    static void migrate(DataSource dataSource, Dialect dialect, List<String> extraLocations) {
        migrate(dataSource, dialect, extraLocations, null);
    }

    /** @param historyTable where Flyway records the migrations; null: Flyway's default table */
    static void migrate(DataSource dataSource, Dialect dialect, List<String> extraLocations, String historyTable) {
        List<String> locations = new ArrayList<>();
        locations.add(BATON_MIGRATIONS + "/" + dialect.migrationFolder());
        for (String extra : extraLocations) {
            String base = extra.endsWith("/") ? extra.substring(0, extra.length() - 1) : extra;
            locations.add(base + "/" + dialect.migrationFolder());
        }
        var configuration = Flyway.configure();
        if (historyTable != null) configuration.table(historyTable);
        var result = configuration
                .dataSource(dataSource)
                .locations(locations.toArray(String[]::new))
                // Baton's migrations (V1-V99) and the modules' (V100 and up) share one history: a new Baton migration
                // is numbered below modules' ones a database already has, and must still be applied
                .outOfOrder(true)
                // during a rolling upgrade the first new instance applies its migrations while old ones still run;
                // an old one that restarts then finds a migration it does not know numbered among its own
                // ("missing" to Flyway, since the modules' V100+ are above it) or above them ("future"), and must
                // still start: every migration is written to be compatible with the release before it
                .ignoreMigrationPatterns("*:missing", "*:future")
                .load()
                .migrate();
        log.info(
                "database migrated: dialect={} applied={} version={}",
                dialect,
                result.migrationsExecuted,
                result.targetSchemaVersion);
    }
}
