package dev.baton.learning.tool;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolException;
import dev.baton.core.tool.ToolSource;
import dev.baton.core.turn.Cancellation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Calls a source's tools as the executor would, with a context for the given caller. */
final class ToolCalls {
    private final ToolSource source;

    ToolCalls(ToolSource source) {
        this.source = source;
    }

    JsonNode call(String name, Principal principal, String arguments) {
        try {
            return tool(name).execute(LearningJson.MAPPER.readTree(arguments), context(principal));
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    ToolException refusal(String name, Principal principal, String arguments) {
        try {
            JsonNode result = call(name, principal, arguments);
            throw new AssertionError(name + " should have been refused but returned " + result);
        } catch (ToolException e) {
            return e;
        }
    }

    Tool tool(String name) {
        return source.tools().stream()
                .filter(t -> t.definition().name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no tool " + name));
    }

    static ToolContext context(Principal principal) {
        return new ToolContext(principal, "session-1", Instant.now().plusSeconds(10), new Cancellation());
    }

    static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
