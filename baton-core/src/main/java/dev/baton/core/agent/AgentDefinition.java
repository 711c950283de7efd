package dev.baton.core.agent;

import java.util.List;
import java.util.Objects;

/**
 * A configured assistant.
 *
 * @param model "provider:model", e.g. "openai:gpt-4o-mini" or "simulator:default"
 * @param tools the tool allow-list: the agent sees only tools named here
 * @param allowedRoles roles that may use the agent; empty means everyone signed in
 */
public record AgentDefinition(
        String id,
        String name,
        String description,
        String systemPrompt,
        String model,
        List<String> tools,
        List<String> allowedRoles,
        TurnLimits limits) {
    public AgentDefinition {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        description = description == null ? "" : description;
        Objects.requireNonNull(systemPrompt, "systemPrompt");
        Objects.requireNonNull(model, "model");
        tools = List.copyOf(tools == null ? List.of() : tools);
        allowedRoles = List.copyOf(allowedRoles == null ? List.of() : allowedRoles);
        limits = limits == null ? TurnLimits.DEFAULTS : limits;
    }
}
