package dev.baton.mcp.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.modern.McpSchema;
import java.util.List;
import java.util.stream.Stream;

/**
 * The MCP revisions {@code /mcp} speaks, and which of its two ways a POST is answered — a dual-era server, as the
 * 2026-07-28 revision describes one: a request carrying a protocol version in {@code _meta} is served without a
 * session (2026-07-28); {@code initialize} and everything sent with an {@code Mcp-Session-Id} go through the handshake
 * and session of 2025-03-26 … 2025-11-25, exactly as before.
 */
final class Revisions {
    /** The revisions with a handshake and a session, oldest first. */
    static final List<String> HANDSHAKE = List.of("2025-03-26", "2025-06-18", "2025-11-25");

    /** Every revision served, newest first (what {@code server/discover} and an unsupported version name). */
    static final List<String> ALL = Stream.concat(Stream.of(StatelessServer.REVISION), HANDSHAKE.reversed().stream())
            .toList();

    private static final ObjectMapper JSON = new ObjectMapper();

    private Revisions() {}

    /**
     * Whether the POST is one of the stateless revision: its {@code _meta} names a protocol version; or, without a
     * session and not an {@code initialize}, its {@code MCP-Protocol-Version} header names a revision without a
     * handshake (so a request that forgot its {@code _meta}, or names a version no one speaks, is told so in this
     * revision's terms), or it is {@code server/discover}.
     */
    static boolean stateless(McpRequestHeaders headers, String body) {
        JsonNode message = parse(body);
        if (message == null || !message.isObject()) return false;
        JsonNode claimed = message.path("params").path("_meta").path(McpSchema.MetaKeys.PROTOCOL_VERSION);
        if (claimed.isTextual() && !claimed.asText().isBlank()) return true;
        if (headers.sessionId() != null) return false;
        String method = message.path("method").asText("");
        if (method.equals("initialize")) return false;
        String version = headers.protocolVersion();
        if (version != null) return !HANDSHAKE.contains(version);
        return method.equals("server/discover");
    }

    private static JsonNode parse(String body) {
        if (body == null || body.isBlank()) return null;
        try {
            return JSON.readTree(body);
        } catch (Exception e) {
            // not JSON: the handshake's path says so in its terms, as it always has
            return null;
        }
    }
}
