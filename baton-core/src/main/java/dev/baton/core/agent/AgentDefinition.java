package dev.baton.core.agent;

import dev.baton.core.hook.ModuleEntry;
import dev.baton.core.model.ModelRequest;
import java.util.List;
import java.util.Objects;

/**
 * A configured assistant, read once from its file (or written in code): nothing reads the file's tree afterwards.
 *
 * @param model "provider:model", e.g. "openai:gpt-4o-mini" or "simulator:default"
 * @param tools the tool allow-list: the agent sees only tools named here
 * @param allowedRoles roles that may use the agent; empty means everyone signed in
 * @param limits the per-turn limits: the org level with the agent's own {@code limits:} over it (an assignment may
 *     override them again)
 * @param fallbackModels "provider:model" references tried in order when the primary model fails or its
 *     circuit is open
 * @param temperature the sampling temperature its model calls ask for (0–2); null for the provider's default
 * @param sessionLimits the session limits its own {@code limits:} sets, over the org level of the cascade
 * @param constraints its {@code constraints:}: the prompt's {@code ## Constraints}, what the topic guard enforces
 * @param modules its own {@code modules:} entries (hooks), resolved against the org defaults by the module source
 * @param approval its {@code approval:} section: which tool calls wait for the user's approval
 * @param resources its {@code context.mcpResources}: resources of MCP servers read into every turn's system prompt
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
        Double temperature,
        SessionLimitOverrides sessionLimits,
        AgentConstraints constraints,
        List<ModuleEntry> modules,
        ApprovalRules approval,
        List<AttachedResource> resources) {
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
        if (temperature != null && !(temperature >= 0 && temperature <= ModelRequest.MAX_TEMPERATURE))
            throw new IllegalArgumentException("temperature must be a number from 0 to 2, got " + temperature);
        sessionLimits = sessionLimits == null ? SessionLimitOverrides.NONE : sessionLimits;
        constraints = constraints == null ? AgentConstraints.NONE : constraints;
        modules = List.copyOf(modules == null ? List.of() : modules);
        approval = approval == null ? ApprovalRules.NONE : approval;
        resources = List.copyOf(resources == null ? List.of() : resources);
    }

    /** An agent without attached resources. */
    public AgentDefinition(
            String id,
            String name,
            String description,
            String systemPrompt,
            String model,
            List<String> tools,
            List<String> allowedRoles,
            TurnLimits limits,
            List<String> fallbackModels,
            Double temperature,
            SessionLimitOverrides sessionLimits,
            AgentConstraints constraints,
            List<ModuleEntry> modules,
            ApprovalRules approval) {
        this(
                id,
                name,
                description,
                systemPrompt,
                model,
                tools,
                allowedRoles,
                limits,
                fallbackModels,
                temperature,
                sessionLimits,
                constraints,
                modules,
                approval,
                List.of());
    }

    /**
     * An agent defined in code: open to every role, with the default limits, no fallback models, constraints, modules
     * or approval rules of its own, at the provider's temperature.
     *
     * @param model a model reference such as {@code openai:gpt-4o-mini}
     * @param tools the names of the tools it may call
     */
    public static AgentDefinition of(String id, String systemPrompt, String model, List<String> tools) {
        return new AgentDefinition(
                id,
                id,
                "",
                systemPrompt,
                model,
                tools,
                List.of(),
                TurnLimits.DEFAULTS,
                List.of(),
                null,
                SessionLimitOverrides.NONE,
                AgentConstraints.NONE,
                List.of(),
                ApprovalRules.NONE);
    }

    /** This agent with other limits: the cascade's assignment level overrides the agent's. */
    public AgentDefinition withLimits(TurnLimits newLimits) {
        return new AgentDefinition(
                id,
                name,
                description,
                systemPrompt,
                model,
                tools,
                allowedRoles,
                newLimits,
                fallbackModels,
                temperature,
                sessionLimits,
                constraints,
                modules,
                approval,
                resources);
    }

    /** This agent answering with {@code newModel}, falling back to {@code fallbacks}. */
    public AgentDefinition withModel(String newModel, List<String> fallbacks) {
        return new AgentDefinition(
                id,
                name,
                description,
                systemPrompt,
                newModel,
                tools,
                allowedRoles,
                limits,
                fallbacks,
                temperature,
                sessionLimits,
                constraints,
                modules,
                approval,
                resources);
    }

    /** This agent asking for {@code newTemperature} (null: the provider's default). */
    public AgentDefinition withTemperature(Double newTemperature) {
        return new AgentDefinition(
                id,
                name,
                description,
                systemPrompt,
                model,
                tools,
                allowedRoles,
                limits,
                fallbackModels,
                newTemperature,
                sessionLimits,
                constraints,
                modules,
                approval,
                resources);
    }

    /** This agent open only to callers with one of {@code roles} (empty: everyone signed in). */
    public AgentDefinition withRoles(List<String> roles) {
        return new AgentDefinition(
                id,
                name,
                description,
                systemPrompt,
                model,
                tools,
                roles,
                limits,
                fallbackModels,
                temperature,
                sessionLimits,
                constraints,
                modules,
                approval,
                resources);
    }

    /** This agent with its own session limits over the org level. */
    public AgentDefinition withSessionLimits(SessionLimitOverrides newSessionLimits) {
        return new AgentDefinition(
                id,
                name,
                description,
                systemPrompt,
                model,
                tools,
                allowedRoles,
                limits,
                fallbackModels,
                temperature,
                newSessionLimits,
                constraints,
                modules,
                approval,
                resources);
    }

    /** This agent with {@code newConstraints}. */
    public AgentDefinition withConstraints(AgentConstraints newConstraints) {
        return new AgentDefinition(
                id,
                name,
                description,
                systemPrompt,
                model,
                tools,
                allowedRoles,
                limits,
                fallbackModels,
                temperature,
                sessionLimits,
                newConstraints,
                modules,
                approval,
                resources);
    }

    /** This agent with {@code newModules} as its own module entries. */
    public AgentDefinition withModules(List<ModuleEntry> newModules) {
        return new AgentDefinition(
                id,
                name,
                description,
                systemPrompt,
                model,
                tools,
                allowedRoles,
                limits,
                fallbackModels,
                temperature,
                sessionLimits,
                constraints,
                newModules,
                approval,
                resources);
    }

    /** This agent with {@code rules} deciding which tool calls wait for approval. */
    public AgentDefinition withApproval(ApprovalRules rules) {
        return new AgentDefinition(
                id,
                name,
                description,
                systemPrompt,
                model,
                tools,
                allowedRoles,
                limits,
                fallbackModels,
                temperature,
                sessionLimits,
                constraints,
                modules,
                rules,
                resources);
    }

    /** This agent reading {@code attached} into every turn's system prompt. */
    public AgentDefinition withResources(List<AttachedResource> attached) {
        return new AgentDefinition(
                id,
                name,
                description,
                systemPrompt,
                model,
                tools,
                allowedRoles,
                limits,
                fallbackModels,
                temperature,
                sessionLimits,
                constraints,
                modules,
                approval,
                attached);
    }
}
