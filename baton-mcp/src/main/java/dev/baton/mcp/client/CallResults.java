package dev.baton.mcp.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.tool.ToolException;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * What the model reads for an MCP tool's result. Nothing is dropped silently:
 *
 * <ul>
 *   <li>{@code isError: true} becomes a tool error (code {@code mcp_tool_error}) carrying the server's text;
 *   <li>structured content alone, with no other content or with text that is just its JSON (what the spec asks servers
 *       to send alongside it), is the result as it is: {@code {"temperature": 22, …}};
 *   <li>otherwise the result is {@code {"text": …, "structuredContent": …, "attachments": […]}} with whatever of those
 *       the server sent, text blocks joined by blank lines;
 *   <li>images, audio and resources are summarised as attachments (type, MIME type, size, URI, a text preview) rather
 *       than passed on as base64 the model cannot use.
 * </ul>
 *
 * Nothing is cut here: every shape of result (text, structured content, both) is bounded in one place for every tool,
 * where the call finishes ({@link dev.baton.core.tool.ToolResultBound}).
 */
final class CallResults {
    static final int PREVIEW_CHARS = 2_000;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private CallResults() {}

    /**
     * @throws ToolException when the server reports the call failed
     */
    static JsonNode toJson(McpSchema.CallToolResult result) {
        List<String> texts = new ArrayList<>();
        ArrayNode attachments = NODES.arrayNode();
        for (McpSchema.Content content : result.content() == null ? List.<McpSchema.Content>of() : result.content()) {
            if (content instanceof McpSchema.TextContent text) {
                if (text.text() != null) texts.add(text.text());
            } else {
                attachments.add(summary(content));
            }
        }
        String text = String.join("\n\n", texts);
        if (Boolean.TRUE.equals(result.isError())) {
            throw new ToolException("mcp_tool_error", errorMessage(text, attachments));
        }
        JsonNode structured = result.structuredContent() == null ? null : SdkJson.tree(result.structuredContent());
        if (structured != null && attachments.isEmpty() && (text.isEmpty() || sameJson(text, structured))) {
            return structured;
        }
        ObjectNode out = NODES.objectNode();
        if (!text.isEmpty() || structured == null) out.put("text", text);
        if (structured != null) out.set("structuredContent", structured);
        if (!attachments.isEmpty()) out.set("attachments", attachments);
        return out;
    }

    private static String errorMessage(String text, ArrayNode attachments) {
        String message = text.isBlank() ? "The tool reported an error." : text.strip();
        if (message.length() > PREVIEW_CHARS) message = message.substring(0, PREVIEW_CHARS) + "…";
        return attachments.isEmpty() ? message : message + " (with " + attachments.size() + " attachment(s))";
    }

    private static ObjectNode summary(McpSchema.Content content) {
        ObjectNode out = NODES.objectNode();
        switch (content) {
            case McpSchema.ImageContent image -> {
                out.put("type", "image").put("mimeType", image.mimeType());
                out.put("bytes", decodedSize(image.data()));
                out.put("note", "an image the model cannot see; describe it only by these details");
            }
            case McpSchema.AudioContent audio -> {
                out.put("type", "audio").put("mimeType", audio.mimeType());
                out.put("bytes", decodedSize(audio.data()));
            }
            case McpSchema.ResourceLink link -> {
                out.put("type", "resource_link").put("uri", link.uri()).put("name", link.name());
                if (link.title() != null) out.put("title", link.title());
                if (link.description() != null) out.put("description", preview(link.description()));
                if (link.mimeType() != null) out.put("mimeType", link.mimeType());
                if (link.size() != null) out.put("bytes", link.size());
            }
            case McpSchema.EmbeddedResource embedded -> {
                McpSchema.ResourceContents resource = embedded.resource();
                out.put("type", "resource").put("uri", resource.uri());
                if (resource.mimeType() != null) out.put("mimeType", resource.mimeType());
                if (resource instanceof McpSchema.TextResourceContents textResource && textResource.text() != null) {
                    out.put("chars", textResource.text().length());
                    out.put("preview", preview(textResource.text()));
                } else if (resource instanceof McpSchema.BlobResourceContents blob) {
                    out.put("bytes", decodedSize(blob.blob()));
                }
            }
            default -> out.put("type", content.type() == null ? "unknown" : content.type());
        }
        return out;
    }

    private static boolean sameJson(String text, JsonNode structured) {
        try {
            return structured.equals(JSON.readTree(text));
        } catch (Exception e) {
            return false;
        }
    }

    private static String preview(String text) {
        return text.length() <= PREVIEW_CHARS ? text : text.substring(0, PREVIEW_CHARS) + "…";
    }

    /** The size of base64 data once decoded, without decoding it. */
    private static long decodedSize(String base64) {
        if (base64 == null || base64.isEmpty()) return 0;
        int padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
        return Math.max(0, (long) base64.length() * 3 / 4 - padding);
    }
}
