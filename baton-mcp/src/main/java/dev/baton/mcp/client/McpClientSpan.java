package dev.baton.mcp.client;

import dev.baton.core.tool.ToolException;
import dev.baton.core.trace.TurnTracing;
import dev.baton.mcp.config.McpServerSettings;
import dev.baton.mcp.config.McpTransport;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.net.URI;

/**
 * The client span of one {@code tools/call} to an MCP server, after the MCP semantic conventions: named
 * {@code tools/call {tool}}, a child of the turn's {@code execute_tool} span, and current while the call is sent so
 * an HTTP server gets it as the request's {@code traceparent}. Nothing when the turn is not traced.
 */
final class McpClientSpan {
    static final McpClientSpan NONE = new McpClientSpan(null);

    static final String TOOLS_CALL = "tools/call";
    private static final AttributeKey<String> METHOD = AttributeKey.stringKey("mcp.method.name");
    private static final AttributeKey<String> TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");
    private static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    private static final AttributeKey<String> TRANSPORT = AttributeKey.stringKey("network.transport");
    private static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    private static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
    private static final AttributeKey<String> SERVER_NAME = AttributeKey.stringKey("baton.mcp.server");
    private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    private final Span span;

    private McpClientSpan(Span span) {
        this.span = span;
    }

    static McpClientSpan start(String remoteName, McpServerSettings server) {
        Span span = TurnTracing.current().startClientSpan(TOOLS_CALL + " " + remoteName);
        if (span == null) return NONE;
        span.setAttribute(METHOD, TOOLS_CALL);
        span.setAttribute(TOOL_NAME, remoteName);
        span.setAttribute(OPERATION, "execute_tool");
        span.setAttribute(SERVER_NAME, server.name());
        switch (server.transport()) {
            case McpTransport.Stdio ignored -> span.setAttribute(TRANSPORT, "pipe");
            case McpTransport.Http http -> {
                URI url = http.url();
                span.setAttribute(TRANSPORT, "tcp");
                if (url.getHost() != null) span.setAttribute(SERVER_ADDRESS, url.getHost());
                if (url.getPort() > 0) span.setAttribute(SERVER_PORT, (long) url.getPort());
            }
        }
        return new McpClientSpan(span);
    }

    Scope makeCurrent() {
        return span == null ? Scope.noop() : Context.current().with(span).makeCurrent();
    }

    void succeeded() {
        if (span != null) span.end();
    }

    /** A tool error the server answered with is {@code tool_error}; anything else is the exception's class. */
    void failed(RuntimeException e) {
        if (span == null) return;
        span.setAttribute(
                ERROR_TYPE,
                e instanceof ToolException ? "tool_error" : e.getClass().getName());
        span.setStatus(StatusCode.ERROR, e.getMessage());
        span.end();
    }
}
