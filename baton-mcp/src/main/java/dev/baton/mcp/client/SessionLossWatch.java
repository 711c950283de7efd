package dev.baton.mcp.client;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpTransportSessionNotFoundException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * An HTTP transport that counts the times the server said it no longer knows the session (it restarted). The SDK
 * then opens a new session by itself, but the call in flight only learns "session terminated", which could as well
 * mean the call ran and the connection broke; the count tells the two apart, so only a call the server certainly
 * never ran is sent again.
 */
final class SessionLossWatch implements McpClientTransport {
    private final McpClientTransport delegate;
    private final AtomicLong losses = new AtomicLong();

    SessionLossWatch(McpClientTransport delegate) {
        this.delegate = delegate;
    }

    long losses() {
        return losses.get();
    }

    @Override
    public void setExceptionHandler(Consumer<Throwable> handler) {
        delegate.setExceptionHandler(t -> {
            if (t instanceof McpTransportSessionNotFoundException) losses.incrementAndGet();
            handler.accept(t);
        });
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return delegate.connect(handler);
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        return delegate.sendMessage(message);
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
