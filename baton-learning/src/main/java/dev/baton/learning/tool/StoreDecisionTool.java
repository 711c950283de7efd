package dev.baton.learning.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.tool.ToolContext;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.memory.MemoryService;
import java.util.Set;

/**
 * {@code storeDecision(decision, data)} → {@code {decisionId, decision, currentTopic}}: records a decision point of
 * this conversation; a {@code topic} in the data becomes the learner's current topic.
 */
final class StoreDecisionTool extends LearningTool {
    static final String NAME = "storeDecision";

    private static final String SCHEMA = """
            {
              "type": "object",
              "properties": {
                "decision": {"type": "string", "minLength": 1, "maxLength": 100,
                             "description": "What was decided, e.g. topic_confirmed, restart, topic_rejected"},
                "data": {"type": "object", "description":
                  "Details, e.g. {\\"topic\\": \\"Quantum physics\\", \\"granularity\\": \\"topic\\"}"}
              },
              "required": ["decision"],
              "additionalProperties": false
            }
            """;

    private final MemoryService memory;

    StoreDecisionTool(MemoryService memory) {
        super(
                NAME,
                "Record a decision point of the conversation (a confirmed topic, a restart, a rejected"
                        + " suggestion) so it is remembered in later conversations.",
                SCHEMA,
                Set.of(LearningPermissions.WRITE),
                true);
        this.memory = memory;
    }

    @Override
    JsonNode call(JsonNode arguments, ToolContext context) {
        String decision =
                LearningJson.fields(arguments, Set.of("decision", "data")).text("decision");
        var point = memory.recordDecision(context.principal(), context.sessionId(), decision, arguments.get("data"));
        var state = memory.memory(context.principal()).state();
        return LearningJson.MAPPER
                .createObjectNode()
                .put("decisionId", point.id())
                .put("decision", point.decision())
                .put("currentTopic", state.currentTopic());
    }
}
