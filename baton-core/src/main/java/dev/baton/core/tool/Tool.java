package dev.baton.core.tool;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * A function the model may call. Implementations are thin adapters: map the (already schema-validated)
 * arguments onto one domain service call made as {@code context.principal()}, and return its result as JSON.
 */
public interface Tool {

    ToolDefinition definition();

    /**
     * @throws ToolException with a message safe to show the model when the domain refuses the call
     */
    JsonNode execute(JsonNode arguments, ToolContext context);

    /**
     * One line that says what a call with {@code arguments} would do, in the user's terms, for a prompt that asks the
     * user to approve it ("Delete the task 'buy wax'"): from the arguments and the domain, read as
     * {@code context.principal()} (never another user's data). Empty (the default) when the tool has nothing better
     * than its name and arguments, which the runtime shows then; a failure here is treated as empty.
     */
    default Optional<String> summary(JsonNode arguments, ToolContext context) {
        return Optional.empty();
    }
}
