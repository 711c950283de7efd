package dev.baton.learning.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.domain.JsonFields;
import dev.baton.core.tool.ToolContext;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.catalogue.CatalogueService;
import dev.baton.learning.catalogue.CourseQuery;
import java.util.Set;

/** {@code search_courses}: courses matching words and filters → {@code {"courses": [...], "count"}}. */
final class SearchCoursesTool extends LearningTool {
    static final String NAME = "search_courses";

    private static final String SCHEMA = """
            {
              "type": "object",
              "properties": {
                "query": {"type": "string", "minLength": 1, "maxLength": 200,
                          "description": "Words to find in a course's title, summary, instructor or category"},
                "category": {"type": "string", "maxLength": 200, "description": "e.g. Physics, Mathematics"},
                "level": {"type": "string", "enum": ["beginner", "intermediate", "advanced"]}
              },
              "required": ["query"],
              "additionalProperties": false
            }
            """;

    private final CatalogueService catalogue;

    SearchCoursesTool(CatalogueService catalogue) {
        super(NAME, "Search courses by query and filters (category, level).", SCHEMA, Set.of(LearningPermissions.READ));
        this.catalogue = catalogue;
    }

    @Override
    JsonNode call(JsonNode arguments, ToolContext context) {
        Principal principal = context.principal();
        JsonFields fields = LearningJson.fields(arguments, Set.of("query", "category", "level"));
        CourseQuery query =
                CourseQuery.of(fields.text("query"), fields.optionalText("category"), fields.optionalText("level"));
        return LearningJson.courses(catalogue.search(principal, query));
    }
}
