package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.runtime.admission.IdempotencyKeyExpiry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IdempotencyKeyExpiryTest {

    @TempDir
    Path dir;

    @Test
    void keys_older_than_the_retention_are_forgotten_and_newer_ones_kept() {
        Instant now = Instant.parse("2026-11-22T12:00:00Z");
        try (Database db = Database.open("jdbc:sqlite:" + dir.resolve("keys.db"))) {
            JdbcIdempotencyStore store = new JdbcIdempotencyStore(db);
            store.claim("alice", "old", "h", now.minus(Duration.ofHours(25)));
            store.complete("alice", "old", 200, "{}");
            store.claim("alice", "recent", "h", now.minus(Duration.ofHours(23)));
            store.complete("alice", "recent", 200, "{}");

            var settings = new IdempotencyKeyExpiry.Settings(Duration.ofHours(24), Duration.ZERO);
            try (var expiry = IdempotencyKeyExpiry.start(store, Clock.fixed(now, ZoneOffset.UTC), settings)) {
                assertThat(expiry.runOnce()).isEqualTo(1);
            }
            assertThat(store.find("alice", "old")).isEmpty();
            assertThat(store.find("alice", "recent")).isPresent();
        }
    }

    @Test
    void settings_default_to_a_day_checked_hourly_and_refuse_a_zero_retention() {
        var defaults =
                IdempotencyKeyExpiry.Settings.from(com.fasterxml.jackson.databind.node.MissingNode.getInstance());
        assertThat(defaults.retention()).isEqualTo(Duration.ofHours(24));
        assertThat(defaults.interval()).isEqualTo(Duration.ofHours(1));
        assertThatThrownBy(() -> new IdempotencyKeyExpiry.Settings(Duration.ZERO, Duration.ofHours(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
