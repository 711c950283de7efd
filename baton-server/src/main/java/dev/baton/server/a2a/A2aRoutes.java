package dev.baton.server.a2a;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.turn.TurnEvent;
import dev.baton.runtime.Baton;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.conversation.SendOptions;
import dev.baton.runtime.stream.FollowedTurns;
import dev.baton.runtime.stream.TurnEventLog;
import dev.baton.server.http.ApiException;
import dev.baton.server.http.Caller;
import dev.baton.server.http.Json;
import dev.baton.server.http.QuotaHeaders;
import dev.baton.server.http.RequestBody;
import dev.baton.server.http.RequestIds;
import dev.baton.server.http.SseStreams;
import dev.baton.server.http.SseTurnListener;
import dev.baton.server.http.SseWriter;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Baton's A2A door (protocol 1.0, JSON-RPC binding): the public Agent Cards at {@code /.well-known/agent-card.json}
 * (the default agent) and {@code /a2a/{agentId}/.well-known/agent-card.json}, and each exposed agent's JSON-RPC
 * endpoint {@code POST /v1/a2a/{agentId}} — behind the same Bearer JWT as the rest of /v1 (401 without) — serving
 * {@code SendMessage}, {@code SendStreamingMessage}, {@code GetTask}, {@code CancelTask} and {@code SubscribeToTask}.
 * A thin translation: {@link A2aTasks} runs everything through the runtime.
 */
public final class A2aRoutes {
    private static final Logger log = LoggerFactory.getLogger(A2aRoutes.class);
    /** How long one read of a followed task waits before the loop checks the client again. */
    private static final Duration POLL = Duration.ofSeconds(1);

    private final Map<String, AgentDefinition> exposed = new LinkedHashMap<>();
    private final String defaultAgent;
    private final String publicUrl;
    private final AgentCards cards;
    private final A2aTasks tasks;
    private final int maxBodyBytes;
    private final SseStreams streams;

    A2aRoutes(
            List<AgentDefinition> exposed,
            String defaultAgent,
            String publicUrl,
            AgentCards cards,
            A2aTasks tasks,
            int maxBodyBytes,
            SseStreams streams) {
        exposed.forEach(a -> this.exposed.put(a.id(), a));
        this.defaultAgent = defaultAgent;
        this.publicUrl = publicUrl;
        this.cards = cards;
        this.tasks = tasks;
        this.maxBodyBytes = maxBodyBytes;
        this.streams = streams;
    }

    /**
     * The door's routes as {@code settings} has them: none when it is off.
     *
     * @param oidcIssuer the identity provider's issuer when tokens are verified against its JWKS (the cards then name
     *     its OpenID configuration); null otherwise
     * @throws ConfigException when {@code a2a.agents} or {@code a2a.defaultAgent} names an agent without a card
     */
    public static List<Consumer<RoutesConfig>> groups(
            A2aSettings settings, Baton baton, String oidcIssuer, int maxBodyBytes, SseStreams streams, Clock clock) {
        if (!settings.enabled()) return List.of();
        List<AgentDefinition> exposed = settings.exposed(baton.agents());
        String named = settings.defaultAgent();
        if (named != null && exposed.stream().noneMatch(a -> a.id().equals(named)))
            throw new ConfigException("a2a.defaultAgent '" + named + "' is not one of the agents with a card");
        String defaultAgent = named != null
                ? named
                : exposed.isEmpty() ? null : exposed.getFirst().id();
        A2aTasks tasks = new A2aTasks(
                baton.conversations(),
                baton.sessions(),
                baton.approvals(),
                baton.turnEvents(),
                baton.followedTurns(),
                clock);
        return List.of(new A2aRoutes(
                exposed,
                defaultAgent,
                settings.publicUrl(),
                new AgentCards(baton.tools(), oidcIssuer),
                tasks,
                maxBodyBytes,
                streams)::register);
    }

    public void register(RoutesConfig routes) {
        routes.get("/.well-known/agent-card.json", ctx -> card(ctx, defaultAgent));
        routes.get("/a2a/{agentId}/.well-known/agent-card.json", ctx -> card(ctx, ctx.pathParam("agentId")));
        routes.post("/v1/a2a/{agentId}", this::rpc);
    }

    private void card(Context ctx, String agentId) {
        AgentDefinition agent = agentId == null ? null : exposed.get(agentId);
        if (agent == null) throw new ApiException(404, "not_found", "no agent card here");
        // a card built from the request's Host must not be cached for anyone else
        ctx.header("Cache-Control", publicUrl != null ? "public, max-age=300" : "no-cache");
        ctx.json(cards.card(agent, baseUrl(ctx)));
    }

    /** The configured public URL, else the scheme and host the request came to. */
    private String baseUrl(Context ctx) {
        if (publicUrl != null) return publicUrl;
        String host = ctx.header("Host");
        return ctx.scheme() + "://" + (host != null ? host : ctx.host());
    }

    private void rpc(Context ctx) throws IOException {
        AgentDefinition agent = exposed.get(ctx.pathParam("agentId"));
        if (agent == null) throw new ApiException(404, "not_found", "no such A2A agent");
        Principal caller = Caller.of(ctx);
        String raw = RequestBody.readUtf8(ctx.req().getInputStream(), ctx.req().getContentLengthLong(), maxBodyBytes);
        JsonNode id = null;
        try {
            JsonNode request = parse(raw);
            id = request.get("id");
            checkVersion(ctx.header("A2A-Version"));
            JsonNode params = request.path("params");
            if (!params.isObject()) throw A2aError.invalidParams("params must be an object");
            switch (request.path("method").asText()) {
                case "SendMessage" -> sendMessage(ctx, caller, agent, id, params);
                case "SendStreamingMessage" -> sendStreamingMessage(ctx, caller, agent, id, params);
                case "GetTask" -> ctx.json(A2aWire.result(id, tasks.get(caller, agent.id(), taskId(params))));
                case "CancelTask" -> ctx.json(A2aWire.result(id, tasks.cancel(caller, agent.id(), taskId(params))));
                case "SubscribeToTask" -> subscribe(ctx, caller, agent.id(), id, taskId(params));
                case "CreateTaskPushNotificationConfig",
                        "GetTaskPushNotificationConfig",
                        "ListTaskPushNotificationConfigs",
                        "DeleteTaskPushNotificationConfig" ->
                    throw new A2aError(
                            A2aError.PUSH_NOTIFICATION_NOT_SUPPORTED,
                            "push notifications are not supported",
                            "unsupported");
                default ->
                    throw new A2aError(
                            A2aError.METHOD_NOT_FOUND,
                            "method not found: " + request.path("method").asText(),
                            "method_not_found");
            }
        } catch (RefusalException e) {
            error(ctx, id, A2aError.of(e.refusal()));
        } catch (A2aError e) {
            error(ctx, id, e);
        }
    }

    private static JsonNode parse(String raw) {
        JsonNode request;
        try {
            request = Json.MAPPER.readTree(raw);
        } catch (JsonProcessingException e) {
            throw new A2aError(A2aError.PARSE_ERROR, "the body is not JSON", "invalid_json");
        }
        if (request == null
                || !request.isObject()
                || !"2.0".equals(request.path("jsonrpc").asText())
                || !request.path("method").isTextual())
            throw new A2aError(
                    A2aError.INVALID_REQUEST, "not a JSON-RPC 2.0 request (jsonrpc, method)", "invalid_request");
        return request;
    }

    /** A2A 1.0 only: a client that says it speaks 0.3 is told so rather than misread. */
    private static void checkVersion(String version) {
        if (version == null || version.isBlank()) return;
        String v = version.strip();
        if (!v.equals("1.0") && !v.equals("1"))
            throw new A2aError(
                    A2aError.VERSION_NOT_SUPPORTED,
                    "A2A-Version " + v + " is not supported; this agent speaks 1.0",
                    "version_not_supported");
    }

    private static String taskId(JsonNode params) {
        JsonNode id = params.path("id");
        if (!id.isTextual() || id.asText().isBlank()) throw A2aError.invalidParams("params.id must name a task");
        return id.asText();
    }

    private void sendMessage(Context ctx, Principal caller, AgentDefinition agent, JsonNode id, JsonNode params) {
        IncomingMessage message = IncomingMessage.from(params);
        if (params.at("/configuration/returnImmediately").asBoolean(false)) {
            ObjectNode task = tasks.start(caller, agent.id(), message, options(ctx));
            ctx.json(A2aWire.result(id, Json.MAPPER.createObjectNode().set("task", task)));
            return;
        }
        TaskProgress progress = tasks.newProgress();
        tasks.send(caller, agent.id(), message, options(ctx), progress, new QuotaHeaders(ctx, progress::apply));
        ctx.json(A2aWire.result(id, Json.MAPPER.createObjectNode().set("task", progress.task())));
    }

    /**
     * The turn's events as A2A stream events, the task first. Refusals before the turn is admitted are JSON-RPC
     * errors as one JSON document. The turn outlives a client that goes away: it can take the task up again with
     * {@code SubscribeToTask}.
     */
    private void sendStreamingMessage(
            Context ctx, Principal caller, AgentDefinition agent, JsonNode id, JsonNode params) {
        IncomingMessage message = IncomingMessage.from(params);
        TaskProgress progress = tasks.newProgress();
        TaskStream stream = new TaskStream(id, progress);
        try (SseTurnListener sse = new SseTurnListener(ctx, streams, stream::send, false)) {
            tasks.send(caller, agent.id(), message, options(ctx), progress, sse);
        }
    }

    /** The task as it stands, then its events live until it stops working; a task that stopped is only answered. */
    private void subscribe(Context ctx, Principal caller, String agentId, JsonNode id, String taskId)
            throws IOException {
        FollowedTurns.Followed followed = tasks.follow(caller, agentId, taskId);
        TaskProgress progress = tasks.newProgress();
        long after = tasks.replay(followed, progress, 0);
        if (progress.state() == A2aWire.State.INPUT_REQUIRED) progress = tasks.snapshot(caller, followed);
        ctx.status(200);
        ctx.contentType("text/event-stream; charset=utf-8");
        ctx.header("Cache-Control", "no-cache");
        ctx.header("X-Accel-Buffering", "no");
        try (SseWriter out = streams.open(ctx.res().getOutputStream(), () -> {}, () -> {});
                TurnEventLog.Reader reader = followed.reader()) {
            out.sendAsIs(
                    "message", A2aWire.result(id, Json.MAPPER.createObjectNode().set("task", progress.task())));
            while (progress.state() == A2aWire.State.WORKING && !out.disconnected()) {
                List<TurnEventLog.LoggedEvent> read = reader.read(after, POLL);
                for (TurnEventLog.LoggedEvent e : read) {
                    after = e.id();
                    for (ObjectNode event : progress.apply(e.event()))
                        out.sendAsIs("message", A2aWire.result(id, event));
                }
                // a turn whose instance died never ends: stop once the log has forgotten it
                if (read.isEmpty() && followed.forgotten()) return;
            }
        }
    }

    /** Writes a turn's events as A2A stream events; the task goes first even when the turn goes on after a pause. */
    private static final class TaskStream {
        private final JsonNode id;
        private final TaskProgress progress;
        private boolean taskSent;

        TaskStream(JsonNode id, TaskProgress progress) {
            this.id = id;
            this.progress = progress;
        }

        void send(SseWriter writer, TurnEvent event) {
            for (ObjectNode e : progress.apply(event)) {
                if (!taskSent && !e.has("task")) {
                    writer.sendAsIs(
                            "message",
                            A2aWire.result(id, Json.MAPPER.createObjectNode().set("task", progress.task())));
                    taskSent = true;
                    if (e.has("statusUpdate")) continue;
                }
                taskSent = true;
                writer.sendAsIs("message", A2aWire.result(id, e));
            }
        }
    }

    private static void error(Context ctx, JsonNode id, A2aError e) {
        if (ctx.res().isCommitted()) {
            log.debug("A2A error after the stream began: {}", e.getMessage());
            return;
        }
        if (e.retryAfterSeconds() > 0) ctx.header("Retry-After", Long.toString(e.retryAfterSeconds()));
        ctx.status(e.httpStatus).json(e.response(id));
    }

    private static SendOptions options(Context ctx) {
        return SendOptions.of(ctx.attribute(RequestIds.ATTRIBUTE));
    }
}
