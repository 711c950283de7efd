package dev.baton.runtime.assignment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.agent.Assignment;
import dev.baton.core.auth.Principal;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.config.Json;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The assignments configured in baton.yaml's {@code assignments:} section, a list of
 *
 * <pre>{@code
 * - id: essay-1                 # required, unique
 *   agentId: study              # required: the agent sessions for it talk to
 *   title: Persuasive essay
 *   instructions: |             # goes to the system prompt's "## Assignment Context"
 *     Help the student outline a persuasive essay; do not write it for them.
 *   class: eng-101              # only users whose token lists this class (classes/groups claim); omit for all
 *   availableAt: 2026-01-10T09:00:00Z   # optional; ISO-8601 with an offset
 *   closesAt: 2026-02-01T00:00:00Z      # optional
 *   limits: {maxMessages: 20, maxIterations: 3}   # the cascade's most specific level
 * }</pre>
 */
public final class Assignments {
    private static final Set<String> FIELDS =
            Set.of("id", "agentId", "title", "instructions", "class", "classId", "availableAt", "closesAt", "limits");

    private final Map<String, Assignment> byId;

    private Assignments(Map<String, Assignment> byId) {
        this.byId = Map.copyOf(byId);
    }

    public static Assignments none() {
        return new Assignments(Map.of());
    }

    /**
     * Reads the section; every assignment's agent must exist.
     *
     * @throws ConfigException when an assignment is malformed, duplicated or names an unknown agent
     */
    public static Assignments fromConfig(JsonNode section, AgentRegistry agents) {
        if (section == null || section.isMissingNode() || section.isNull()) return none();
        if (!section.isArray()) throw new ConfigException("assignments: must be a list");
        Map<String, Assignment> found = new LinkedHashMap<>();
        for (JsonNode node : section) {
            Assignment a = parse(node);
            if (agents.find(a.agentId()).isEmpty())
                throw new ConfigException("assignment " + a.id() + ": unknown agent '" + a.agentId() + "'");
            if (found.putIfAbsent(a.id(), a) != null)
                throw new ConfigException("assignment " + a.id() + " is configured twice");
        }
        return new Assignments(found);
    }

    static Assignment parse(JsonNode node) {
        if (!node.isObject()) throw new ConfigException("assignments: each entry must be a mapping");
        node.fieldNames().forEachRemaining(f -> {
            if (!FIELDS.contains(f)) throw new ConfigException("assignment: unknown field '" + f + "'");
        });
        String id = text(node, "id");
        if (id == null || id.isBlank()) throw new ConfigException("assignment: 'id' is required");
        String agentId = text(node, "agentId");
        if (agentId == null || agentId.isBlank())
            throw new ConfigException("assignment " + id + ": 'agentId' is required");
        String classId = text(node, "class") != null ? text(node, "class") : text(node, "classId");
        Instant availableAt = instant(node, "availableAt", id);
        Instant closesAt = instant(node, "closesAt", id);
        if (availableAt != null && closesAt != null && !closesAt.isAfter(availableAt))
            throw new ConfigException("assignment " + id + ": closesAt must be after availableAt");
        ObjectNode overrides = Json.MAPPER.createObjectNode();
        if (node.has("limits")) {
            if (!node.get("limits").isObject())
                throw new ConfigException("assignment " + id + ": 'limits' must be a mapping");
            overrides.set("limits", node.get("limits"));
        }
        return new Assignment(
                id,
                agentId,
                text(node, "title"),
                text(node, "instructions"),
                classId,
                availableAt,
                closesAt,
                overrides);
    }

    public Optional<Assignment> find(String id) {
        return id == null ? Optional.empty() : Optional.ofNullable(byId.get(id));
    }

    public Collection<Assignment> all() {
        return byId.values();
    }

    /**
     * The assignment, if the principal may start a session for it now.
     *
     * @throws RefusalException {@link dev.baton.runtime.Refusal.NotFound} when there is no such assignment; 403 when the principal is not in its class, or it
     *     is not open yet or any more
     */
    public Assignment openFor(Principal principal, String id, Instant now) {
        Assignment a = find(id).orElseThrow(() -> RefusalException.notFound("assignment"));
        if (a.classId() != null && !principal.classes().contains(a.classId()))
            throw RefusalException.forbidden("this assignment is for another class");
        if (a.availableAt() != null && now.isBefore(a.availableAt()))
            throw RefusalException.forbidden("this assignment opens at " + a.availableAt());
        if (!a.openAt(now)) throw RefusalException.forbidden("this assignment closed at " + a.closesAt());
        return a;
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static Instant instant(JsonNode node, String field, String id) {
        String v = text(node, field);
        if (v == null || v.isBlank()) return null;
        try {
            return OffsetDateTime.parse(v).toInstant();
        } catch (DateTimeParseException e) {
            throw new ConfigException(
                    "assignment " + id + ": " + field + " must be an ISO-8601 date-time with an offset, got " + v);
        }
    }
}
