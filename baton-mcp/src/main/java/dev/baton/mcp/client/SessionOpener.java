package dev.baton.mcp.client;

import dev.baton.mcp.config.McpServerSettings;
import dev.baton.mcp.config.McpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a server's sessions over the right wire: stdio, or HTTP in the configured protocol and mode. An HTTP server is
 * first asked {@code server/discover} (unless configured {@code protocol: 2025}): one that lists 2026-07-28 is spoken
 * to statelessly; one that answers with an error (a 2025 server knows no such method, or no request without a session)
 * gets the initialize handshake, where AUTO mode tries streamable HTTP and falls back to legacy SSE, and remembers the
 * wire that worked so a reconnection does not probe again.
 */
final class SessionOpener {
    private static final Logger log = LoggerFactory.getLogger(McpConnection.class);

    private final McpServerSettings settings;
    /** The HTTP wire that worked last, so a reconnection does not probe streamable HTTP again for an SSE server. */
    private volatile ServerSession.Wire httpWire;

    SessionOpener(McpServerSettings settings) {
        this.settings = settings;
    }

    ToolSession open(Duration requestTimeout, Consumer<List<McpSchema.Tool>> onToolsChanged, Consumer<String> onLost) {
        if (!(settings.transport() instanceof McpTransport.Http http)) {
            return ServerSession.open(settings, ServerSession.Wire.STDIO, requestTimeout, onToolsChanged, onLost);
        }
        if (http.protocol() != McpTransport.Protocol.V2025 && http.mode() != McpTransport.HttpMode.SSE) {
            StatelessSession stateless = stateless(http, requestTimeout, onToolsChanged);
            if (stateless != null) return stateless;
        }
        ServerSession.Wire first = switch (http.mode()) {
            case SSE -> ServerSession.Wire.SSE;
            case STREAMABLE -> ServerSession.Wire.STREAMABLE_HTTP;
            case AUTO -> httpWire == null ? ServerSession.Wire.STREAMABLE_HTTP : httpWire;
        };
        try {
            ServerSession opened = ServerSession.open(settings, first, requestTimeout, onToolsChanged, onLost);
            httpWire = first;
            return opened;
        } catch (RuntimeException e) {
            CallFailure failure = CallFailure.of(e);
            // a server that is not there at all will not speak SSE either; one that answered the POST with an error may
            if (http.mode() != McpTransport.HttpMode.AUTO || failure.kind() == CallFailure.Kind.CONNECTION) throw e;
            ServerSession.Wire other =
                    first == ServerSession.Wire.SSE ? ServerSession.Wire.STREAMABLE_HTTP : ServerSession.Wire.SSE;
            log.info(
                    "MCP server {} did not speak {} ({}); trying {}",
                    settings.name(),
                    first.label,
                    failure.message(),
                    other.label);
            try {
                ServerSession opened = ServerSession.open(settings, other, requestTimeout, onToolsChanged, onLost);
                httpWire = other;
                return opened;
            } catch (RuntimeException second) {
                e.addSuppressed(second);
                throw e;
            }
        }
    }

    /** The server spoken to in 2026-07-28, or null when it should get the 2025 handshake. */
    private StatelessSession stateless(
            McpTransport.Http http, Duration requestTimeout, Consumer<List<McpSchema.Tool>> onToolsChanged) {
        boolean required = http.protocol() == McpTransport.Protocol.V2026;
        try {
            StatelessSession found = StatelessSession.discover(settings, requestTimeout, onToolsChanged, null);
            if (found != null || !required) return found;
            throw new IllegalStateException("server/discover did not list " + StatelessSession.REVISION
                    + " (the server is configured with protocol: 2026)");
        } catch (RuntimeException e) {
            CallFailure failure = CallFailure.of(e);
            // a server that is not there, or does not answer, will not answer the handshake either
            if (required
                    || failure.kind() == CallFailure.Kind.CONNECTION
                    || failure.kind() == CallFailure.Kind.TIMEOUT
                    || failure.kind() == CallFailure.Kind.INTERRUPTED) throw e;
            log.debug(
                    "MCP server {} did not answer server/discover ({}); using the initialize handshake",
                    settings.name(),
                    failure.message());
            return null;
        }
    }
}
