package dev.baton.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * How {@code baton chat} words a held call (an {@code approval_required} event): by its tool's summary when it has one
 * ("Delete the task 'buy milk'"), with the raw name and arguments on a line of their own, so the user reads what the
 * call does and can still check exactly what would run; by name and arguments alone when the tool has no summary.
 */
final class ApprovalPrompts {
    private ApprovalPrompts() {}

    /** The line shown as the event arrives. */
    static String announcement(JsonNode call) {
        return "[needs approval] " + summary(call).orElse(raw(call));
    }

    /** The question asked once the stream ended, ending where the user types y or n. */
    static String question(JsonNode call) {
        return summary(call)
                .map(s -> "Allow: " + s + "?\n  arguments: " + raw(call) + "\n[y/N] ")
                .orElseGet(() -> "Allow " + raw(call) + "? [y/N] ");
    }

    private static Optional<String> summary(JsonNode call) {
        JsonNode summary = call.path("summary");
        return summary.isTextual() && !summary.asText().isBlank() ? Optional.of(summary.asText()) : Optional.empty();
    }

    private static String raw(JsonNode call) {
        return call.path("name").asText() + " " + call.path("arguments");
    }
}
