package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.baton.testkit.db.PostgresTestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Baton's tables in a host's own PostgreSQL pool (a Spring Boot app's DataSource): {@link Database#on}. */
class HostPoolDatabaseIT {

    @Test
    void batons_migrations_keep_their_own_history_in_the_hosts_pool_which_stays_open() throws Exception {
        PostgresTestDatabase postgres = PostgresTestDatabase.create();
        try (HikariDataSource host = new HikariDataSource()) {
            host.setJdbcUrl(postgres.url());
            Database db = Database.on(host, List.of(), DatabaseSettings.DEFAULTS, "baton_schema_history");

            assertThat(db.dialect()).isEqualTo(Dialect.POSTGRESQL);
            assertThat(db.isUp(java.time.Duration.ofSeconds(5))).isTrue();
            assertThat(tables(host, postgres.schema()))
                    .contains("baton_schema_history", "sessions", "messages")
                    .doesNotContain("flyway_schema_history");

            db.close();
            assertThat(host.isClosed()).isFalse();
            // a second start finds its history and applies nothing again
            Database.on(host, List.of(), DatabaseSettings.DEFAULTS, "baton_schema_history")
                    .close();
        } finally {
            postgres.drop();
        }
    }

    @Test
    void only_a_hikari_pool_on_postgresql_is_shared(@TempDir Path dir) {
        try (HikariDataSource sqlite = new HikariDataSource()) {
            sqlite.setJdbcUrl("jdbc:sqlite:" + dir.resolve("host.db"));
            assertThatThrownBy(() -> Database.on(sqlite, List.of(), DatabaseSettings.DEFAULTS, "baton_schema_history"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("PostgreSQL");
        }
        var plain = new org.sqlite.SQLiteDataSource();
        assertThatThrownBy(() -> Database.on(plain, List.of(), DatabaseSettings.DEFAULTS, "baton_schema_history"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("HikariCP");
    }

    private static List<String> tables(HikariDataSource pool, String schema) throws Exception {
        List<String> names = new ArrayList<>();
        try (Connection c = pool.getConnection();
                ResultSet rs = c.createStatement()
                        .executeQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = '" + schema
                                + "'")) {
            while (rs.next()) names.add(rs.getString(1));
        }
        return names;
    }
}
