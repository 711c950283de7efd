package dev.baton.learning.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.domain.JsonFields;
import dev.baton.core.tool.ToolContext;
import dev.baton.learning.Learner;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.engagement.EngagementService;
import dev.baton.learning.engagement.NewQuestion;
import java.util.Set;

/** {@code ask_question}: posts a question in a course's Q&A → {@code {"question": QUESTION}}. */
final class AskQuestionTool extends LearningTool {
    static final String NAME = "ask_question";

    private static final String SCHEMA = """
            {
              "type": "object",
              "properties": {
                "course_id": {"type": "string", "minLength": 1, "maxLength": 64},
                "title": {"type": "string", "minLength": 1, "maxLength": 200},
                "body": {"type": "string", "minLength": 1, "maxLength": 5000}
              },
              "required": ["course_id", "title", "body"],
              "additionalProperties": false
            }
            """;

    private final EngagementService engagement;

    AskQuestionTool(EngagementService engagement) {
        super(
                NAME,
                "Posts a question in a course's Q&A (only for courses the user is enrolled in).",
                SCHEMA,
                Set.of(LearningPermissions.WRITE),
                true);
        this.engagement = engagement;
    }

    @Override
    JsonNode call(JsonNode arguments, ToolContext context) {
        Principal principal = context.principal();
        JsonFields fields = LearningJson.fields(arguments, Set.of("course_id", "title", "body"));
        var question = engagement.ask(
                principal, fields.text("course_id"), new NewQuestion(fields.text("title"), fields.text("body")));
        return LearningJson.MAPPER
                .createObjectNode()
                .set("question", LearningJson.question(question, Learner.of(principal)));
    }
}
