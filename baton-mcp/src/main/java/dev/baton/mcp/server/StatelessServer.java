package dev.baton.mcp.server;

import dev.baton.core.auth.Principal;
import dev.baton.runtime.session.Sessions;
import dev.baton.runtime.tool.ToolAccess;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.HmacRequestStateCodec;
import io.modelcontextprotocol.modern.server.McpHeaders;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.McpTransportResponse;
import io.modelcontextprotocol.modern.server.feature.ToolsFeature;
import io.modelcontextprotocol.modern.server.transport.McpHeaderDecoder;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /mcp} in MCP's 2026-07-28 revision: no handshake and no session, every request carries its protocol version
 * and the client's capabilities in {@code _meta}, and the caller is the bearer token of that request. The protocol —
 * {@code server/discover}, {@code _meta} checks, {@code UnsupportedProtocolVersionError}, {@code resultType},
 * {@code ttlMs}/{@code cacheScope}, {@code input_required} with a sealed {@code requestState} — is the SDK's
 * {@link McpServer}, one for every caller; what is Baton's is the tools ({@link StatelessTools}) and the HTTP side the
 * SDK leaves to its servlet, which {@code /mcp} does not use: the {@code Mcp-Method} / {@code Mcp-Name} /
 * {@code MCP-Protocol-Version} headers checked against the body ({@link StandardHeaders}) and the HTTP status of each
 * JSON-RPC error.
 */
final class StatelessServer {
    /** The revision served without a session. */
    static final String REVISION = "2026-07-28";

    /** How long a client may keep a caller's tool list: it changes only with configuration or an MCP server's tools. */
    static final long TOOLS_TTL_MS = 60_000;

    /** How long anyone may keep the discovery answer: it names versions and capabilities only, the same for all. */
    static final long DISCOVER_TTL_MS = 3_600_000;

    /** How long a client has to come back with its user's answer to an approval question. */
    static final Duration ANSWER_WITHIN = Duration.ofMinutes(10);

    private static final String CALLER = "baton.caller";

    /** Who calls, from the request's token, and the endpoint's {@code ?agent=} (null for all the caller's agents). */
    record Caller(Principal principal, String agentId) {}

    private final McpServer server;
    private final McpJsonMapper json;

    StatelessServer(
            ToolAccess tools,
            Sessions sessions,
            ToolCallApproval approval,
            java.util.List<String> supportedVersions,
            McpJsonMapper json,
            byte[] stateKey) {
        this.json = json;
        this.server = McpServer.builder()
                .serverInfo(McpSchema.Implementation.builder("baton", McpEndpoint.VERSION)
                        .title("Baton")
                        .build())
                .instructions(McpEndpoint.INSTRUCTIONS)
                .supportedVersions(supportedVersions)
                .jsonMapper(json)
                .discoverCache(DISCOVER_TTL_MS, McpSchema.CacheScope.PUBLIC)
                // the question of an approval can be answered only by the user it was asked of, for the same tool
                .requestStateCodec(HmacRequestStateCodec.builder()
                        .key(stateKey)
                        .ttl(ANSWER_WITHIN)
                        .principalExtractor(StatelessServer::principalKey)
                        .jsonMapper(json)
                        .build())
                // the executor validates the arguments, once, as in a turn, and records a refusal in the audit
                .feature(ToolsFeature.ofSync(
                        new StatelessTools(tools, sessions, approval, json),
                        json,
                        (schema, value) -> JsonSchemaValidator.ValidationResponse.asValid(null),
                        TOOLS_TTL_MS,
                        McpSchema.CacheScope.PRIVATE))
                .build();
    }

    /** Answers one request (or notification) of the 2026-07-28 revision for the authenticated caller. */
    McpEndpoint.Reply answer(Principal caller, String agentId, McpRequestHeaders headers, String body) {
        JsonRpc.JSONRPCMessage message;
        try {
            message = JsonRpc.deserializeMessage(json, body);
        } catch (JsonRpc.InvalidMessageException e) {
            return error(e.id(), McpSchema.ErrorCodes.INVALID_REQUEST, "Invalid JSON-RPC message");
        } catch (IOException | RuntimeException e) {
            return error(null, McpSchema.ErrorCodes.PARSE_ERROR, "Parse error");
        }
        return switch (message) {
            // this revision defines no notification a client sends over HTTP: accepted, and nothing to do
            case JsonRpc.JSONRPCNotification notification -> new McpEndpoint.Reply.Accepted();
            case JsonRpc.JSONRPCRequest request -> {
                Optional<String> mismatch = StandardHeaders.mismatch(headers, request);
                if (mismatch.isPresent())
                    yield error(request.id(), McpSchema.ErrorCodes.HEADER_MISMATCH, mismatch.get());
                McpTransportContext context = McpTransportContext.create(Map.of(
                        CALLER,
                        new Caller(caller, agentId),
                        McpHeaders.TRANSPORT_CONTEXT_KEY,
                        McpHeaderDecoder.headers(headers.accessor())));
                McpTransportResponse response =
                        server.handleBlocking(context, request).block(McpEndpoint.REQUEST_LIMIT);
                yield reply(response);
            }
            default -> error(null, McpSchema.ErrorCodes.INVALID_REQUEST, "send a request or a notification");
        };
    }

    static Caller caller(McpRequestContext context) {
        return (Caller) context.transportContext().get(CALLER);
    }

    private static String principalKey(McpTransportContext context) {
        Caller caller = (Caller) context.get(CALLER);
        return caller == null
                ? null
                : caller.principal().tenantId() + "/" + caller.principal().userId();
    }

    private McpEndpoint.Reply reply(McpTransportResponse response) {
        return switch (response) {
            case McpTransportResponse.Result result -> json(result.response(), 200);
            case McpTransportResponse.Error error -> json(error.response(), status(error.response()));
            // Baton's tools report no progress, so no answer streams
            case McpTransportResponse.Streaming streaming ->
                throw new IllegalStateException("a streaming answer was not expected");
            default -> throw new IllegalStateException("unknown answer " + response);
        };
    }

    private McpEndpoint.Reply error(Object id, int code, String message) {
        JsonRpc.JSONRPCResponse response =
                JsonRpc.JSONRPCResponse.error(id, new JsonRpc.JSONRPCResponse.JSONRPCError(code, message, null));
        return json(response, status(response));
    }

    /** The HTTP status of a JSON-RPC error, as the revision's HTTP binding (and the SDK's servlet) gives it. */
    private static int status(JsonRpc.JSONRPCResponse response) {
        if (response.error() == null) return 200;
        return switch (response.error().code()) {
            case McpSchema.ErrorCodes.PARSE_ERROR,
                    McpSchema.ErrorCodes.INVALID_REQUEST,
                    McpSchema.ErrorCodes.INVALID_PARAMS,
                    McpSchema.ErrorCodes.HEADER_MISMATCH,
                    McpSchema.ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY,
                    McpSchema.ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION -> 400;
            case McpSchema.ErrorCodes.METHOD_NOT_FOUND -> 404;
            default -> 200;
        };
    }

    private McpEndpoint.Reply json(JsonRpc.JSONRPCResponse response, int status) {
        try {
            return new McpEndpoint.Reply.Json(json.writeValueAsString(response), null, status);
        } catch (IOException e) {
            throw new IllegalStateException("a JSON-RPC response could not be written", e);
        }
    }
}
