package dev.baton.mcp.client;

import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpTransportSessionClosedException;
import io.modelcontextprotocol.spec.McpTransportSessionNotFoundException;
import java.io.IOException;
import java.util.concurrent.TimeoutException;

/**
 * What an exception out of the SDK means for the server's health, found by walking its causes: the SDK wraps
 * freely (a reactor timeout, a {@code RuntimeException} around an {@code IOException}, …).
 */
record CallFailure(Kind kind, String message) {

    enum Kind {
        /** The server answered with a JSON-RPC error: it is up, it refused this request. */
        SERVER_ERROR,
        /** The server no longer knows the HTTP session (it restarted). */
        SESSION_GONE,
        /** The connection or process is gone. */
        CONNECTION,
        TIMEOUT,
        INTERRUPTED,
        OTHER
    }

    static CallFailure sessionGone() {
        return new CallFailure(Kind.SESSION_GONE, "the server no longer knows the session");
    }

    static CallFailure of(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof McpError error) {
                String message = error.getJsonRpcError() != null
                                && error.getJsonRpcError().message() != null
                        ? error.getJsonRpcError().message()
                        : String.valueOf(error.getMessage());
                return new CallFailure(Kind.SERVER_ERROR, message);
            }
            if (t instanceof io.modelcontextprotocol.modern.McpException error)
                return new CallFailure(Kind.SERVER_ERROR, String.valueOf(error.getMessage()));
            if (t instanceof io.modelcontextprotocol.modern.client.McpTimeoutException)
                return new CallFailure(Kind.TIMEOUT, "timed out");
            if (t instanceof io.modelcontextprotocol.modern.client.McpResponseLostException)
                return new CallFailure(Kind.CONNECTION, text(t));
            if (t instanceof McpTransportSessionNotFoundException) return new CallFailure(Kind.SESSION_GONE, text(t));
            if (t instanceof InterruptedException) return new CallFailure(Kind.INTERRUPTED, "interrupted");
            if (t instanceof TimeoutException || isBlockTimeout(t)) return new CallFailure(Kind.TIMEOUT, "timed out");
            if (t instanceof IOException
                    || t instanceof McpTransportSessionClosedException
                    || "MCP session with server terminated".equals(t.getMessage()))
                return new CallFailure(Kind.CONNECTION, text(t));
        }
        return new CallFailure(Kind.OTHER, text(thrown));
    }

    /** Reactor's {@code block(Duration)} reports its timeout as an IllegalStateException. */
    private static boolean isBlockTimeout(Throwable t) {
        return t instanceof IllegalStateException
                && t.getMessage() != null
                && t.getMessage().startsWith("Timeout on blocking read");
    }

    private static String text(Throwable t) {
        String message = t.getMessage();
        if (message == null || message.isBlank()) return t.getClass().getSimpleName();
        return message.length() <= 300 ? message : message.substring(0, 300) + "…";
    }
}
