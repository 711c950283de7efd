package dev.baton.server.openai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.runtime.conversation.HistoryKeys;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class HistoryKeyExpiryTest {

    @Test
    void digests_recorded_more_than_thirty_days_ago_are_forgotten_and_newer_ones_kept() {
        Instant now = Instant.parse("2026-03-31T12:00:00Z");
        HistoryKeys keys = HistoryKeys.inMemory();
        keys.record(
                "ann",
                "old",
                new HistoryKeys.Position("s1", 2L),
                now.minus(HistoryKeyExpiry.KEPT).minusSeconds(1));
        keys.record(
                "ann",
                "new",
                new HistoryKeys.Position("s1", 4L),
                now.minus(HistoryKeyExpiry.KEPT).plusSeconds(1));

        int deleted = new HistoryKeyExpiry(keys, Clock.fixed(now, ZoneOffset.UTC)).expire();

        assertThat(deleted).isEqualTo(1);
        assertThat(keys.find("ann", "old")).isEmpty();
        assertThat(keys.find("ann", "new")).isPresent();
    }
}
