package dev.baton.server.openai;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.runtime.Baton;
import dev.baton.runtime.conversation.HistoryKeys;
import dev.baton.server.http.Caller;
import dev.baton.server.http.ErrorResponses;
import dev.baton.server.http.Json;
import dev.baton.server.http.SseStreams;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Clock;

/**
 * The OpenAI-compatible door (docs/openai-compat.md): {@code GET /v1/models} lists the agents the caller may use as
 * models, {@code POST /v1/chat/completions} runs a turn with one of them, {@code POST /v1/responses} runs one as a
 * Responses API response (approvals as {@code mcp_approval_request} items) and {@code GET /v1/responses/{id}} reads it
 * back. Errors on these paths have OpenAI's shape
 * ({@code OpenAiErrorShape}); their statuses are {@link ErrorResponses}' as everywhere.
 */
public final class OpenAiRoutes {
    private final Baton baton;
    private final ChatCompletions completions;
    private final Responses responses;
    private final long created;

    /**
     * @param keys where the digests of the clients' histories are kept (the database's, so any instance finds them)
     */
    public OpenAiRoutes(Baton baton, HistoryKeys keys, int maxBodyBytes, SseStreams streams, Clock clock) {
        this.baton = baton;
        this.completions = new ChatCompletions(
                baton.conversations(), baton.agents(), keys, new OpenAiBodies(maxBodyBytes), streams, clock);
        OpenAiBodies bodies = new OpenAiBodies(maxBodyBytes);
        this.responses = new Responses(
                baton.conversations(),
                baton.approvals(),
                baton.sessions(),
                baton.agents(),
                keys,
                bodies,
                streams,
                clock);
        this.created = clock.instant().getEpochSecond();
    }

    public void register(RoutesConfig routes) {
        routes.exception(
                InvalidRequest.class,
                (e, ctx) -> ErrorResponses.write(ctx, e.status(), e.code(), e.getMessage(), e.param()));
        routes.get("/v1/models", this::models);
        routes.post("/v1/chat/completions", completions::handle);
        routes.post("/v1/responses", responses::create);
        routes.get("/v1/responses/{id}", responses::get);
    }

    private void models(Context ctx) {
        ObjectNode list = Json.MAPPER.createObjectNode().put("object", "list");
        ArrayNode data = list.putArray("data");
        for (AgentDefinition agent : baton.agents().usableBy(Caller.of(ctx))) {
            data.addObject()
                    .put("id", agent.id())
                    .put("object", "model")
                    .put("created", created)
                    .put("owned_by", "baton");
        }
        ctx.json(list);
    }
}
