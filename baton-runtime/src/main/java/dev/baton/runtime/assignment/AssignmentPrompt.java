package dev.baton.runtime.assignment;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.Assignment;
import dev.baton.core.context.PromptSections;
import dev.baton.core.turn.TurnRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The system prompt's {@code ## Assignment Context} (the turn's assignment: title, when it closes, instructions) and
 * {@code ## Constraints} (the agent's {@code constraints:}) sections. Constraints may be a text, a list of rules,
 * or a mapping: {@code topics} (what to stay on), {@code rules} (a list), and any other key written as
 * "key: value".
 */
public final class AssignmentPrompt {

    private AssignmentPrompt() {}

    /** The sections for one turn; the hook pipeline adds its guidance on top. */
    public static PromptSections sectionsFor(TurnRequest request) {
        return new PromptSections(
                context(request.assignment()),
                constraints(request.agent().definition().path("constraints")),
                List.of());
    }

    /** The assignment context text; null without an assignment. */
    static String context(Assignment a) {
        if (a == null) return null;
        StringBuilder text = new StringBuilder();
        text.append("The user is working on the assignment \"")
                .append(a.title())
                .append('"');
        if (a.classId() != null) text.append(" for class ").append(a.classId());
        text.append('.');
        if (a.closesAt() != null)
            text.append(" It closes at ").append(a.closesAt()).append('.');
        if (!a.instructions().isBlank())
            text.append("\n\n").append(a.instructions().strip());
        return text.toString();
    }

    /** The constraints text; null when the agent has none. */
    static String constraints(JsonNode c) {
        if (c == null || c.isMissingNode() || c.isNull()) return null;
        if (c.isValueNode()) return c.asText();
        List<String> lines = new ArrayList<>();
        if (c.isArray()) {
            c.forEach(rule -> lines.add("- " + rule.asText()));
        } else {
            for (Map.Entry<String, JsonNode> e : c.properties()) {
                JsonNode v = e.getValue();
                switch (e.getKey()) {
                    case "topics" -> lines.add("- Stay on these topics: " + joined(v) + ".");
                    case "rules" -> v.forEach(rule -> lines.add("- " + rule.asText()));
                    // deny patterns are for the topic guard to enforce, not for the model to read
                    case "deny", "denyPatterns" -> {}
                    default -> lines.add("- " + e.getKey() + ": " + joined(v));
                }
            }
        }
        return lines.isEmpty() ? null : String.join("\n", lines);
    }

    private static String joined(JsonNode v) {
        if (!v.isArray()) return v.asText();
        List<String> items = new ArrayList<>();
        v.forEach(i -> items.add(i.asText()));
        return String.join(", ", items);
    }
}
