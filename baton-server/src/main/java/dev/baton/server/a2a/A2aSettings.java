package dev.baton.server.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.config.ConfigSection;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.config.ConfigException;
import java.util.ArrayList;
import java.util.List;

/**
 * The door's part of baton.yaml's {@code a2a} section (the assembly reads {@code remotes}, the remote agents Baton
 * calls as tools):
 *
 * <pre>{@code
 * a2a:
 *   enabled: true                          # false: no cards, and /v1/a2a/... is 404
 *   agents: [tasks]                        # the agents with a card; default: those every signed-in user may use
 *   defaultAgent: tasks                    # the agent of /.well-known/agent-card.json; default: the first of agents
 *   publicUrl: https://baton.example.com   # the base of the URLs a card names; default: the request's own
 * }</pre>
 *
 * @param agents the agent ids with a card, in order; null for every agent without {@code allowedRoles}
 * @param publicUrl null to take the base from each card request
 */
public record A2aSettings(boolean enabled, List<String> agents, String defaultAgent, String publicUrl) {

    /** Every key of the section: the door's and the assembly's ({@code remotes}). */
    static final String[] KEYS = {"enabled", "agents", "defaultAgent", "publicUrl", "remotes"};

    public A2aSettings {
        agents = agents == null ? null : List.copyOf(agents);
    }

    public static A2aSettings parse(JsonNode section) {
        if (section.isMissingNode() || section.isNull()) return new A2aSettings(true, null, null, null);
        if (!section.isObject()) throw new ConfigException("a2a must be a map");
        ConfigSection.of(section, "a2a", KEYS);
        JsonNode enabled = section.path("enabled");
        if (!enabled.isMissingNode() && !enabled.isBoolean())
            throw new ConfigException("a2a.enabled must be true or false");
        List<String> agents = null;
        JsonNode list = section.path("agents");
        if (!list.isMissingNode()) {
            if (!list.isArray()) throw new ConfigException("a2a.agents must be a list of agent ids");
            agents = new ArrayList<>();
            for (JsonNode id : list) {
                if (!id.isTextual() || id.asText().isBlank())
                    throw new ConfigException("a2a.agents must be a list of agent ids");
                agents.add(id.asText());
            }
        }
        String publicUrl = text(section, "publicUrl");
        if (publicUrl != null) {
            if (!publicUrl.startsWith("http://") && !publicUrl.startsWith("https://"))
                throw new ConfigException("a2a.publicUrl must be an http(s) URL");
            while (publicUrl.endsWith("/")) publicUrl = publicUrl.substring(0, publicUrl.length() - 1);
        }
        return new A2aSettings(enabled.asBoolean(true), agents, text(section, "defaultAgent"), publicUrl);
    }

    private static String text(JsonNode section, String field) {
        JsonNode v = section.path(field);
        if (v.isMissingNode() || v.isNull()) return null;
        if (!v.isTextual() || v.asText().isBlank()) throw new ConfigException("a2a." + field + " must be a string");
        return v.asText();
    }

    /**
     * The agents with a card, in order.
     *
     * @throws ConfigException when a named agent is not configured
     */
    List<AgentDefinition> exposed(AgentRegistry registry) {
        if (agents == null)
            return registry.all().stream()
                    .filter(a -> a.allowedRoles().isEmpty())
                    .toList();
        return agents.stream()
                .map(id -> registry.find(id)
                        .orElseThrow(() -> new ConfigException("a2a.agents: agent '" + id + "' is not configured")))
                .toList();
    }
}
