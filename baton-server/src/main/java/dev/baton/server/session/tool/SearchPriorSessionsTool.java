package dev.baton.server.session.tool;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolException;
import dev.baton.server.http.Json;
import dev.baton.server.session.PriorSessions;
import dev.baton.store.jdbc.SearchHit;
import java.util.List;
import java.util.Set;

/**
 * {@code search_prior_sessions}: full-text search over the caller's own earlier conversations (never the current
 * one, never anyone else's) → {@code {"results": [{sessionId, agentId, startedAt, snippet}], "count": N}}.
 */
final class SearchPriorSessionsTool implements Tool {
    static final String NAME = "search_prior_sessions";
    private static final int DEFAULT_LIMIT = 5;

    private static final String SCHEMA = """
            {
              "type": "object",
              "properties": {
                "query": {"type": "string", "minLength": 1, "maxLength": 200,
                          "description": "Words to look for; every word must occur"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 10,
                          "description": "At most this many conversations (default 5)"}
              },
              "required": ["query"],
              "additionalProperties": false
            }
            """;

    private final ToolDefinition definition;
    private final PriorSessions prior;

    SearchPriorSessionsTool(PriorSessions prior) {
        this.prior = prior;
        try {
            this.definition = new ToolDefinition(
                    NAME,
                    "Search the user's own earlier conversations for words, to recall what was discussed before."
                            + " Returns matching conversations with their date and a snippet.",
                    Json.MAPPER.readTree(SCHEMA),
                    Set.of(PriorSessions.PERMISSION),
                    null);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("invalid built-in tool schema", e);
        }
    }

    @Override
    public ToolDefinition definition() {
        return definition;
    }

    @Override
    public JsonNode execute(JsonNode arguments, ToolContext context) {
        String query = arguments.path("query").asText("");
        int limit = arguments.path("limit").asInt(DEFAULT_LIMIT);
        List<SearchHit> hits;
        try {
            hits = prior.search(context.principal(), query, context.sessionId(), limit);
        } catch (PriorSessions.Refused e) {
            throw new ToolException(e.code(), e.getMessage());
        }
        ObjectNode out = Json.MAPPER.createObjectNode();
        ArrayNode results = out.putArray("results");
        for (SearchHit h : hits) {
            results.addObject()
                    .put("sessionId", h.sessionId())
                    .put("agentId", h.agentId())
                    .put("startedAt", h.startedAt().toString())
                    .put("snippet", h.snippet());
        }
        out.put("count", hits.size());
        return out;
    }
}
