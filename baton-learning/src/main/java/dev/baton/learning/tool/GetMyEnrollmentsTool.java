package dev.baton.learning.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.ToolContext;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.enrolment.LearningService;
import java.util.Set;

/** {@code get_my_enrollments}: the caller's courses and progress → {@code {"enrollments": [...], "count"}}. */
final class GetMyEnrollmentsTool extends LearningTool {
    static final String NAME = "get_my_enrollments";

    private final LearningService learning;

    GetMyEnrollmentsTool(LearningService learning) {
        super(
                NAME,
                "Returns the current user's enrolled courses and their progress.",
                NO_PARAMETERS,
                Set.of(LearningPermissions.READ));
        this.learning = learning;
    }

    @Override
    JsonNode call(JsonNode arguments, ToolContext context) {
        Principal principal = context.principal();
        LearningJson.fields(arguments, Set.of());
        return LearningJson.enrolments(learning.enrolments(principal));
    }
}
