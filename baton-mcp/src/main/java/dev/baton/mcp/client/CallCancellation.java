package dev.baton.mcp.client;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Tells a server that Baton gave up on a {@code tools/call} (it timed out, or the turn was cancelled): MCP's
 * {@code notifications/cancelled} with the request's id, so the server can stop the work (the 2025 revisions'
 * cancellation utility; on stdio the 2026-07-28 one too). The SDK's client picks the id and sends no such notification
 * itself, so this transport, wrapped around the real one, notes the id of each {@code tools/call} in the
 * {@link #SENT} holder the call put in its Reactor context, and {@link #cancel} sends the notification on the same
 * transport. Sending is best effort: a server that is gone cannot be told, and the call has failed either way.
 */
final class CallCancellation implements McpClientTransport {
    /** The Reactor context key of a call's holder of its request id. */
    static final String SENT = "baton.sentCallId";

    private static final Logger log = LoggerFactory.getLogger(CallCancellation.class);

    private final McpClientTransport delegate;

    CallCancellation(McpClientTransport delegate) {
        this.delegate = delegate;
    }

    /** The transport this one wraps (for what only it knows: a process id, session losses). */
    McpClientTransport delegate() {
        return delegate;
    }

    /** Sends {@code notifications/cancelled} for the request id the holder noted; nothing when it noted none. */
    void cancel(AtomicReference<Object> sent, String reason) {
        Object id = sent.get();
        if (id == null) return;
        McpSchema.JSONRPCNotification cancelled =
                new McpSchema.JSONRPCNotification("notifications/cancelled", Map.of("requestId", id, "reason", reason));
        delegate.sendMessage(cancelled)
                .subscribe(
                        done -> {},
                        e -> log.debug("notifications/cancelled for request {} not sent: {}", id, e.toString()));
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        if (!(message instanceof McpSchema.JSONRPCRequest request
                && McpSchema.METHOD_TOOLS_CALL.equals(request.method()))) return delegate.sendMessage(message);
        return Mono.deferContextual(context -> {
            if (context.getOrDefault(SENT, null) instanceof AtomicReference<?> holder)
                ((AtomicReference<Object>) holder).set(request.id());
            return delegate.sendMessage(message);
        });
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return delegate.connect(handler);
    }

    @Override
    public void setExceptionHandler(Consumer<Throwable> handler) {
        delegate.setExceptionHandler(handler);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return delegate.closeGracefully();
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return delegate.unmarshalFrom(data, typeRef);
    }

    @Override
    public List<String> protocolVersions() {
        return delegate.protocolVersions();
    }
}
