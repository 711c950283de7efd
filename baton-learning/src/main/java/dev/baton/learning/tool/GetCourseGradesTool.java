package dev.baton.learning.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.ToolContext;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.assessment.AssessmentService;
import java.util.Set;

/** {@code get_course_grades}: the caller's grades, in one course or all → {@code {"grades": [...], "count"}}. */
final class GetCourseGradesTool extends LearningTool {
    static final String NAME = "get_course_grades";

    private static final String SCHEMA = """
            {
              "type": "object",
              "properties": {
                "course_id": {"type": "string", "minLength": 1, "maxLength": 64,
                              "description": "Only this course's grades; leave out for every course"}
              },
              "additionalProperties": false
            }
            """;

    private final AssessmentService assessment;

    GetCourseGradesTool(AssessmentService assessment) {
        super(
                NAME,
                "Returns the user's grades for a course, or for all their courses when no course is given.",
                SCHEMA,
                Set.of(LearningPermissions.READ));
        this.assessment = assessment;
    }

    @Override
    JsonNode call(JsonNode arguments, ToolContext context) {
        Principal principal = context.principal();
        String courseId = LearningJson.fields(arguments, Set.of("course_id")).optionalText("course_id");
        return LearningJson.grades(assessment.grades(principal, courseId));
    }
}
