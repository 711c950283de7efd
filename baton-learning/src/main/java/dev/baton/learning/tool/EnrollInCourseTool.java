package dev.baton.learning.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.ToolContext;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.enrolment.LearningService;
import java.util.Set;

/** {@code enroll_in_course}: enrols the caller → {@code {"enrollment": ENROLLMENT}}. */
final class EnrollInCourseTool extends LearningTool {
    static final String NAME = "enroll_in_course";

    private static final String SCHEMA = """
            {
              "type": "object",
              "properties": {
                "course_id": {"type": "string", "minLength": 1, "maxLength": 64,
                              "description": "The course's id, from list_courses or search_courses"}
              },
              "required": ["course_id"],
              "additionalProperties": false
            }
            """;

    private final LearningService learning;

    EnrollInCourseTool(LearningService learning) {
        super(NAME, "Enrolls the user in a course.", SCHEMA, Set.of(LearningPermissions.WRITE), true);
        this.learning = learning;
    }

    @Override
    JsonNode call(JsonNode arguments, ToolContext context) {
        Principal principal = context.principal();
        String courseId = LearningJson.fields(arguments, Set.of("course_id")).text("course_id");
        return LearningJson.MAPPER
                .createObjectNode()
                .set("enrollment", LearningJson.enrolment(learning.enrol(principal, courseId)));
    }
}
