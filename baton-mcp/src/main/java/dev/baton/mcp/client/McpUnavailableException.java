package dev.baton.mcp.client;

/**
 * A call that never reached a working server (not connected, the process died, the connection broke) or that the
 * server did not answer in time. Not a {@link dev.baton.core.tool.ToolException}: it says the server is unhealthy, so
 * the source's circuit breaker counts it. No stack trace: the message says everything, and during an outage there
 * is one per call.
 */
public final class McpUnavailableException extends RuntimeException {
    public McpUnavailableException(String message) {
        super(message, null, false, false);
    }
}
