package dev.baton.learning.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.ToolContext;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.library.LibraryService;
import java.util.Set;

/** {@code detectGranularity(input)} → {@code {granularity: subject|topic|module, reasoning, inLibrary, match}}. */
final class DetectGranularityTool extends LearningTool {
    static final String NAME = "detectGranularity";

    private static final String SCHEMA = """
            {
              "type": "object",
              "properties": {
                "input": {"type": "string", "minLength": 1, "maxLength": 200,
                          "description": "The user's learning request"}
              },
              "required": ["input"],
              "additionalProperties": false
            }
            """;

    private final LibraryService library;

    DetectGranularityTool(LibraryService library) {
        super(
                NAME,
                "Classify a learning request as subject (broad), topic (focused) or module (specific), from our topic"
                        + " library, with the reasoning.",
                SCHEMA,
                Set.of(LearningPermissions.READ));
        this.library = library;
    }

    @Override
    JsonNode call(JsonNode arguments, ToolContext context) {
        Principal principal = context.principal();
        String input = LearningJson.fields(arguments, Set.of("input")).text("input");
        return AgentJson.verdict(library.detectGranularity(principal, input));
    }
}
