package dev.baton.core.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
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
 * @param sharedWith empty when each caller's data is their own (every built-in tool); otherwise the tool works on one
 *     set of data for every caller (an MCP server the operator declared {@code state: shared}), and only callers
 *     holding one of these roles may use it
 * @param idempotent whether running a call twice with the same arguments has the effect of running it once (a domain
 *     tool's {@code @BatonTool(idempotent = true)}, a trusted MCP server's {@code idempotentHint} or
 *     {@code readOnlyHint}): a call that was running when its instance died is run again by the instance that takes
 *     the turn over, where any other call's unknown outcome is reported instead
 * @param transactional whether the tool's effect is writes to Baton's own database (a domain tool's
 *     {@code @BatonTool(transactional = true)}): in a durable turn, its writes and the record of its call commit in one
 *     transaction ({@link TransactionalCalls}), so after a crash the effect is either recorded or absent; a call that was
 *     running when its instance died left no effect, and is run again by the instance that takes the turn over
 */
public record ToolDefinition(
        String name,
        String description,
        JsonNode parametersSchema,
        Set<String> requiredPermissions,
        Duration timeout,
        boolean destructive,
        Set<String> sharedWith,
        boolean idempotent,
        boolean transactional) {
    public ToolDefinition {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[a-zA-Z0-9_-]{1,64}")) {
            throw new IllegalArgumentException("tool name must match [a-zA-Z0-9_-]{1,64}: " + name);
        }
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(parametersSchema, "parametersSchema");
        requiredPermissions = Set.copyOf(requiredPermissions == null ? Set.of() : requiredPermissions);
        sharedWith = Set.copyOf(sharedWith == null ? Set.of() : sharedWith);
    }

    /** A tool that is not transactional. */
    public ToolDefinition(
            String name,
            String description,
            JsonNode parametersSchema,
            Set<String> requiredPermissions,
            Duration timeout,
            boolean destructive,
            Set<String> sharedWith,
            boolean idempotent) {
        this(
                name,
                description,
                parametersSchema,
                requiredPermissions,
                timeout,
                destructive,
                sharedWith,
                idempotent,
                false);
    }

    /** A tool that is not declared idempotent. */
    public ToolDefinition(
            String name,
            String description,
            JsonNode parametersSchema,
            Set<String> requiredPermissions,
            Duration timeout,
            boolean destructive,
            Set<String> sharedWith) {
        this(name, description, parametersSchema, requiredPermissions, timeout, destructive, sharedWith, false);
    }

    /** A tool whose data is each caller's own. */
    public ToolDefinition(
            String name,
            String description,
            JsonNode parametersSchema,
            Set<String> requiredPermissions,
            Duration timeout,
            boolean destructive) {
        this(name, description, parametersSchema, requiredPermissions, timeout, destructive, Set.of());
    }

    /** Whether every caller works on the same data (see {@link #sharedWith}). */
    public boolean sharedData() {
        return !sharedWith.isEmpty();
    }

    /** Whether the caller may use it: holds its permissions and, for a tool of shared data, one of its roles. */
    public boolean usableBy(Principal caller) {
        return caller.hasAllPermissions(requiredPermissions)
                && (sharedWith.isEmpty() || caller.roles().stream().anyMatch(sharedWith::contains));
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
