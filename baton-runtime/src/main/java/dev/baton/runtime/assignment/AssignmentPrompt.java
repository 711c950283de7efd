package dev.baton.runtime.assignment;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.AgentConstraints;
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
                context(request.assignment()), constraints(request.agent().constraints()), List.of());
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

    /**
     * The constraints text (the topics to stay on, then the rules, then the other keys as "key: value"); null when
     * the agent has none. Deny patterns are for the topic guard to enforce, not for the model to read.
     */
    static String constraints(AgentConstraints c) {
        if (c.form() == AgentConstraints.Form.TEXT) return c.text();
        List<String> lines = new ArrayList<>();
        if (!c.topics().isEmpty())
            lines.add("- Stay on these topics: "
                    + String.join(
                            ", ",
                            c.topics().stream()
                                    .map(AgentConstraints.Topic::name)
                                    .toList()) + ".");
        c.rules().forEach(rule -> lines.add("- " + rule));
        for (Map.Entry<String, JsonNode> e : c.other().entrySet()) {
            if (!e.getKey().equals("denyPatterns")) lines.add("- " + e.getKey() + ": " + joined(e.getValue()));
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
