package dev.baton.server.compat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigSection;
import dev.baton.runtime.config.ConfigException;
import java.util.Set;

/**
 * baton.yaml's {@code compat} section: each original design's own API, served by the same runtime, can be switched
 * off, and pointed at another agent. All are on by default:
 *
 * <pre>{@code
 * compat:
 *   aiLayer:       {enabled: true, agent: learning-platform}   # POST /v1/ai/chat, /v1/ai/execute
 *   orchestrator:  {enabled: true, agent: tasks}               # POST /chat/stream
 *   todoChatbot:   {enabled: true, agent: tasks}               # POST /api/{user_id}/chat
 *   learningAgent: {enabled: true, agent: learning}            # /api/agent/chat, /memory/{userId}, /reset/{userId}
 *   chatRuntime:   {enabled: true, agent: tasks}               # /sessions..., /admin/sessions/{id}/audit (toolId
 *                                                              # names the agent; this one when it is left out)
 * }</pre>
 *
 * A surface may also be given as a plain boolean ({@code orchestrator: false}). Each also takes
 * {@code confirmInWords} (default true): a tool call held for approval is asked about in words and the user's next
 * message decides it (the runtime's {@code ConversationalConfirmation}); false answers a pause as 202 with the calls
 * to decide through the v1 API.
 */
public record CompatSettings(
        Surface aiLayer, Surface orchestrator, Surface todoChatbot, Surface learningAgent, Surface chatRuntime) {

    /**
     * One design's API: whether it is served, which agent answers it, and whether held calls are confirmed in words.
     */
    public record Surface(boolean enabled, String agent, boolean confirmInWords) {
        /** Served or not, confirming in words. */
        public Surface(boolean enabled, String agent) {
            this(enabled, agent, true);
        }
    }

    private static final Set<String> SURFACES =
            Set.of("aiLayer", "orchestrator", "todoChatbot", "learningAgent", "chatRuntime");

    public static CompatSettings parse(JsonNode section) {
        if (!section.isMissingNode() && !section.isNull()) {
            if (!section.isObject()) throw new ConfigException("compat must be a map of surfaces");
            section.fieldNames().forEachRemaining(name -> {
                if (!SURFACES.contains(name))
                    throw new ConfigException("compat: unknown surface '" + name + "' (known: " + SURFACES + ")");
            });
        }
        return new CompatSettings(
                surface(section.path("aiLayer"), "aiLayer", "learning-platform"),
                surface(section.path("orchestrator"), "orchestrator", "tasks"),
                surface(section.path("todoChatbot"), "todoChatbot", "tasks"),
                surface(section.path("learningAgent"), "learningAgent", "learning"),
                surface(section.path("chatRuntime"), "chatRuntime", "tasks"));
    }

    private static Surface surface(JsonNode node, String name, String defaultAgent) {
        if (node.isMissingNode() || node.isNull()) return new Surface(true, defaultAgent);
        if (node.isBoolean()) return new Surface(node.booleanValue(), defaultAgent);
        if (!node.isObject()) throw new ConfigException("compat." + name + " must be true, false or a map");
        // unknown keys stop the start with their line, like every other section
        ConfigSection.of(node, "compat." + name, "enabled", "agent", "confirmInWords");
        JsonNode enabled = node.path("enabled");
        if (!enabled.isMissingNode() && !enabled.isBoolean())
            throw new ConfigException("compat." + name + ".enabled must be true or false");
        String agent = node.path("agent").asText(defaultAgent);
        if (agent.isBlank()) throw new ConfigException("compat." + name + ".agent must name an agent");
        JsonNode inWords = node.path("confirmInWords");
        if (!inWords.isMissingNode() && !inWords.isBoolean())
            throw new ConfigException("compat." + name + ".confirmInWords must be true or false");
        return new Surface(enabled.asBoolean(true), agent, inWords.asBoolean(true));
    }
}
