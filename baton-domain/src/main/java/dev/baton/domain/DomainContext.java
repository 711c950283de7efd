package dev.baton.domain;

import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.model.CostCalculator;
import dev.baton.runtime.admission.AdmittedModelCalls;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.delivery.DeliveredMessages;
import dev.baton.store.jdbc.Database;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;

/**
 * What a domain is started with.
 *
 * @param database the opened database, migrated with the domain's migrations
 * @param settings what the domain's {@link Domain#readSettings} returned (null for none)
 * @param modelCalls the only way a domain calls a model: under the turns' admission (rate limits, budgets, the cost
 *     ceiling), through the models every turn uses (retries, breakers, metrics included), with usage recorded; null
 *     when the domain runs without a runtime ({@code baton mcp-server})
 * @param agents the configured agents; null without a runtime
 * @param conversations the runtime's conversation store; null without a runtime
 * @param costs what a model call costs (usage a domain records itself); null without a runtime
 * @param deliveries puts what a background job prepared into the session that asked for it, as an assistant
 *     message; null without a runtime
 */
public record DomainContext(
        Database database,
        Clock clock,
        Object settings,
        AdmittedModelCalls modelCalls,
        AgentRegistry agents,
        ConversationStore conversations,
        CostCalculator costs,
        DeliveredMessages deliveries) {

    public DomainContext {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(clock, "clock");
    }

    /** A context whose domain delivers nothing into sessions. */
    public DomainContext(
            Database database,
            Clock clock,
            Object settings,
            AdmittedModelCalls modelCalls,
            AgentRegistry agents,
            ConversationStore conversations,
            CostCalculator costs) {
        this(database, clock, settings, modelCalls, agents, conversations, costs, null);
    }

    /** A context with only a database: the domain serves its tools and REST routes, with no runtime beside it. */
    public static DomainContext standalone(Database database, Clock clock, Object settings) {
        return new DomainContext(database, clock, settings, null, null, null, null);
    }

    /**
     * The domain's own settings.
     *
     * @throws IllegalStateException when they are not of {@code type} (the domain read something else)
     */
    public <S> S settings(Class<S> type) {
        if (!type.isInstance(settings))
            throw new IllegalStateException("the domain's settings are "
                    + (settings == null ? "none" : settings.getClass().getName()) + ", not " + type.getName());
        return type.cast(settings);
    }

    /** True when a runtime runs beside the domain: model calls, agents and the conversation store are there. */
    public boolean withRuntime() {
        return modelCalls != null && agents != null && conversations != null && costs != null;
    }

    /** The runtime's conversation store, when there is one. */
    public Optional<ConversationStore> conversationStore() {
        return Optional.ofNullable(conversations);
    }

    /** The runtime's way into a session for a background job's result, when there is one. */
    public Optional<DeliveredMessages> messageDeliveries() {
        return Optional.ofNullable(deliveries);
    }
}
