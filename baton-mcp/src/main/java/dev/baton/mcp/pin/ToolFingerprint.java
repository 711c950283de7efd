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
 * The fingerprint a tool is pinned by: SHA-256 over every field of it the model or a user sees — its title,
 * description, input and output schema and annotations — in a canonical JSON form (keys sorted), so reordering keys
 * is not a change but any change of wording, of the arguments, of the results or of a hint is. (The name is the pin's
 * key.) The title is part of it because a tool without a description is offered by its title; the annotations
 * because flipping {@code destructiveHint} off is as much a rug pull as rewording the description.
 *
 * <p>A title or output schema the server leaves out adds nothing, so a tool without them keeps the fingerprint it was
 * pinned by before they were covered.
 */
public final class ToolFingerprint {
    private ToolFingerprint() {}

    /** A tool with neither title nor output schema. */
    public static String of(String description, JsonNode inputSchema, JsonNode annotations) {
        return of(null, description, inputSchema, null, annotations);
    }

    /** "sha256:" followed by 64 hex digits. */
    public static String of(
            String title, String description, JsonNode inputSchema, JsonNode outputSchema, JsonNode annotations) {
        ObjectNode fingerprinted = JsonNodeFactory.instance.objectNode();
        if (title != null) fingerprinted.put("title", title);
        fingerprinted.put("description", description == null ? "" : description);
        fingerprinted.set("inputSchema", inputSchema == null ? JsonNodeFactory.instance.objectNode() : inputSchema);
        if (present(outputSchema)) fingerprinted.set("outputSchema", outputSchema);
        if (present(annotations)) fingerprinted.set("annotations", annotations);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(ToolJson.canonical(fingerprinted).getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static boolean present(JsonNode node) {
        return node != null && !node.isNull() && !node.isMissingNode();
    }
}
