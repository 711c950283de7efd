package dev.baton.runtime.session.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.domain.DomainTool;
import dev.baton.core.domain.ListingJson;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolException;
import dev.baton.runtime.config.Json;
import dev.baton.runtime.session.PriorSessions;
import dev.baton.runtime.session.SearchHit;
import java.util.List;
import java.util.Set;

/**
 * {@code search_prior_sessions}: full-text search over the caller's own earlier conversations (never the current
 * one, never anyone else's) → {@code {"results": [{sessionId, agentId, startedAt, snippet}], "count": N}}.
 */
final class SearchPriorSessionsTool extends DomainTool {
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

    private final PriorSessions prior;

    SearchPriorSessionsTool(PriorSessions prior) {
        super(
                NAME,
                "Search the user's own earlier conversations for words, to recall what was discussed before."
                        + " Returns matching conversations with their date and a snippet.",
                SCHEMA,
                Set.of(PriorSessions.PERMISSION));
        this.prior = prior;
    }

    @Override
    protected JsonNode run(JsonNode arguments, ToolContext context) {
        String query = arguments.path("query").asText("");
        int limit = arguments.path("limit").asInt(DEFAULT_LIMIT);
        List<SearchHit> hits;
        try {
            hits = prior.search(context.principal(), query, context.sessionId(), limit);
        } catch (PriorSessions.Refused e) {
            throw new ToolException(e.code(), e.getMessage());
        }
        return ListingJson.of(
                "results",
                hits,
                h -> Json.MAPPER
                        .createObjectNode()
                        .put("sessionId", h.sessionId())
                        .put("agentId", h.agentId())
                        .put("startedAt", h.startedAt().toString())
                        .put("snippet", h.snippet()));
    }
}
