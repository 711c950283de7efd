package dev.baton.learning.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.domain.JsonFields;
import dev.baton.core.tool.ToolContext;
import dev.baton.learning.LearningException;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.navigation.NavigationService;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** {@code navigate_to_route}: the app path of a feature → {@code {"route", "path"}}; a static map, no backend call. */
final class NavigateToRouteTool extends LearningTool {
    static final String NAME = "navigate_to_route";

    private final NavigationService navigation;

    NavigateToRouteTool(NavigationService navigation) {
        super(
                NAME,
                "Returns the app route (path) for a feature, so the app can take the user there.",
                schema(),
                Set.of(LearningPermissions.READ));
        this.navigation = navigation;
    }

    @Override
    JsonNode call(JsonNode arguments, ToolContext context) {
        Principal principal = context.principal();
        JsonFields fields = LearningJson.fields(arguments, Set.of("route_name", "params"));
        Map<String, String> params = new LinkedHashMap<>();
        JsonNode given = arguments.path("params");
        if (!given.isMissingNode() && !given.isNull()) {
            if (!given.isObject()) throw LearningException.malformed("params must be an object of strings");
            for (var entry : given.properties()) {
                if (!entry.getValue().isTextual())
                    throw LearningException.malformed("params." + entry.getKey() + " must be a string");
                params.put(entry.getKey(), entry.getValue().textValue());
            }
        }
        return LearningJson.resolved(navigation.resolve(principal, fields.text("route_name"), params));
    }

    // the route names are the schema's enum, so a model can only ask for a route that exists
    private static String schema() {
        StringBuilder names = new StringBuilder();
        for (var route : NavigationService.ROUTES) {
            if (!names.isEmpty()) names.append(", ");
            names.append('"').append(route.name()).append('"');
        }
        return """
                {
                  "type": "object",
                  "properties": {
                    "route_name": {"type": "string", "enum": [%s]},
                    "params": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 200},
                               "description": "The route's parameters, e.g. {\\"course_id\\": \\"calculus-1\\"}"}
                  },
                  "required": ["route_name"],
                  "additionalProperties": false
                }
                """.formatted(names);
    }
}
