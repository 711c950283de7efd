package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SqliteInstantsTest {
    private static final DateTimeFormatter REFERENCE =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    @Test
    void writes_what_the_formatter_writes_and_reads_it_back() {
        List<Instant> edges = List.of(
                Instant.EPOCH,
                Instant.parse("1969-12-31T23:59:59.999999Z"),
                Instant.parse("0000-01-01T00:00:00Z"),
                Instant.parse("2024-02-29T12:00:00.000001Z"),
                Instant.parse("9999-12-31T23:59:59.999999Z"));
        SplittableRandom random = new SplittableRandom(13);
        java.util.ArrayList<Instant> all = new java.util.ArrayList<>(edges);
        for (int i = 0; i < 10_000; i++) {
            all.add(Instant.ofEpochSecond(
                            random.nextLong(-62_000_000_000L, 253_000_000_000L), random.nextInt(1_000_000_000))
                    .truncatedTo(ChronoUnit.MICROS));
        }
        for (Instant instant : all) {
            String text = SqliteInstants.format(instant);
            assertThat(text).isEqualTo(REFERENCE.format(instant));
            assertThat(SqliteInstants.parse(text)).isEqualTo(instant).isEqualTo(Instant.parse(text));
        }
    }

    @Test
    void years_beyond_four_digits_and_other_iso_shapes_go_through_the_jdk() {
        Instant far = Instant.parse("+10000-01-01T00:00:00Z");
        assertThat(SqliteInstants.parse(SqliteInstants.format(far))).isEqualTo(far);
        assertThat(SqliteInstants.parse("2026-11-21T10:15:30Z")).isEqualTo(Instant.parse("2026-11-21T10:15:30Z"));
        assertThat(SqliteInstants.parse("2026-11-21T10:15:30.123Z"))
                .isEqualTo(Instant.parse("2026-11-21T10:15:30.123Z"));
    }

    @Test
    void impossible_dates_are_refused_like_the_jdk_refuses_them() {
        for (String bad :
                List.of("2026-13-01T00:00:00.000000Z", "2026-02-30T00:00:00.000000Z", "2026-11-21T1x:15:30.123456Z")) {
            assertThatThrownBy(() -> SqliteInstants.parse(bad)).isInstanceOf(DateTimeException.class);
            assertThatThrownBy(() -> Instant.parse(bad)).isInstanceOf(DateTimeException.class);
        }
    }
}
