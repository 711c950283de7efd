package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database that a running deployment already migrated, Baton's own migrations and a module's (V100 and up) in one
 * history, takes a Baton migration added later although its number is below the module's.
 */
class MigrationUpgradeIT {
    @TempDir
    Path dir;

    @Test
    void a_new_baton_migration_is_applied_below_a_modules_applied_ones() {
        String url = "jdbc:sqlite:" + dir.resolve("deployed.db");
        // as a deployment before V11 left it: Baton up to V10, then the module's V100
        Flyway.configure()
                .dataSource(url, null, null)
                .locations("classpath:db/migration/baton/sqlite")
                .target("10")
                .load()
                .migrate();
        Flyway.configure()
                .dataSource(url, null, null)
                .locations("classpath:db/migration/testextra/sqlite")
                .ignoreMigrationPatterns("*:missing")
                .load()
                .migrate();

        try (Database db = Database.open(url, JdbcConversationStoreContract.EXTRA_MIGRATIONS)) {
            List<String> applied = db.withConnection(c -> strings(c.prepareStatement(
                    "SELECT version FROM flyway_schema_history WHERE success ORDER BY installed_rank")));
            List<String> ftsTriggers = db.withConnection(c -> strings(c.prepareStatement(
                    "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'messages_fts%'")));

            // later Baton migrations (V12...) follow V11
            assertThat(applied).containsSubsequence("10", "100", "11");
            assertThat(ftsTriggers)
                    .as("V11 replaced the insert trigger")
                    .containsExactlyInAnyOrder("messages_fts_delete", "messages_fts_update");
        }
    }

    @Test
    void an_instance_of_the_previous_version_starts_on_a_database_a_newer_one_migrated() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("rolling.db");
        Database.open(url, JdbcConversationStoreContract.EXTRA_MIGRATIONS).close();
        // the newer version's own migration, numbered among Baton's (below the module's V100): what a rolling
        // upgrade's first new instance applies while old instances still run and may restart
        Path newer = Files.createDirectories(dir.resolve("newer"));
        Files.writeString(newer.resolve("V98__newer_release.sql"), "CREATE TABLE newer_release_probe (id INTEGER);");
        Flyway.configure()
                .dataSource(url, null, null)
                .locations("filesystem:" + newer)
                .outOfOrder(true)
                .ignoreMigrationPatterns("*:missing", "*:future")
                .load()
                .migrate();

        try (Database db = Database.open(url, JdbcConversationStoreContract.EXTRA_MIGRATIONS)) {
            List<String> applied = db.withConnection(c -> strings(c.prepareStatement(
                    "SELECT version FROM flyway_schema_history WHERE success ORDER BY installed_rank")));
            assertThat(applied).contains("98", "100");
        }
    }

    private static List<String> strings(PreparedStatement ps) throws java.sql.SQLException {
        try (ps;
                var rs = ps.executeQuery()) {
            List<String> out = new ArrayList<>();
            while (rs.next()) out.add(rs.getString(1));
            return out;
        }
    }
}
