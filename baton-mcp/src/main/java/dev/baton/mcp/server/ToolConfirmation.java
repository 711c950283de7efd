package dev.baton.mcp.server;

import dev.baton.core.tool.ToolJson;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.InputResponses;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A 2026-07-28 {@code tools/call} of a tool that needs the user's approval, as a multi round-trip request: the first
 * call is answered {@code input_required} with a yes/no elicitation for the client's user; the client asks, and calls
 * again with the answer and the {@code requestState} it was given. The state (sealed by the SDK with an HMAC over the
 * caller, the method, the tool and an expiry, so it works on no other user, tool or call) holds a digest of the
 * arguments asked about: a retry with other arguments is asked about again, never run on an answer about something
 * else.
 */
final class ToolConfirmation {
    /** The key of the question in {@code inputRequests} and of its answer in {@code inputResponses}. */
    static final String QUESTION = "baton_approval";

    private static final String APPROVE = "approve";

    /** What to do with the call. */
    sealed interface Decision {
        /** The user said yes to exactly these arguments: run it. */
        record Run() implements Decision {}

        /** Ask the user (again): answer with this. */
        record Ask(McpSchema.InputRequiredResult question) implements Decision {}

        /** Do not run it: answer with this tool error. */
        record Refuse(McpSchema.CallToolResult error) implements Decision {}
    }

    private ToolConfirmation() {}

    /**
     * @param reason why the call needs approval (Baton's rule)
     * @param trustClients run it without asking when the client cannot be asked
     * @param request the call, its {@code requestState} already opened (verified) by the SDK
     */
    static Decision decide(
            McpRequestContext context,
            McpSchema.CallToolRequest request,
            String argumentsJson,
            String reason,
            boolean trustClients,
            McpJsonMapper json) {
        if (!context.clientCapabilities().supportsElicitationForm()) {
            return trustClients
                    ? new Decision.Run()
                    : new Decision.Refuse(error(ToolCallApproval.refusal(
                            request.name(), reason, "Baton cannot ask you: this MCP client declares no elicitation")));
        }
        String asked = digest(ToolJson.canonical(ToolJson.argumentsForDisplay(argumentsJson)));
        if (request.requestState() == null || !asked.equals(request.requestState()))
            return new Decision.Ask(question(request.name(), reason, argumentsJson, asked));
        McpSchema.ElicitResult answer =
                InputResponses.get(request.inputResponses(), QUESTION, McpSchema.ElicitResult.class, json);
        if (answer == null) return new Decision.Ask(question(request.name(), reason, argumentsJson, asked));
        boolean yes = answer.action() == McpSchema.ElicitResult.Action.ACCEPT
                && answer.content() != null
                && Boolean.TRUE.equals(answer.content().get(APPROVE));
        return yes
                ? new Decision.Run()
                : new Decision.Refuse(error(ToolCallApproval.DENIED + ": you did not approve the call of "
                        + request.name() + ", so it was not run."));
    }

    private static McpSchema.InputRequiredResult question(
            String tool, String reason, String argumentsJson, String asked) {
        Map<String, Object> approve = new LinkedHashMap<>();
        approve.put("type", "boolean");
        approve.put("title", "Run " + tool + "?");
        approve.put("description", "Yes runs it once, with exactly these arguments, as you.");
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", Map.of(APPROVE, approve));
        schema.put("required", List.of(APPROVE));
        String message = reason + " Run " + tool + " with " + ToolJson.argumentsForDisplay(argumentsJson) + "?";
        return McpSchema.InputRequiredResult.builder()
                .elicit(
                        QUESTION,
                        McpSchema.ElicitFormRequest.builder(message, schema).build())
                .requestState(asked)
                .build();
    }

    static McpSchema.CallToolResult error(String text) {
        return McpSchema.CallToolResult.builder()
                .addContent(McpSchema.TextContent.builder(text).build())
                .isError(true)
                .build();
    }

    /** SHA-256 of the arguments in canonical form (the same arguments in another key order are the same call). */
    private static String digest(String argumentsJson) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(argumentsJson.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
