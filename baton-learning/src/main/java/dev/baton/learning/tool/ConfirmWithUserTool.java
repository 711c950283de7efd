package dev.baton.learning.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.ToolContext;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.memory.MemoryService;
import java.util.Set;

/**
 * {@code confirmWithUser(question)} → {@code {question, awaitingReply: true}}: remembers that the agent asked, so the
 * learner's next message ("yes", "it is", "no, I meant physics") is read as the answer to it.
 */
final class ConfirmWithUserTool extends LearningTool {
    static final String NAME = "confirmWithUser";

    private static final String SCHEMA = """
            {
              "type": "object",
              "properties": {
                "question": {"type": "string", "minLength": 1, "maxLength": 500,
                             "description": "The clarifying question to ask the user"}
              },
              "required": ["question"],
              "additionalProperties": false
            }
            """;

    private final MemoryService memory;

    ConfirmWithUserTool(MemoryService memory) {
        super(
                NAME,
                "Ask the user for clarification or confirmation. Put the question in your answer; their next"
                        + " message is the reply.",
                SCHEMA,
                Set.of(LearningPermissions.WRITE),
                true);
        this.memory = memory;
    }

    @Override
    JsonNode call(JsonNode arguments, ToolContext context) {
        Principal principal = context.principal();
        String question = LearningJson.fields(arguments, Set.of("question")).text("question");
        var state = memory.askToConfirm(principal, question);
        return LearningJson.MAPPER
                .createObjectNode()
                .put("question", state.pendingQuestion())
                .put("awaitingReply", true);
    }
}
