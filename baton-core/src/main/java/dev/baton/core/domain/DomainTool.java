package dev.baton.core.domain;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.json.PooledJsonFactory;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolException;
import java.util.Set;

/**
 * A built-in tool over one domain service: its definition is declared with a JSON Schema text, and a
 * {@link DomainException} the service throws reaches the model as a {@link ToolException} with the same code and
 * message. Subclasses are thin adapters: map the arguments onto one service call made as
 * {@code context.principal()}, never as anyone the arguments name.
 */
public abstract class DomainTool implements Tool {
    private static final ObjectMapper MAPPER = new ObjectMapper(PooledJsonFactory.create());

    private final ToolDefinition definition;

    /**
     * @param schemaJson the parameters' JSON Schema
     * @param permissions what the caller must hold; the executor checks them before {@link #run}
     */
    protected DomainTool(String name, String description, String schemaJson, Set<String> permissions) {
        this(name, description, schemaJson, permissions, false);
    }

    /**
     * @param destructive whether a call changes or deletes something that cannot simply be undone: under the default
     *     approval policy such a call waits for the user's approval (see {@link ToolDefinition#destructive()})
     */
    protected DomainTool(
            String name, String description, String schemaJson, Set<String> permissions, boolean destructive) {
        this(name, description, schemaJson, permissions, destructive, false);
    }

    /**
     * @param transactional whether the call's effect is the service's writes to Baton's database: in a durable turn
     *     they commit with the call's record, in one transaction (see {@link ToolDefinition#transactional()})
     */
    protected DomainTool(
            String name,
            String description,
            String schemaJson,
            Set<String> permissions,
            boolean destructive,
            boolean transactional) {
        this.definition = new ToolDefinition(
                name, description, schema(schemaJson), permissions, null, destructive, Set.of(), false, transactional);
    }

    @Override
    public final ToolDefinition definition() {
        return definition;
    }

    @Override
    public final JsonNode execute(JsonNode arguments, ToolContext context) {
        try {
            return run(arguments, context);
        } catch (DomainException e) {
            throw new ToolException(e.code(), e.getMessage());
        }
    }

    /** The one service call; a {@link DomainException} it throws becomes the tool's refusal. */
    protected abstract JsonNode run(JsonNode arguments, ToolContext context);

    // built-in schemas are constants: one that does not parse is a bug, not a runtime condition
    private static JsonNode schema(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("invalid built-in tool schema", e);
        }
    }
}
