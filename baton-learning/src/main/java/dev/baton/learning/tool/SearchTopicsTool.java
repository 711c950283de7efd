package dev.baton.learning.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.domain.JsonFields;
import dev.baton.core.tool.ToolContext;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.library.LibraryService;
import java.util.Set;

/** {@code searchTopics(query, limit)} → {@code {exactMatch, fuzzyMatches, found}}, forgiving misspellings. */
final class SearchTopicsTool extends LearningTool {
    static final String NAME = "searchTopics";

    private static final String SCHEMA = """
            {
              "type": "object",
              "properties": {
                "query": {"type": "string", "minLength": 1, "maxLength": 200,
                          "description": "The topic to search for (e.g. \\"quantum physics\\"); misspellings are fine"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5,
                          "description": "Max fuzzy results (default: 5)"}
              },
              "required": ["query"],
              "additionalProperties": false
            }
            """;

    private final LibraryService library;

    SearchTopicsTool(LibraryService library) {
        super(
                NAME,
                "Search for existing learning content in our library. Use when the user mentions a specific topic"
                        + " to see if we have content.",
                SCHEMA,
                Set.of(LearningPermissions.READ));
        this.library = library;
    }

    @Override
    JsonNode call(JsonNode arguments, ToolContext context) {
        Principal principal = context.principal();
        JsonFields fields = LearningJson.fields(arguments, Set.of("query", "limit"));
        Integer limit = arguments.hasNonNull("limit") ? LearningJson.integer(arguments, "limit") : null;
        return AgentJson.search(library.search(principal, fields.text("query"), limit));
    }
}
