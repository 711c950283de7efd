package dev.baton.core.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.List;
import java.util.Objects;

/**
 * A configured assistant.
 *
 * @param model "provider:model", e.g. "openai:gpt-4o-mini" or "simulator:default"
 * @param tools the tool allow-list: the agent sees only tools named here
 * @param allowedRoles roles that may use the agent; empty means everyone signed in
 * @param fallbackModels "provider:model" references tried in order when the primary model fails or its
 *     circuit is open
 * @param definition the agent's whole definition as configured (YAML as a JSON tree): modules, constraints and
 *     other sections are read from here by the features that own them
 */
public record AgentDefinition(
        String id,
        String name,
        String description,
        String systemPrompt,
        String model,
        List<String> tools,
        List<String> allowedRoles,
        TurnLimits limits,
        List<String> fallbackModels,
        JsonNode definition) {
    public AgentDefinition {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        description = description == null ? "" : description;
        Objects.requireNonNull(systemPrompt, "systemPrompt");
        Objects.requireNonNull(model, "model");
        tools = List.copyOf(tools == null ? List.of() : tools);
        allowedRoles = List.copyOf(allowedRoles == null ? List.of() : allowedRoles);
        limits = limits == null ? TurnLimits.DEFAULTS : limits;
        fallbackModels = List.copyOf(fallbackModels == null ? List.of() : fallbackModels);
        definition = definition == null ? JsonNodeFactory.instance.objectNode() : definition.deepCopy();
    }

    /** This agent with other limits: the cascade's assignment level overrides the agent's. */
    /**
     * An agent defined in code: open to every role, with the default limits and no fallback models.
     *
     * @param model a model reference such as {@code openai:gpt-4o-mini}
     * @param tools the names of the tools it may call
     */
    public static AgentDefinition of(String id, String systemPrompt, String model, List<String> tools) {
        return new AgentDefinition(
                id, id, "", systemPrompt, model, tools, List.of(), TurnLimits.DEFAULTS, List.of(), null);
    }

    /**
     * The sampling temperature its model calls ask for ({@code temperature} in its definition, 0–2); null for the
     * provider's default.
     */
    public Double temperature() {
        JsonNode t = definition.path("temperature");
        return t.isNumber() ? t.doubleValue() : null;
    }

    public AgentDefinition withLimits(TurnLimits newLimits) {
        return new AgentDefinition(
                id, name, description, systemPrompt, model, tools, allowedRoles, newLimits, fallbackModels, definition);
    }
}
