package dev.baton.mcp.client;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The names the model sees for an MCP server's tools: {@code <server>__<tool>}, e.g. {@code memory__create_entities}.
 * Server names have no underscores, so the first {@code __} always ends the server's part and two servers can never
 * produce the same name; built-in tools never contain {@code __}. Characters outside {@code [A-Za-z0-9_-]} (a tool
 * named {@code notes.search}) become {@code _}, and a name changed that way or longer than 64 characters gets a short
 * hash of the original, so two of one server's tools cannot collide either.
 */
public final class ToolNames {
    public static final String SEPARATOR = "__";
    static final int MAX_LENGTH = 64;
    private static final int HASH_CHARS = 8;

    private ToolNames() {}

    /** The function-name-safe name of {@code tool} of {@code server}. */
    public static String exposed(String server, String tool) {
        String prefix = server + SEPARATOR;
        String safe = tool.replaceAll("[^A-Za-z0-9_-]", "_");
        if (!tool.isEmpty() && safe.equals(tool) && prefix.length() + safe.length() <= MAX_LENGTH) {
            return prefix + safe;
        }
        String suffix = "_" + hash(tool);
        int room = MAX_LENGTH - prefix.length() - suffix.length();
        return prefix + safe.substring(0, Math.min(safe.length(), Math.max(0, room))) + suffix;
    }

    private static String hash(String tool) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(tool.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, HASH_CHARS);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
