package dev.baton.learning.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.ToolContext;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.catalogue.CatalogueService;
import java.util.Set;

/** {@code list_courses}: every course with instructor, category and level → {@code {"courses": [...], "count"}}. */
final class ListCoursesTool extends LearningTool {
    static final String NAME = "list_courses";

    private final CatalogueService catalogue;

    ListCoursesTool(CatalogueService catalogue) {
        super(
                NAME,
                "Returns the available courses with instructor, category, level, price and whether they take"
                        + " enrolments.",
                NO_PARAMETERS,
                Set.of(LearningPermissions.READ));
        this.catalogue = catalogue;
    }

    @Override
    JsonNode call(JsonNode arguments, ToolContext context) {
        Principal principal = context.principal();
        LearningJson.fields(arguments, Set.of());
        return LearningJson.courses(catalogue.listCourses(principal));
    }
}
