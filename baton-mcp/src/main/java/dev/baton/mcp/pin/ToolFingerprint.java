package dev.baton.mcp.pin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.tool.ToolJson;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The fingerprint a tool is pinned by: SHA-256 over its description, argument schema and annotations, in a
 * canonical JSON form (keys sorted), so reordering keys is not a change but any change of wording, of the arguments
 * or of a hint is. The annotations are part of it because flipping {@code destructiveHint} off is as much a rug pull
 * as rewording the description.
 */
public final class ToolFingerprint {
    private ToolFingerprint() {}

    /** "sha256:" followed by 64 hex digits. */
    public static String of(String description, JsonNode inputSchema, JsonNode annotations) {
        ObjectNode fingerprinted = JsonNodeFactory.instance.objectNode();
        fingerprinted.put("description", description == null ? "" : description);
        fingerprinted.set("inputSchema", inputSchema == null ? JsonNodeFactory.instance.objectNode() : inputSchema);
        if (annotations != null && !annotations.isNull() && !annotations.isMissingNode())
            fingerprinted.set("annotations", annotations);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(ToolJson.canonical(fingerprinted).getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
