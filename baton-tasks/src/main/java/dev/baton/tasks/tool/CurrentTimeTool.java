package dev.baton.tasks.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Set;

/**
 * {@code get_current_time}: the current UTC time, so the model can resolve "tomorrow" or "next Friday" →
 * {@code {"now", "date", "dayOfWeek", "timezone": "UTC"}}. Needs no permission and touches no user data.
 */
final class CurrentTimeTool extends TaskTool {
    static final String NAME = "get_current_time";

    private static final String SCHEMA = """
            {"type": "object", "properties": {}, "additionalProperties": false}
            """;

    private final Clock clock;

    CurrentTimeTool(Clock clock) {
        super(
                NAME,
                "Get the current date, time and day of the week (UTC). Use it to turn relative dates such as"
                        + " 'tomorrow' or 'next Friday' into a date.",
                SCHEMA,
                Set.of());
        this.clock = clock;
    }

    @Override
    JsonNode run(JsonNode arguments, Principal principal) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
        return TaskJson.MAPPER
                .createObjectNode()
                .put("now", now.toString())
                .put("date", today.toString())
                .put("dayOfWeek", today.getDayOfWeek().name())
                .put("timezone", "UTC");
    }
}
