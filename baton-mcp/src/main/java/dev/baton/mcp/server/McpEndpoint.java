package dev.baton.mcp.server;

import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.Session;
import dev.baton.core.turn.Cancellation;
import dev.baton.runtime.RefusalException;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.tool.ToolAccess;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Baton's tools served over MCP's streamable HTTP transport, without HTTP: the server's route authenticates the caller
 * (the same JWT as the API) and hands each POST body and its headers here. Two revisions of the protocol are served
 * side by side ({@link Revisions}):
 *
 * <ul>
 *   <li><b>2026-07-28</b>, without handshake or session: {@link StatelessServer}, on the SDK's server of that revision.
 *   <li><b>2025-03-26 … 2025-11-25</b>, with the {@code initialize} handshake: each request is answered by the SDK's
 *       stateless server of those revisions, built for that request with exactly the caller's tools
 *       ({@link ToolAccess#visibleTo}, so {@code tools/list} shows what {@code GET /v1/tools} shows). An MCP session is
 *       a Baton session: {@code initialize} starts one (with the named agent, or the caller's default) and its id is
 *       the {@code Mcp-Session-Id}; later requests must carry it, and one that is unknown, another user's or completed
 *       is refused as not found, which tells an MCP client to initialize again. Being a row in the database, the
 *       session works on any instance. {@code DELETE} completes it.
 * </ul>
 *
 * Either way a {@code tools/call} runs through {@link ToolAccess#call} — the turn's executor, its checks and its audit
 * — as the authenticated caller, whatever the client sends, and a call that needs the user's approval under Baton's
 * rules goes through {@link ToolCallApproval}: asked over 2026-07-28, refused (or trusted, as configured) otherwise.
 */
public final class McpEndpoint {
    private static final Logger log = LoggerFactory.getLogger(McpEndpoint.class);
    /** A backstop only: every tool call is bounded by its own timeout well before this. */
    static final Duration REQUEST_LIMIT = Duration.ofMinutes(5);

    /** Baton's version as MCP clients are told it. */
    static final String VERSION = "0.1.0";

    static final String INSTRUCTIONS =
            "Baton's tools for the signed-in user: each call runs as that user, with their permissions.";

    private static final String CALLER = "baton.caller";
    private static final String SESSION = "baton.session";
    private static final String AGENT = "baton.agent";
    private static final McpSchema.Implementation SERVER = new McpSchema.Implementation("baton", "Baton", VERSION);

    /** What a POST is answered with. */
    public sealed interface Reply {
        /**
         * A JSON-RPC response (a result or a JSON-RPC error) as {@code application/json}.
         *
         * @param sessionId the {@code Mcp-Session-Id} to send back; null except for {@code initialize}
         * @param status the HTTP status: 200, or for a 2026-07-28 error the one its HTTP binding names (400, 404)
         */
        record Json(String body, String sessionId, int status) implements Reply {
            public Json(String body, String sessionId) {
                this(body, sessionId, 200);
            }
        }

        /** A notification or a response from the client: 202, no body. */
        record Accepted() implements Reply {}

        /** Refused at the HTTP level, as the API refuses: {@code status} with the error {@code code}. */
        record Refused(int status, String code, String message) implements Reply {}
    }

    private final ToolAccess tools;
    private final Sessions sessions;
    private final ToolCallApproval approval;
    private final McpJsonMapper json = McpJsonDefaults.getMapper();
    private final StatelessServer stateless;

    /**
     * An endpoint whose approval questions can be answered on this process only (see {@link RequestStateKey}).
     *
     * @param approval what happens to a call that needs the user's approval
     */
    public McpEndpoint(ToolAccess tools, Sessions sessions, ToolCallApproval approval) {
        this(tools, sessions, approval, RequestStateKey.random());
    }

    /**
     * @param approval what happens to a call that needs the user's approval
     * @param requestStateKey seals the state of an approval question ({@link RequestStateKey#from}): the same on
     *     every instance that may receive the answer
     */
    public McpEndpoint(ToolAccess tools, Sessions sessions, ToolCallApproval approval, byte[] requestStateKey) {
        this.tools = Objects.requireNonNull(tools, "tools");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.approval = Objects.requireNonNull(approval, "approval");
        this.stateless = new StatelessServer(
                tools,
                sessions,
                approval,
                Revisions.ALL,
                json,
                Objects.requireNonNull(requestStateKey).clone());
    }

    /** The protocol versions this endpoint speaks, newest first. */
    public List<String> protocolVersions() {
        return Revisions.ALL;
    }

    /**
     * Answers one POSTed JSON-RPC message for the authenticated caller, in the revision it is of.
     *
     * @param agentId serve only this agent's tools (the endpoint's {@code ?agent=}); null for all the caller's agents
     * @throws RefusalException as {@link #post(Principal, String, String, String)}, for the handshake's revisions
     */
    public Reply post(Principal caller, String agentId, McpRequestHeaders headers, String body) {
        if (Revisions.stateless(headers, body)) return stateless.answer(caller, agentId, headers, body);
        String version = headers.protocolVersion();
        if (version != null && !Revisions.HANDSHAKE.contains(version))
            return new Reply.Refused(
                    400,
                    "unsupported_protocol_version",
                    "MCP protocol version " + version + " is not supported; supported: "
                            + String.join(", ", Revisions.ALL));
        return post(caller, agentId, headers.sessionId(), body);
    }

    /**
     * Answers one POSTed JSON-RPC message of the handshake's revisions for the authenticated caller.
     *
     * @param agentId serve only this agent's tools (the endpoint's {@code ?agent=}); null for all the caller's agents
     * @param sessionId the request's {@code Mcp-Session-Id}, null when absent
     * @throws RefusalException {@code InvalidInput} for a body that is not one JSON-RPC message or a request without a
     *     session; {@code NotFound} for a session that is unknown, not the caller's or completed; what starting a
     *     session refuses, for {@code initialize}
     */
    public Reply post(Principal caller, String agentId, String sessionId, String body) {
        McpSchema.JSONRPCMessage message = parse(body);
        if (message instanceof McpSchema.JSONRPCRequest request
                && McpSchema.METHOD_INITIALIZE.equals(request.method())) {
            // checked before the session starts: a malformed initialize leaves nothing behind
            Optional<String> invalid = RequestParams.problem(request);
            if (invalid.isPresent()) return new Reply.Json(invalidParams(request, invalid.get()), null);
            Session session =
                    agentId == null ? sessions.startWithDefaultAgent(caller) : sessions.start(caller, agentId, null);
            return new Reply.Json(answer(caller, agentId, session.id(), request), session.id());
        }
        Session session = activeSession(caller, sessionId);
        return switch (message) {
            case McpSchema.JSONRPCRequest request ->
                new Reply.Json(
                        RequestParams.problem(request)
                                .map(invalid -> invalidParams(request, invalid))
                                .orElseGet(() -> answer(caller, agentId, session.id(), request)),
                        null);
            case McpSchema.JSONRPCNotification notification -> {
                handler(caller, agentId)
                        .handleNotification(context(caller, agentId, session.id()), notification)
                        .block(REQUEST_LIMIT);
                yield new Reply.Accepted();
            }
            // Baton never asks the client anything, so an answer has nothing to go to
            default -> new Reply.Accepted();
        };
    }

    /**
     * Ends the caller's MCP session (and the Baton session it is).
     *
     * @throws RefusalException {@code InvalidInput} without a session id; {@code NotFound} for one that is not the
     *     caller's
     */
    public void delete(Principal caller, String sessionId) {
        Session session = activeSession(caller, sessionId);
        sessions.complete(caller, session.id());
    }

    private String answer(Principal caller, String agentId, String sessionId, McpSchema.JSONRPCRequest request) {
        McpSchema.JSONRPCResponse response = handler(caller, agentId)
                .handleRequest(context(caller, agentId, sessionId), request)
                .block(REQUEST_LIMIT);
        return write(response);
    }

    /** A JSON-RPC "invalid params" error (-32602) answering {@code request}. */
    private String invalidParams(McpSchema.JSONRPCRequest request, String message) {
        return write(McpSchema.JSONRPCResponse.error(
                request.id(),
                new McpSchema.JSONRPCResponse.JSONRPCError(McpSchema.ErrorCodes.INVALID_PARAMS, message)));
    }

    private String write(McpSchema.JSONRPCResponse response) {
        try {
            return json.writeValueAsString(response);
        } catch (IOException e) {
            throw new IllegalStateException("a JSON-RPC response could not be written", e);
        }
    }

    /**
     * The SDK's stateless server with the caller's tools now: built per request because what a caller may use depends
     * on who they are and on catalogues that change (an MCP server Baton is a client of adds a tool).
     */
    private McpStatelessServerHandler handler(Principal caller, String agentId) {
        List<McpStatelessServerFeatures.SyncToolSpecification> specifications =
                tools.visibleTo(caller, agentId).stream()
                        .map(permitted -> new McpStatelessServerFeatures.SyncToolSpecification(
                                McpTools.tool(permitted.tool().definition()), this::call))
                        .toList();
        Transport transport = new Transport();
        McpServer.sync(transport)
                .serverInfo(SERVER)
                .capabilities(
                        McpSchema.ServerCapabilities.builder().tools(false).build())
                .instructions(INSTRUCTIONS)
                // the executor validates the arguments, once, as in a turn, and records a refusal in the audit
                .validateToolInputs(false)
                // on the request's own (virtual) thread, which waits for the answer anyway
                .immediateExecution(true)
                .tools(specifications)
                .build();
        return transport.handler;
    }

    private McpSchema.CallToolResult call(McpTransportContext context, McpSchema.CallToolRequest request) {
        Principal caller = (Principal) context.get(CALLER);
        String sessionId = (String) context.get(SESSION);
        String agentId = (String) context.get(AGENT);
        Optional<String> reason = tools.visibleTo(caller, agentId.isEmpty() ? null : agentId).stream()
                .filter(permitted -> permitted.tool().definition().name().equals(request.name()))
                .findFirst()
                .flatMap(approval::reasonToHold);
        if (reason.isPresent() && !approval.trustClients()) {
            // these revisions' elicitation would need a stream to the client; this endpoint answers with JSON only
            log.info("/mcp: {} of user {} not run: {}", request.name(), caller.userId(), reason.get());
            return McpSchema.CallToolResult.builder(List.of(new McpSchema.TextContent(ToolCallApproval.refusal(
                            request.name(),
                            reason.get(),
                            "Baton cannot ask you over this MCP connection (protocol before 2026-07-28)"))))
                    .isError(true)
                    .build();
        }
        if (reason.isPresent())
            log.info(
                    "/mcp: {} of user {} needs approval and runs: trusted to the MCP client"
                            + " (server.mcpTrustClientConfirmation)",
                    request.name(),
                    caller.userId());
        return McpTools.result(tools.call(
                caller,
                sessionId,
                agentId.isEmpty() ? null : agentId,
                request.name(),
                McpTools.arguments(request.arguments()),
                new Cancellation()));
    }

    private Session activeSession(Principal caller, String sessionId) {
        if (sessionId == null || sessionId.isBlank())
            throw RefusalException.invalidInput("the Mcp-Session-Id header is required; send initialize first");
        return sessions.find(caller, sessionId)
                .filter(Session::isActive)
                .orElseThrow(() -> RefusalException.notFound("MCP session"));
    }

    private McpSchema.JSONRPCMessage parse(String body) {
        if (body == null || body.isBlank()) throw RefusalException.invalidInput("the body must be a JSON-RPC message");
        if (body.stripLeading().startsWith("["))
            throw RefusalException.invalidInput("JSON-RPC batches are not supported: send one message per request");
        try {
            return McpSchema.deserializeJsonRpcMessage(json, body);
        } catch (IOException | RuntimeException e) {
            throw RefusalException.invalidInput("the body is not a JSON-RPC message");
        }
    }

    private static McpTransportContext context(Principal caller, String agentId, String sessionId) {
        return McpTransportContext.create(
                Map.of(CALLER, caller, SESSION, sessionId, AGENT, agentId == null ? "" : agentId));
    }

    /** The SDK's stateless transport port, reduced to what it is here: a place for the server to leave its handler. */
    private static final class Transport implements McpStatelessServerTransport {
        private McpStatelessServerHandler handler;

        @Override
        public void setMcpHandler(McpStatelessServerHandler handler) {
            this.handler = handler;
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.empty();
        }
    }
}
