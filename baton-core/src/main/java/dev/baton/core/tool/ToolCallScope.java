package dev.baton.core.tool;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.turn.Cancellation;
import java.time.Duration;
import java.util.Objects;

/**
 * Who a batch of tool calls runs for and under which bounds.
 *
 * @param agent whose allow-list decides which tools exist
 * @param principal the caller; tools act as this user and need their permissions
 * @param defaultTimeout used for tools whose definition sets none (the turn's toolTimeout)
 * @param cancellation cancelling it interrupts running tools
 * @param timeLeft what is left of the request's time: no tool runs longer, whatever its own timeout says; null when
 *     the request has no time limit
 * @param turnId the turn whose step makes the calls: with each call's id, it makes the call's
 *     {@link ToolContext#idempotencyKey}; null for calls no turn makes
 * @param transactions where the calls of transactional tools commit with their record; {@link TransactionalCalls#NONE}
 *     outside a durable turn
 */
public record ToolCallScope(
        AgentDefinition agent,
        Principal principal,
        String sessionId,
        Duration defaultTimeout,
        Cancellation cancellation,
        Duration timeLeft,
        String turnId,
        TransactionalCalls transactions) {
    public ToolCallScope {
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(defaultTimeout, "defaultTimeout");
        Objects.requireNonNull(cancellation, "cancellation");
        Objects.requireNonNull(transactions, "transactions");
        if (defaultTimeout.isNegative() || defaultTimeout.isZero()) {
            throw new IllegalArgumentException("defaultTimeout must be positive");
        }
        if (timeLeft != null && (timeLeft.isNegative() || timeLeft.isZero())) {
            throw new IllegalArgumentException("timeLeft must be positive");
        }
    }

    /** Calls whose transactional tools run as any other. */
    public ToolCallScope(
            AgentDefinition agent,
            Principal principal,
            String sessionId,
            Duration defaultTimeout,
            Cancellation cancellation,
            Duration timeLeft,
            String turnId) {
        this(agent, principal, sessionId, defaultTimeout, cancellation, timeLeft, turnId, TransactionalCalls.NONE);
    }

    /** Calls no turn makes. */
    public ToolCallScope(
            AgentDefinition agent,
            Principal principal,
            String sessionId,
            Duration defaultTimeout,
            Cancellation cancellation,
            Duration timeLeft) {
        this(agent, principal, sessionId, defaultTimeout, cancellation, timeLeft, null);
    }

    /** A scope whose request has no overall time limit. */
    public ToolCallScope(
            AgentDefinition agent,
            Principal principal,
            String sessionId,
            Duration defaultTimeout,
            Cancellation cancellation) {
        this(agent, principal, sessionId, defaultTimeout, cancellation, null, null);
    }
}
