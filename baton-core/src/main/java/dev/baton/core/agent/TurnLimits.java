package dev.baton.core.agent;

import java.time.Duration;

/** The bounds one turn runs under, resolved from configuration for a session. */
public record TurnLimits(
        int maxIterations,
        int maxToolCallsPerTurn,
        int maxToolCallsPerConversation,
        int historyMessages,
        int historyTokens,
        int maxContextTokens,
        Duration llmTimeout,
        Duration toolTimeout,
        Duration requestTimeout) {

    public static final TurnLimits DEFAULTS = new TurnLimits(
            5, 10, 50, 20, 4000, 128_000, Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(45));

    public TurnLimits {
        if (maxIterations < 1) throw new IllegalArgumentException("maxIterations must be >= 1");
        if (maxToolCallsPerTurn < 0) throw new IllegalArgumentException("maxToolCallsPerTurn must be >= 0");
        if (maxToolCallsPerConversation < 0)
            throw new IllegalArgumentException("maxToolCallsPerConversation must be >= 0");
        if (historyMessages < 0) throw new IllegalArgumentException("historyMessages must be >= 0");
        if (historyTokens < 0) throw new IllegalArgumentException("historyTokens must be >= 0");
    }
}
