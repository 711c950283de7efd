package dev.baton.runtime.session.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.agent.Assignment;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.domain.DomainTool;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolException;
import dev.baton.runtime.assignment.Assignments;
import dev.baton.runtime.config.Json;
import dev.baton.runtime.session.PriorSessions;
import java.util.Set;

/**
 * {@code get_assignment_info}: the assignment of the session the model is answering in → {@code {"assignment":
 * {id, title, instructions, class, availableAt, closesAt}}}; the error {@code no_assignment} when it has none.
 */
final class AssignmentInfoTool extends DomainTool {
    static final String NAME = "get_assignment_info";

    private static final String SCHEMA = """
            {"type": "object", "additionalProperties": false}
            """;

    private final ConversationStore sessions;
    private final Assignments assignments;

    AssignmentInfoTool(ConversationStore sessions, Assignments assignments) {
        super(
                NAME,
                "Get the details of the assignment the user is working on in this conversation: title, instructions,"
                        + " class and when it opens and closes.",
                SCHEMA,
                Set.of(PriorSessions.PERMISSION));
        this.sessions = sessions;
        this.assignments = assignments;
    }

    @Override
    protected JsonNode run(JsonNode arguments, ToolContext context) {
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
