package dev.baton.mcp.server;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.CallCache;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolCallScope;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.tool.ToolExecutor;
import dev.baton.core.tool.ToolSource;
import dev.baton.core.turn.Cancellation;
import dev.baton.mcp.config.IdentityForwarding;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A tool source served as a standalone MCP server over stdio (the SDK's stdio server transport), for an orchestrator
 * that keeps a domain's tools in a process of their own — Baton on both sides: {@code baton mcp-server --domain tasks}
 * here, an {@code mcp.servers} entry with {@code identity: {meta: true}} there.
 *
 * <p>Whoever started the process is its only peer, and has already checked the caller's permissions for the tool; it
 * names the caller in each call's {@code _meta} ({@link IdentityForwarding#USER_META_KEY}, {@link
 * IdentityForwarding#TENANT_META_KEY}), and the call runs as that user with the domain's permissions through the
 * core's executor (schema, timeout), so the domain service checks ownership exactly as in process. A call that names
 * nobody is refused: there is no default user.
 */
public final class StdioToolServer {
    private static final Duration TOOL_TIMEOUT = Duration.ofSeconds(30);

    private final String name;
    private final List<ToolSource> sources;
    private final Set<String> permissions;
    private final ToolExecutor executor;
    private final AgentDefinition agent;
    private final AtomicLong ids = new AtomicLong();

    /**
     * @param permissions what a named caller holds here: the domain's own permissions (the client checked its user's)
     */
    public StdioToolServer(ToolSource source, Set<String> permissions, Clock clock) {
        this(source.name(), List.of(source), permissions, clock);
    }

    /**
     * A server of several sources (a domain's tools), under one name.
     *
     * @param name names the server to its clients ({@code baton-NAME})
     * @param permissions what a named caller holds here: the domain's own permissions (the client checked its user's)
     */
    public StdioToolServer(String name, List<ToolSource> sources, Set<String> permissions, Clock clock) {
        this.name = Objects.requireNonNull(name, "name");
        this.sources = List.copyOf(sources);
        this.permissions = Set.copyOf(permissions);
        this.executor = new ToolExecutor(new ToolCatalog(this.sources), clock);
        this.agent = AgentDefinition.of(
                "mcp-server",
                "",
                "none:none",
                tools().stream().map(t -> t.definition().name()).toList());
    }

    /** Serves until {@code in} ends (the client closed the pipe), then returns. */
    public void serve(InputStream in, OutputStream out) throws InterruptedException {
        CountDownLatch ended = new CountDownLatch(1);
        StdioServerTransportProvider transport =
                new StdioServerTransportProvider(McpJsonDefaults.getMapper(), new EndAware(in, ended), out);
        McpSyncServer server = McpServer.sync(transport)
                .serverInfo(new McpSchema.Implementation("baton-" + name, "Baton " + name, "0.1.0"))
                .capabilities(
                        McpSchema.ServerCapabilities.builder().tools(false).build())
                // the executor validates; calls run on the SDK's worker threads, so several are served at once
                .validateToolInputs(false)
                .tools(tools().stream().map(this::specification).toList())
                .build();
        try {
            ended.await();
        } finally {
            server.close();
        }
    }

    private List<Tool> tools() {
        return sources.stream().flatMap(s -> s.tools().stream()).toList();
    }

    private McpServerFeatures.SyncToolSpecification specification(Tool tool) {
        return McpServerFeatures.SyncToolSpecification.builder()
                .tool(McpTools.tool(tool.definition()))
                .callHandler((exchange, request) -> call(request))
                .build();
    }

    private McpSchema.CallToolResult call(McpSchema.CallToolRequest request) {
        Map<String, Object> meta = request.meta() == null ? Map.of() : request.meta();
        Object user = meta.get(IdentityForwarding.USER_META_KEY);
        Object tenant = meta.get(IdentityForwarding.TENANT_META_KEY);
        if (!(user instanceof String userId) || userId.isBlank()) {
            return McpSchema.CallToolResult.builder(List.of(new McpSchema.TextContent(
                            "identity_required: this server runs each call as the user named in _meta."
                                    + IdentityForwarding.USER_META_KEY
                                    + "; configure the client with identity: {meta: true}")))
                    .isError(true)
                    .build();
        }
        Principal caller = Principal.of(tenant instanceof String t ? t : null, userId, permissions);
        ToolCallRequest call = new ToolCallRequest(
                "call_" + ids.incrementAndGet(), request.name(), McpTools.arguments(request.arguments()));
        ToolCallScope scope = new ToolCallScope(agent, caller, "mcp-server", TOOL_TIMEOUT, new Cancellation());
        return McpTools.result(
                executor.execute(List.of(call), scope, new CallCache()).getFirst());
    }

    /** Stdin that says when it ended, so {@link #serve} can return. */
    private static final class EndAware extends FilterInputStream {
        private final CountDownLatch ended;

        EndAware(InputStream in, CountDownLatch ended) {
            super(in);
            this.ended = ended;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b < 0) ended.countDown();
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            try {
                int n = super.read(buffer, offset, length);
                if (n < 0) ended.countDown();
                return n;
            } catch (IOException e) {
                ended.countDown();
                throw e;
            }
        }
    }
}
