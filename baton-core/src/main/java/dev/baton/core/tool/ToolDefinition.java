package dev.baton.core.tool;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * What describes a tool: the model sees name, description and schema; the executor enforces the schema,
 * the permissions and the timeout (null means the agent's default).
 *
 * @param destructive whether a call changes or deletes something that cannot simply be undone (a domain tool's
 *     declaration, {@code @BatonTool(destructive = true)}, an MCP tool's {@code destructiveHint}); under the default
 *     approval policy ({@code when_destructive}) such a call waits for the user's approval before it runs
 */
public record ToolDefinition(
        String name,
        String description,
        JsonNode parametersSchema,
        Set<String> requiredPermissions,
        Duration timeout,
        boolean destructive) {
    public ToolDefinition {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[a-zA-Z0-9_-]{1,64}")) {
            throw new IllegalArgumentException("tool name must match [a-zA-Z0-9_-]{1,64}: " + name);
        }
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(parametersSchema, "parametersSchema");
        requiredPermissions = Set.copyOf(requiredPermissions == null ? Set.of() : requiredPermissions);
    }

    /** A tool that is not destructive. */
    public ToolDefinition(
            String name,
            String description,
            JsonNode parametersSchema,
            Set<String> requiredPermissions,
            Duration timeout) {
        this(name, description, parametersSchema, requiredPermissions, timeout, false);
    }
}
