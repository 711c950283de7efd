package dev.baton.store.jdbc.usage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.conversation.Session;
import dev.baton.core.conversation.UsageRecord;
import dev.baton.core.id.Ids;
import dev.baton.runtime.usage.UsageStore;
import dev.baton.store.jdbc.ColumnCodec;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.Dialect;
import dev.baton.store.jdbc.JdbcConversationStore;
import dev.baton.testkit.store.UsageStoreContract;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The usage store contract on {@link JdbcUsageStore} with {@link JdbcConversationStore}, and what only the database
 * does: spend read from the totals the turn's end keeps, and the migration that made them. Subclasses provide the
 * databases.
 */
abstract class JdbcUsageStoreContract extends UsageStoreContract {
    private Database db;
    private JdbcConversationStore conversations;
    private JdbcUsageStore usage;

    /** A new, empty database's URL; called once per class, and again by tests that need a database of their own. */
    protected abstract String createDatabase();

    /** Drops every database {@link #createDatabase} created. */
    protected abstract void dropDatabase();

    @BeforeAll
    void open() {
        db = Database.open(createDatabase());
        conversations = new JdbcConversationStore(db);
        usage = new JdbcUsageStore(db);
    }

    @AfterAll
    void close() {
        if (db != null) db.close();
        dropDatabase();
    }

    @Override
    protected ConversationStore conversations() {
        return conversations;
    }

    @Override
    protected UsageStore usage() {
        return usage;
    }

    @Test
    void spend_is_read_from_the_totals_not_by_summing_ai_usage() {
        String tenant = newTenant();
        Session ivy = session(tenant, "ivy", "tutor", DAY1);
        turn(ivy, DAY1.plusSeconds(60), call("openai", "gpt-4o", 1, 1, "0.25"));
        conversations().recordUsage(List.of(row(ivy, "2025-03-01T08:00:00Z", "0.50")));

        db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM ai_usage WHERE tenant_id = ?")) {
                ps.setString(1, tenant);
                assertThat(ps.executeUpdate()).isEqualTo(2);
            }
            return null;
        });

        assertSpend(usage().userSpend(tenant, "ivy", DAY1, DAY1), "0.75", "0.75");
        assertSpend(usage().tenantSpend(tenant, DAY1, DAY1), "0.75", "0.75");
    }

    @Test
    void migrating_to_version_10_totals_the_usage_recorded_before() throws Exception {
        String url = createDatabase();
        Dialect dialect = Dialect.of(url);
        Flyway.configure()
                .dataSource(url, null, null)
                .locations("classpath:db/migration/baton/" + dialect.migrationFolder())
                .target("9")
                .load()
                .migrate();
        String tenant = "tenant-before";
        List<String[]> before = List.of(
                // tenant, user, created_at, cost
                new String[] {tenant, "alice", "2025-03-31T18:29:59.999999Z", "64"}, // March in Kolkata
                new String[] {tenant, "alice", "2025-03-31T18:30:00Z", "0.01"},
                new String[] {tenant, "alice", "2025-04-01T18:44:59.123456Z", "0.02"},
                new String[] {tenant, "alice", "2025-04-01T18:30:00.5Z", "0.04"}, // same slot
                new String[] {tenant, "alice", "2025-04-01T18:45:00Z", "0.08"},
                new String[] {tenant, "bob", "2025-04-01T19:59:59Z", "0.16"},
                new String[] {"other-tenant", "alice", "2025-04-01T18:30:00Z", "128"},
                new String[] {null, "alice", "2025-04-01T18:30:00Z", "256"}); // counted by no budget
        ColumnCodec codec = ColumnCodec.of(dialect);
        try (Connection c = DriverManager.getConnection(url);
                PreparedStatement ps = c.prepareStatement("INSERT INTO ai_usage (id, tenant_id, user_id, session_id,"
                        + " model, input_tokens, output_tokens, cost_usd, latency_ms, created_at)"
                        + " VALUES (?, ?, ?, 'gone', 'gpt-4o', 1, 1, ?, 1, ?)")) {
            for (String[] r : before) {
                ps.setString(1, Ids.newId());
                ps.setString(2, r[0]);
                ps.setString(3, r[1]);
                codec.setDecimal(ps, 4, new BigDecimal(r[3]));
                codec.setInstant(ps, 5, Instant.parse(r[2]));
                ps.addBatch();
            }
            ps.executeBatch();
        }

        try (Database migrated = Database.open(url)) {
            JdbcUsageStore store = new JdbcUsageStore(migrated);
            ZoneId kolkata = ZoneId.of("Asia/Kolkata");
            Instant monthStart = LocalDate.of(2025, 4, 1).atStartOfDay(kolkata).toInstant();
            Instant april2 = LocalDate.of(2025, 4, 2).atStartOfDay(kolkata).toInstant();
            assertSpend(store.userSpend(tenant, "alice", april2, monthStart), "0.14", "0.15");
            assertSpend(store.userSpend(tenant, "bob", april2, monthStart), "0.16", "0.16");
            assertSpend(store.tenantSpend(tenant, april2, monthStart), "0.30", "0.31");
            assertSpend(store.tenantSpend("other-tenant", april2, monthStart), "128", "128");

            // usage recorded after the migration adds to the slots the migration filled
            new JdbcConversationStore(migrated)
                    .recordUsage(List.of(new UsageRecord(
                            Ids.newId(),
                            tenant,
                            "alice",
                            "gone",
                            null,
                            "openai",
                            "gpt-4o",
                            1,
                            1,
                            0,
                            new BigDecimal("0.32"),
                            1,
                            Instant.parse("2025-04-01T18:31:00Z"))));
            assertSpend(store.userSpend(tenant, "alice", april2, monthStart), "0.46", "0.47");
            assertSpend(store.tenantSpend(tenant, april2, monthStart), "0.62", "0.63");
        }
    }
}
