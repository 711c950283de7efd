package dev.baton.mcp.client;

import dev.baton.mcp.config.IdentityForwarding;
import dev.baton.mcp.config.McpServerSettings;
import dev.baton.mcp.config.McpTransport;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.client.McpAsyncClient;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.modern.client.transport.McpHttpRequestCustomizer;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A server that speaks MCP 2026-07-28, through the SDK's modern client: no handshake and no session, every request
 * carries its protocol version and Baton's (empty) client capabilities in {@code _meta}, with the standard
 * {@code Mcp-Method}/{@code Mcp-Name} headers. The SDK's types are turned into the 2025 ones the rest of Baton uses
 * (the two revisions' tools and results have the same JSON). Giving up on a call closes its response stream, which
 * is how 2026-07-28 cancels a request over HTTP.
 */
final class StatelessSession implements ToolSession {
    static final String REVISION = "2026-07-28";

    private static final io.modelcontextprotocol.modern.McpSchema.Implementation CLIENT =
            new io.modelcontextprotocol.modern.McpSchema.Implementation("baton", "Baton", "0.1.0", null, null, null);

    private final McpAsyncClient client;
    private final McpJsonMapper json = McpJsonDefaults.getMapper();
    private final Consumer<List<McpSchema.Tool>> onToolsChanged;
    private final boolean offersPrompts;
    private final boolean offersResources;
    /** What the last listing found; a health check that lists something else reports the change. */
    private volatile List<McpSchema.Tool> lastListed;

    private StatelessSession(
            McpAsyncClient client,
            Consumer<List<McpSchema.Tool>> onToolsChanged,
            boolean offersPrompts,
            boolean offersResources) {
        this.client = client;
        this.onToolsChanged = onToolsChanged;
        this.offersPrompts = offersPrompts;
        this.offersResources = offersResources;
    }

    /**
     * Asks the server which revisions it speaks ({@code server/discover}).
     *
     * @param onToolsChanged the server's tool list when a health check finds it changed (2026-07-28 has no
     *     list-changed notification outside a {@code subscriptions/listen} stream)
     * @param bearer a user's current access token for each request, or null
     * @return a session when the server lists 2026-07-28; null when it answered without it
     * @throws RuntimeException when the server could not be asked or refused the question (a 2025 server answers
     *     {@code server/discover} with an error)
     */
    static StatelessSession discover(
            McpServerSettings settings,
            Duration requestTimeout,
            Consumer<List<McpSchema.Tool>> onToolsChanged,
            Supplier<String> bearer) {
        McpTransport.Http http = (McpTransport.Http) settings.transport();
        McpAsyncClient client = McpClient.async(transport(http, settings, bearer))
                .clientInfo(CLIENT)
                .roundTimeout(requestTimeout)
                .build();
        io.modelcontextprotocol.modern.McpSchema.DiscoverResult found =
                client.discover().block(settings.timeout().plusSeconds(1));
        if (found == null
                || found.supportedVersions() == null
                || !found.supportedVersions().contains(REVISION)) return null;
        return new StatelessSession(
                client,
                onToolsChanged,
                found.capabilities() != null && found.capabilities().prompts() != null,
                found.capabilities() != null && found.capabilities().resources() != null);
    }

    @Override
    public ServerSession.Wire wire() {
        return ServerSession.Wire.STATELESS_HTTP;
    }

    @Override
    public long pid() {
        return -1;
    }

    @Override
    public long sessionLosses() {
        return 0;
    }

    @Override
    public List<McpSchema.Tool> listTools(Duration timeout) {
        io.modelcontextprotocol.modern.McpSchema.ListToolsResult result =
                client.listTools().skipCache().callTimeout(timeout).list().block(timeout.plusSeconds(1));
        List<McpSchema.Tool> tools = result == null || result.tools() == null
                ? List.of()
                : result.tools().stream()
                        .map(tool -> json.convertValue(tool, McpSchema.Tool.class))
                        .toList();
        lastListed = tools;
        return tools;
    }

    @Override
    public McpSchema.CallToolResult call(
            McpSchema.CallToolRequest request, McpTransportContext context, Duration timeout) {
        McpAsyncClient.ToolSpec call = client.tool(request.name())
                .arguments(request.arguments())
                .roundTimeout(timeout)
                .callTimeout(timeout);
        if (request.meta() != null) call = call.meta(request.meta());
        io.modelcontextprotocol.modern.McpSchema.CallToolResult result = call.call()
                .contextWrite(c -> c.put(McpTransportContext.KEY, context))
                .block(timeout);
        return result == null ? null : json.convertValue(result, McpSchema.CallToolResult.class);
    }

    @Override
    public List<McpSchema.Prompt> listPrompts(Duration timeout) {
        if (!offersPrompts) return List.of();
        io.modelcontextprotocol.modern.McpSchema.ListPromptsResult result =
                client.prompts().callTimeout(timeout).list().block(timeout.plusSeconds(1));
        return result == null || result.prompts() == null
                ? List.of()
                : result.prompts().stream()
                        .map(prompt -> json.convertValue(prompt, McpSchema.Prompt.class))
                        .toList();
    }

    @Override
    public McpSchema.GetPromptResult getPrompt(String name, Map<String, String> arguments, Duration timeout) {
        io.modelcontextprotocol.modern.McpSchema.GetPromptResult result = client.prompt(name)
                .arguments(arguments)
                .callTimeout(timeout)
                .get()
                .block(timeout.plusSeconds(1));
        return result == null ? null : json.convertValue(result, McpSchema.GetPromptResult.class);
    }

    @Override
    public List<McpSchema.Resource> listResources(Duration timeout, int maxPages) {
        if (!offersResources) return List.of();
        List<McpSchema.Resource> out = new java.util.ArrayList<>();
        String cursor = null;
        for (int page = 0; page < maxPages; page++) {
            McpAsyncClient.ListSpec<io.modelcontextprotocol.modern.McpSchema.ListResourcesResult> request =
                    client.resources().callTimeout(timeout);
            if (cursor != null) request = request.cursor(cursor);
            io.modelcontextprotocol.modern.McpSchema.ListResourcesResult result =
                    request.list().block(timeout.plusSeconds(1));
            if (result == null) break;
            if (result.resources() != null)
                result.resources().forEach(r -> out.add(json.convertValue(r, McpSchema.Resource.class)));
            cursor = result.nextCursor();
            if (cursor == null || cursor.isEmpty()) break;
        }
        return out;
    }

    @Override
    public ResourceRead readResource(String uri, Duration timeout) {
        io.modelcontextprotocol.modern.McpSchema.ReadResourceResult result =
                client.resource(uri).callTimeout(timeout).read().block(timeout.plusSeconds(1));
        if (result == null) return new ResourceRead(List.of(), null, false);
        List<McpSchema.ResourceContents> contents = result.contents() == null
                ? List.of()
                : result.contents().stream()
                        .map(c -> json.convertValue(c, McpSchema.ResourceContents.class))
                        .toList();
        return new ResourceRead(
                contents,
                result.ttlMs(),
                result.cacheScope() == io.modelcontextprotocol.modern.McpSchema.CacheScope.PRIVATE);
    }

    /** Lists the tools again: the request proves the server answers, and the list says whether it changed. */
    @Override
    public void ping(Duration timeout) {
        List<McpSchema.Tool> before = lastListed;
        List<McpSchema.Tool> now = listTools(timeout);
        if (before != null && !Objects.equals(before, now)) onToolsChanged.accept(now);
    }

    /** Nothing to end: there is no session, and no request outlives its caller. */
    @Override
    public void close() {}

    private static HttpClientMcpTransport transport(
            McpTransport.Http http, McpServerSettings settings, Supplier<String> bearer) {
        IdentityForwarding identity = settings.identity();
        Map<String, String> configured = http.headers();
        McpHttpRequestCustomizer headers = McpHttpRequestCustomizer.fromSync((request, sent, context) -> {
            configured.forEach(sent::set);
            ServerSession.forwardedHeaders(identity, context, sent::set);
            if (bearer != null) sent.set("Authorization", "Bearer " + bearer.get());
        });
        // redirects are never followed: a redirect must not move the calls, and the headers configured for this
        // server, to another host
        return HttpClientMcpTransport.builder(http.url())
                .clientBuilder(HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .followRedirects(HttpClient.Redirect.NEVER))
                .connectTimeout(
                        settings.timeout().compareTo(Duration.ofSeconds(10)) <= 0
                                ? settings.timeout()
                                : Duration.ofSeconds(10))
                .requestCustomizer(headers)
                .build();
    }
}
