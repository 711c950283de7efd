package dev.baton.core.tool;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * What describes a tool: the model sees name, description and schema; the executor enforces the schema,
 * the permissions and the timeout (null means the agent's default).
 *
 * @param needsConfirmation the tool may change or destroy something the user cares about (an MCP server's
 *     {@code destructiveHint}), so a person should confirm each call before it runs; recorded here for the approval
 *     feature to act on
 */
public record ToolDefinition(
        String name,
        String description,
        JsonNode parametersSchema,
        Set<String> requiredPermissions,
        Duration timeout,
        boolean needsConfirmation) {

    /** A tool that needs no confirmation. */
    public ToolDefinition(
            String name,
            String description,
            JsonNode parametersSchema,
            Set<String> requiredPermissions,
            Duration timeout) {
        this(name, description, parametersSchema, requiredPermissions, timeout, false);
    }

    public ToolDefinition {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[a-zA-Z0-9_-]{1,64}")) {
            throw new IllegalArgumentException("tool name must match [a-zA-Z0-9_-]{1,64}: " + name);
        }
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(parametersSchema, "parametersSchema");
        requiredPermissions = Set.copyOf(requiredPermissions == null ? Set.of() : requiredPermissions);
    }
}
