package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.conversation.Session;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SessionCursorTest {

    @Test
    void a_cursor_round_trips_the_position_after_a_session_at_microsecond_precision() {
        Session last = Session.start(
                "0190f3a0-0000-7000-8000-000000000001",
                "t",
                "u",
                "a",
                null,
                Instant.parse("2025-01-02T03:04:05.123456789Z"));

        SessionCursor cursor = SessionCursor.parse(SessionCursor.after(last));

        assertThat(cursor).isEqualTo(new SessionCursor(Instant.parse("2025-01-02T03:04:05.123456Z"), last.id()));
    }

    @Test
    void text_that_is_not_a_cursor_is_refused() {
        for (String bad : new String[] {
            "not base64!", "", "djJ8eHx5" /* v2|x|y */, "djF8bm90LWEtdGltZXxpZA" /* v1|not-a-time|id */
        }) {
            assertThatThrownBy(() -> SessionCursor.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
