package dev.baton.runtime.session;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.baton.core.agent.TurnLimits;
import dev.baton.core.config.ConfigNodes;
import dev.baton.runtime.config.Json;
import java.util.Objects;

/**
 * A session's effective configuration: what the cascade org → agent → assignment resolved when it started. Stored
 * with the session ({@code sessions.config_json}), so changing baton.yaml later does not change the rules of a
 * session already running.
 */
public record SessionConfig(TurnLimits turn, SessionLimits session) {
    public SessionConfig {
        Objects.requireNonNull(turn, "turn");
        Objects.requireNonNull(session, "session");
    }

    /** {@code {"limits": {maxIterations, …, llmTimeout: "PT30S", …, maxMessages, maxSessionDuration, …}}} */
    public String toJson() {
        ObjectNode root = Json.MAPPER.createObjectNode();
        ObjectNode l = root.putObject("limits");
        l.put("maxIterations", turn.maxIterations());
        l.put("maxToolCallsPerTurn", turn.maxToolCallsPerTurn());
        l.put("maxToolCallsPerConversation", turn.maxToolCallsPerConversation());
        l.put("historyMessages", turn.historyMessages());
        l.put("historyTokens", turn.historyTokens());
        l.put("maxContextTokens", turn.maxContextTokens());
        l.put("llmTimeout", turn.llmTimeout().toString());
        l.put("toolTimeout", turn.toolTimeout().toString());
        l.put(
                "requestTimeout",
                turn.requestTimeout() == null ? null : turn.requestTimeout().toString());
        if (session.maxMessages() != null) l.put("maxMessages", session.maxMessages());
        if (session.maxSessionDuration() != null)
            l.put("maxSessionDuration", session.maxSessionDuration().toString());
        l.put("inactivityTimeout", session.inactivityTimeout().toString());
        return root.toString();
    }

    /**
     * Sessions' configurations read lately, by their JSON text: every turn reads its session's, and most sessions share
     * a handful of them (one per agent and assignment), so parsing the JSON and its durations every turn was waste.
     */
    private static final Cache<String, SessionConfig> READ =
            Caffeine.newBuilder().maximumSize(1_000).build();

    /** Reads what {@link #toJson} wrote; anything missing takes the defaults. */
    public static SessionConfig fromJson(String json) {
        return READ.get(json, SessionConfig::parse);
    }

    private static SessionConfig parse(String json) {
        JsonNode limits;
        try {
            limits = Json.MAPPER.readTree(json).path("limits");
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("sessions.config_json is not JSON", e);
        }
        return new SessionConfig(
                ConfigNodes.limits(limits, TurnLimits.DEFAULTS), SessionLimits.overlay(limits, SessionLimits.DEFAULTS));
    }
}
