package dev.baton.learning.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolException;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.content.ContentJob;
import dev.baton.learning.content.ContentJobs;
import dev.baton.runtime.RefusalException;
import java.util.Set;

/**
 * {@code generateContent(topic)} → {@code {jobId, topic, status, ...}} at once: the material is prepared by a
 * background job; its status shows in getUserProgress and over REST.
 */
final class GenerateContentTool extends LearningTool {
    static final String NAME = "generateContent";

    private static final String SCHEMA = """
            {
              "type": "object",
              "properties": {
                "topic": {"type": "string", "minLength": 1, "maxLength": 200,
                          "description": "The confirmed topic to prepare learning materials on"}
              },
              "required": ["topic"],
              "additionalProperties": false
            }
            """;

    private final ContentJobs content;

    GenerateContentTool(ContentJobs content) {
        super(
                NAME,
                "Start preparing new learning materials on a topic the user confirmed. Returns at once with a job"
                        + " id; the materials are ready later (see getUserProgress).",
                SCHEMA,
                Set.of(LearningPermissions.WRITE));
        this.content = content;
    }

    @Override
    JsonNode call(JsonNode arguments, ToolContext context) {
        Principal principal = context.principal();
        String topic = LearningJson.fields(arguments, Set.of("topic")).text("topic");
        var origin = new ContentJob.Origin(context.sessionId(), context.agentId());
        try {
            return AgentJson.job(content.start(principal, topic, origin), false);
        } catch (RefusalException e) {
            // the caller's rate limits or budgets: the same code and sentence a message of theirs would get
            throw new ToolException(e.refusal().code(), e.refusal().message());
        }
    }
}
