package dev.baton.core.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.time.Instant;
import java.util.Objects;

/**
 * A piece of work an agent is set up for within a class: its instructions reach the system prompt's
 * {@code ## Assignment Context}, its overrides the session's configuration (the cascade's most specific level).
 *
 * @param classId the class (group) whose members may start sessions for it
 * @param availableAt when it opens; null means always open
 * @param closesAt when it closes; null means never
 * @param overrides configuration overrides (limits and the like) as configured
 */
public record Assignment(
        String id,
        String agentId,
        String title,
        String instructions,
        String classId,
        Instant availableAt,
        Instant closesAt,
        JsonNode overrides) {
    public Assignment {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(agentId, "agentId");
        title = title == null ? id : title;
        instructions = instructions == null ? "" : instructions;
        overrides = overrides == null ? JsonNodeFactory.instance.objectNode() : overrides.deepCopy();
    }

    /** Whether sessions may be started for it at {@code now}. */
    public boolean openAt(Instant now) {
        return (availableAt == null || !now.isBefore(availableAt)) && (closesAt == null || now.isBefore(closesAt));
    }
}
