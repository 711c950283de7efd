package dev.baton.mcp.client;

import dev.baton.core.trace.TraceContextHeaders;
import dev.baton.mcp.config.IdentityForwarding;
import dev.baton.mcp.config.McpServerSettings;
import dev.baton.mcp.config.McpTransport;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.customizer.McpSyncHttpClientRequestCustomizer;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import reactor.core.publisher.Mono;

/**
 * One live SDK client of a server, opened (transport and initialize handshake) and closed as a unit: after a restart
 * or a lost HTTP session a new one is opened. Blocking calls, bounded by the caller's time.
 */
final class ServerSession implements ToolSession {
    /** Keys of the per-call {@link McpTransportContext}: the verified caller, read by the identity headers. */
    static final String USER_ID = "baton.userId";

    static final String TENANT_ID = "baton.tenantId";

    /** The trace-context headers of the call, name to value. */
    static final String TRACE_HEADERS = "baton.traceHeaders";

    private static final McpSchema.Implementation CLIENT = new McpSchema.Implementation("baton", "Baton", "0.1.0");
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    /** Which wire the session speaks; an HTTP server in AUTO mode tries streamable HTTP first. */
    enum Wire {
        STDIO("stdio"),
        STREAMABLE_HTTP("streamable-http"),
        SSE("sse"),
        /** Revision 2026-07-28 over HTTP: no session, every request carries its protocol version. */
        STATELESS_HTTP("streamable-http 2026-07-28");

        final String label;

        Wire(String label) {
            this.label = label;
        }
    }

    private final McpAsyncClient client;
    private final CallCancellation transport;
    private final Wire wire;

    private ServerSession(McpAsyncClient client, CallCancellation transport, Wire wire) {
        this.client = client;
        this.transport = transport;
        this.wire = wire;
    }

    /**
     * Starts the transport and completes the initialize handshake within the server's timeout.
     *
     * @param onToolsChanged the server's tool list after each {@code notifications/tools/list_changed}
     * @param onLost told when the transport knows the server is gone (a stdio process exited)
     */
    static ServerSession open(
            McpServerSettings settings,
            Wire wire,
            Duration requestTimeout,
            Consumer<List<McpSchema.Tool>> onToolsChanged,
            Consumer<String> onLost) {
        return open(settings, wire, requestTimeout, onToolsChanged, onLost, null);
    }

    /**
     * @param bearer for a session of one user's own account: their current access token, read for every HTTP request
     *     (so a refreshed one is used at once); null for a session with no user authorization
     */
    static ServerSession open(
            McpServerSettings settings,
            Wire wire,
            Duration requestTimeout,
            Consumer<List<McpSchema.Tool>> onToolsChanged,
            Consumer<String> onLost,
            java.util.function.Supplier<String> bearer) {
        CallCancellation transport = new CallCancellation(transport(settings, wire, onLost, bearer));
        McpAsyncClient client = McpClient.async(transport)
                .clientInfo(CLIENT)
                .requestTimeout(requestTimeout)
                .initializationTimeout(settings.timeout())
                // no roots, sampling or elicitation: Baton only calls tools
                .capabilities(McpSchema.ClientCapabilities.builder().build())
                .toolsChangeConsumer(tools -> {
                    onToolsChanged.accept(tools);
                    return Mono.empty();
                })
                .build();
        ServerSession session = new ServerSession(client, transport, wire);
        try {
            client.initialize().block(settings.timeout().plusSeconds(1));
            return session;
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }

    @Override
    public Wire wire() {
        return wire;
    }

    /** The server's process id, for a stdio server; -1 otherwise. */
    @Override
    public long pid() {
        return transport.delegate() instanceof StdioProcessTransport stdio ? stdio.pid() : -1;
    }

    /** How often the HTTP server has said it no longer knows the session (the SDK then opened a new one). */
    @Override
    public long sessionLosses() {
        return transport.delegate() instanceof SessionLossWatch watch ? watch.losses() : 0;
    }

    @Override
    public List<McpSchema.Tool> listTools(Duration timeout) {
        McpSchema.ListToolsResult result = client.listTools().block(timeout);
        return result == null || result.tools() == null ? List.of() : result.tools();
    }

    /**
     * Calls a tool within {@code timeout}. When Baton gives up on the call — the timeout passes, or the calling thread
     * is interrupted (the turn was cancelled) — the server is sent {@code notifications/cancelled} for it.
     */
    @Override
    public McpSchema.CallToolResult call(
            McpSchema.CallToolRequest request, McpTransportContext context, Duration timeout) {
        AtomicReference<Object> sent = new AtomicReference<>();
        try {
            return client.callTool(request)
                    .contextWrite(c -> c.put(McpTransportContext.KEY, context).put(CallCancellation.SENT, sent))
                    .block(timeout);
        } catch (RuntimeException e) {
            switch (CallFailure.of(e).kind()) {
                case TIMEOUT -> transport.cancel(sent, "Baton stopped waiting: the call's timeout passed");
                case INTERRUPTED -> transport.cancel(sent, "the call was cancelled");
                default -> {}
            }
            throw e;
        }
    }

    @Override
    public List<McpSchema.Prompt> listPrompts(Duration timeout) {
        McpSchema.ServerCapabilities capabilities = client.getServerCapabilities();
        if (capabilities == null || capabilities.prompts() == null) return List.of();
        McpSchema.ListPromptsResult result = client.listPrompts().block(timeout);
        return result == null || result.prompts() == null ? List.of() : result.prompts();
    }

    @Override
    public McpSchema.GetPromptResult getPrompt(String name, Map<String, String> arguments, Duration timeout) {
        return client.getPrompt(new McpSchema.GetPromptRequest(name, new HashMap<>(arguments)))
                .block(timeout);
    }

    @Override
    public List<McpSchema.Resource> listResources(Duration timeout, int maxPages) {
        McpSchema.ServerCapabilities capabilities = client.getServerCapabilities();
        if (capabilities == null || capabilities.resources() == null) return List.of();
        List<McpSchema.Resource> out = new java.util.ArrayList<>();
        String cursor = null;
        for (int page = 0; page < maxPages; page++) {
            McpSchema.ListResourcesResult result = client.listResources(cursor).block(timeout);
            if (result == null) break;
            if (result.resources() != null) out.addAll(result.resources());
            cursor = result.nextCursor();
            if (cursor == null || cursor.isEmpty()) break;
        }
        return out;
    }

    @Override
    public ResourceRead readResource(String uri, Duration timeout) {
        McpSchema.ReadResourceResult result =
                client.readResource(new McpSchema.ReadResourceRequest(uri)).block(timeout);
        return new ResourceRead(result == null ? null : result.contents(), null, false);
    }

    @Override
    public void ping(Duration timeout) {
        client.ping().block(timeout);
    }

    @Override
    public void close() {
        try {
            client.closeGracefully().block(CLOSE_WAIT);
        } catch (RuntimeException e) {
            client.close();
        }
        // the stdio transport's own close is idempotent and makes sure the process is gone
        if (transport.delegate() instanceof StdioProcessTransport stdio) stdio.close();
    }

    private static McpClientTransport transport(
            McpServerSettings settings,
            Wire wire,
            Consumer<String> onLost,
            java.util.function.Supplier<String> bearer) {
        return switch (settings.transport()) {
            case McpTransport.Stdio stdio ->
                new StdioProcessTransport(settings.name(), stdio, McpJsonDefaults.getMapper(), onLost);
            case McpTransport.Http http -> new SessionLossWatch(http(http, settings, wire, bearer));
        };
    }

    private static McpClientTransport http(
            McpTransport.Http http, McpServerSettings settings, Wire wire, java.util.function.Supplier<String> bearer) {
        URI url = http.url();
        String base = url.getScheme() + "://" + url.getRawAuthority();
        String endpoint = (url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath())
                + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
        HttpRequest.Builder requests = HttpRequest.newBuilder();
        http.headers().forEach(requests::header);
        // redirects are never followed: a server's URL is the operator's choice, and a redirect must not move the
        // calls (and the headers configured for this server) to another host
        HttpClient.Builder clients =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).followRedirects(HttpClient.Redirect.NEVER);
        Duration connectTimeout = min(settings.timeout(), Duration.ofSeconds(10));
        McpSyncHttpClientRequestCustomizer forwarded = identityHeaders(settings.identity());
        McpSyncHttpClientRequestCustomizer identity = bearer == null
                ? forwarded
                : (builder, method, uri, body, context) -> {
                    forwarded.customize(builder, method, uri, body, context);
                    builder.setHeader("Authorization", "Bearer " + bearer.get());
                };
        return switch (wire) {
            case SSE ->
                HttpClientSseClientTransport.builder(base)
                        .sseEndpoint(endpoint)
                        .clientBuilder(clients)
                        .requestBuilder(requests)
                        .httpRequestCustomizer(identity)
                        .connectTimeout(connectTimeout)
                        .build();
            default ->
                HttpClientStreamableHttpTransport.builder(base)
                        .endpoint(endpoint)
                        .clientBuilder(clients)
                        .requestBuilder(requests)
                        .httpRequestCustomizer(identity)
                        .connectTimeout(connectTimeout)
                        .build();
        };
    }

    /**
     * Adds the trace context and the configured identity headers to the requests of a {@code tools/call}, whose
     * context carries them (the SDK sends on threads of its own, where the turn's span is not current).
     */
    private static McpSyncHttpClientRequestCustomizer identityHeaders(IdentityForwarding identity) {
        return (builder, method, uri, body, context) -> forwardedHeaders(identity, context, builder::header);
    }

    /** The trace-context and identity headers a call's {@code context} carries, given to {@code header}. */
    static void forwardedHeaders(
            IdentityForwarding identity,
            McpTransportContext context,
            java.util.function.BiConsumer<String, String> header) {
        if (context == null) return;
        if (context.get(TRACE_HEADERS) instanceof Map<?, ?> trace) {
            trace.forEach((name, value) -> header.accept(name.toString(), value.toString()));
        }
        if (!identity.headers()) return;
        Object user = context.get(USER_ID);
        Object tenant = context.get(TENANT_ID);
        if (identity.userHeader() != null && user != null) header.accept(identity.userHeader(), user.toString());
        if (identity.tenantHeader() != null && tenant != null)
            header.accept(identity.tenantHeader(), tenant.toString());
    }

    static Map<String, Object> contextFor(String userId, String tenantId) {
        return Map.of(USER_ID, userId, TENANT_ID, tenantId);
    }

    /**
     * What a {@code tools/call}'s HTTP requests need from the calling thread: the caller's identity when it is
     * forwarded as headers, and the current span's {@code traceparent}.
     */
    static McpTransportContext transportContext(boolean identityHeaders, String userId, String tenantId) {
        if (!TraceContextHeaders.present()) {
            return identityHeaders
                    ? McpTransportContext.create(contextFor(userId, tenantId))
                    : McpTransportContext.EMPTY;
        }
        Map<String, String> trace = new HashMap<>();
        TraceContextHeaders.inject(trace::put);
        Map<String, Object> values = new HashMap<>();
        if (identityHeaders) values.putAll(contextFor(userId, tenantId));
        values.put(TRACE_HEADERS, Map.copyOf(trace));
        return McpTransportContext.create(values);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
