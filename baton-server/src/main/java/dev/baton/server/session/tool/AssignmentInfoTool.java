package dev.baton.server.session.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.agent.Assignment;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolException;
import dev.baton.server.assignment.Assignments;
import dev.baton.server.http.Json;
import dev.baton.server.session.PriorSessions;
import java.util.Set;

/**
 * {@code get_assignment_info}: the assignment of the session the model is answering in → {@code {"assignment":
 * {id, title, instructions, class, availableAt, closesAt}}}; the error {@code no_assignment} when it has none.
 */
final class AssignmentInfoTool implements Tool {
    static final String NAME = "get_assignment_info";

    private static final ToolDefinition DEFINITION = new ToolDefinition(
            NAME,
            "Get the details of the assignment the user is working on in this conversation: title, instructions,"
                    + " class and when it opens and closes.",
            Json.MAPPER.createObjectNode().put("type", "object").put("additionalProperties", false),
            Set.of(PriorSessions.PERMISSION),
            null);

    private final ConversationStore sessions;
    private final Assignments assignments;

    AssignmentInfoTool(ConversationStore sessions, Assignments assignments) {
        this.sessions = sessions;
        this.assignments = assignments;
    }

    @Override
    public ToolDefinition definition() {
        return DEFINITION;
    }

    @Override
    public JsonNode execute(JsonNode arguments, ToolContext context) {
        Assignment a = sessions.findSession(context.principal().userId(), context.sessionId())
                .flatMap(s -> assignments.find(s.assignmentId()))
                .orElseThrow(
                        () -> new ToolException("no_assignment", "This conversation is not part of an assignment."));
        ObjectNode out = Json.MAPPER.createObjectNode();
        ObjectNode n = out.putObject("assignment");
        n.put("id", a.id());
        n.put("title", a.title());
        n.put("instructions", a.instructions());
        n.put("class", a.classId());
        n.put("availableAt", a.availableAt() == null ? null : a.availableAt().toString());
        n.put("closesAt", a.closesAt() == null ? null : a.closesAt().toString());
        return out;
    }
}
