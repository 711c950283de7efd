package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.testkit.db.PostgresTestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A claim left in progress by a dead instance is taken over once its lease ran out, on SQLite and PostgreSQL. */
class IdempotencyClaimLeaseIT {
    private static final Instant T0 = Instant.parse("2026-11-24T12:00:00Z");

    @TempDir
    Path dir;

    @Test
    void sqlite_takes_over_a_stale_claim_of_the_same_request_only() {
        try (Database db = Database.open("jdbc:sqlite:" + dir.resolve("keys.db"))) {
            check(new JdbcIdempotencyStore(db));
        }
    }

    @Test
    void postgresql_takes_over_a_stale_claim_of_the_same_request_only() {
        PostgresTestDatabase pg = PostgresTestDatabase.create();
        try (Database db = Database.open(pg.url())) {
            check(new JdbcIdempotencyStore(db));
        } finally {
            pg.drop();
        }
    }

    private static void check(JdbcIdempotencyStore store) {
        Duration lease = Duration.ofSeconds(75);
        assertThat(store.claim("alice", "k", "h1", T0, T0.minus(lease))).isTrue();
        Instant later = T0.plusSeconds(60);
        assertThat(store.claim("alice", "k", "h1", later, later.minus(lease)))
                .as("within its lease")
                .isFalse();
        Instant afterLease = T0.plusSeconds(80);
        assertThat(store.claim("alice", "k", "h2", afterLease, afterLease.minus(lease)))
                .as("another request with the same key")
                .isFalse();
        assertThat(store.claim("alice", "k", "h1", afterLease, afterLease.minus(lease)))
                .as("the same request once the lease ran out")
                .isTrue();
        assertThat(store.find("alice", "k").orElseThrow().createdAt()).isEqualTo(afterLease);
        store.complete("alice", "k", 200, "{}");
        Instant muchLater = T0.plusSeconds(3600);
        assertThat(store.claim("alice", "k", "h1", muchLater, muchLater.minus(lease)))
                .as("a completed key is replayed, never taken over")
                .isFalse();
    }
}
