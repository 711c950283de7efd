package dev.baton.runtime.assignment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.agent.Assignment;
import dev.baton.core.auth.Principal;
import dev.baton.core.config.ConfigProblem;
import dev.baton.core.config.ConfigSection;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.config.Json;
import dev.baton.runtime.session.SessionLimits;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.Collections;
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
    /** The section of baton.yaml this reads. */
    public static final String SECTION = "assignments";

    private static final Set<String> FIELDS =
            Set.of("id", "agentId", "title", "instructions", "class", "classId", "availableAt", "closesAt", "limits");

    private final Map<String, Assignment> byId;
    /** Where each assignment read from configuration was written, so a problem found later can point at it. */
    private final Map<String, JsonNode> written;

    private Assignments(Map<String, Assignment> byId, Map<String, JsonNode> written) {
        this.byId = Collections.unmodifiableMap(new LinkedHashMap<>(byId));
        this.written = Map.copyOf(written);
    }

    public static Assignments none() {
        return new Assignments(Map.of(), Map.of());
    }

    /**
     * These assignments, in this order (embedding Baton in code); each one's agent is checked when the runtime is
     * built.
     *
     * @throws IllegalArgumentException when two share an id
     */
    public static Assignments of(Collection<Assignment> assignments) {
        Map<String, Assignment> byId = new LinkedHashMap<>();
        for (Assignment a : assignments)
            if (byId.putIfAbsent(a.id(), a) != null)
                throw new IllegalArgumentException("assignment " + a.id() + " is configured twice");
        return new Assignments(byId, Map.of());
    }

    /**
     * Reads the section; whether each assignment's agent exists is checked by {@link #requireAgents} (the agents may
     * not be known yet).
     *
     * @throws ConfigProblem when an assignment is malformed or duplicated
     */
    public static Assignments from(JsonNode section) {
        if (section == null || section.isMissingNode() || section.isNull()) return none();
        if (!section.isArray()) throw ConfigProblem.of(section, SECTION + " must be a list of assignments");
        Map<String, Assignment> found = new LinkedHashMap<>();
        Map<String, JsonNode> written = new LinkedHashMap<>();
        for (int i = 0; i < section.size(); i++) {
            Assignment a = parse(section, i);
            if (found.putIfAbsent(a.id(), a) != null)
                throw ConfigProblem.at(section.get(i), "id", "assignment " + a.id() + " is configured twice");
            written.put(a.id(), section.get(i));
        }
        return new Assignments(found, written);
    }

    /**
     * Reads the section; every assignment's agent must exist.
     *
     * @throws ConfigProblem when an assignment is malformed, duplicated or names an unknown agent
     */
    public static Assignments fromConfig(JsonNode section, AgentRegistry agents) {
        Assignments read = from(section);
        read.requireAgents(agents);
        return read;
    }

    /**
     * Checks that every assignment's agent is one of {@code agents}.
     *
     * @throws ConfigProblem naming the first assignment whose agent is not configured (located in the configuration
     *     it was read from, if any)
     */
    public void requireAgents(AgentRegistry agents) {
        for (Assignment a : byId.values()) {
            if (agents.find(a.agentId()).isPresent()) continue;
            String message = "assignment " + a.id() + ": unknown agent '" + a.agentId() + "' (agents: "
                    + String.join(", ", agents.all().stream().map(d -> d.id()).toList()) + ")";
            JsonNode node = written.get(a.id());
            throw node != null ? ConfigProblem.at(node, "agentId", message) : new IllegalArgumentException(message);
        }
    }

    static Assignment parse(JsonNode node) {
        return parse(Json.MAPPER.createArrayNode().add(node), 0);
    }

    private static Assignment parse(JsonNode list, int index) {
        JsonNode node = list.get(index);
        String where = SECTION + "[" + index + "]";
        if (!node.isObject()) throw ConfigProblem.at(list, Integer.toString(index), where + " must be a mapping");
        ConfigSection s = ConfigSection.of(node, where, FIELDS);
        String id = s.text("id");
        if (id == null || id.isBlank()) throw s.invalid("id", "is required");
        String agentId = s.text("agentId");
        if (agentId == null || agentId.isBlank())
            throw ConfigProblem.of(node, "assignment " + id + ": 'agentId' is required");
        String classId = s.text("class") != null ? s.text("class") : s.text("classId");
        Instant availableAt = instant(s, "availableAt", id);
        Instant closesAt = instant(s, "closesAt", id);
        if (availableAt != null && closesAt != null && !closesAt.isAfter(availableAt))
            throw ConfigProblem.at(node, "closesAt", "assignment " + id + ": closesAt must be after availableAt");
        ObjectNode overrides = Json.MAPPER.createObjectNode();
        if (s.has("limits")) {
            JsonNode limits = s.get("limits");
            if (!limits.isObject())
                throw ConfigProblem.at(node, "limits", "assignment " + id + ": 'limits' must be a mapping");
            SessionLimits.checkLimitKeys(limits, "assignment " + id + ": limits");
            overrides.set("limits", limits);
        }
        return new Assignment(
                id, agentId, s.text("title"), s.text("instructions"), classId, availableAt, closesAt, overrides);
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

    private static Instant instant(ConfigSection s, String field, String id) {
        String v = s.text(field);
        if (v == null || v.isBlank()) return null;
        try {
            return OffsetDateTime.parse(v).toInstant();
        } catch (DateTimeParseException e) {
            throw ConfigProblem.at(
                    s.node(),
                    field,
                    "assignment " + id + ": " + field + " must be an ISO-8601 date-time with an offset, got " + v);
        }
    }
}
