package dev.baton.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The error body of the OpenAI-compatible door: {@code {"error": {"message", "type", "param", "code"}}}, the shape
 * OpenAI's clients read. Which statuses and codes a failure gets is still {@link ErrorResponses}' decision; only the
 * body differs on the paths this shape covers, so that a refused token (answered before any route runs) reads the
 * same as a refusal from the door itself.
 */
public final class OpenAiErrorShape {
    private static final List<String> PATHS = List.of("/v1/models", "/v1/chat/completions", "/v1/responses");

    private OpenAiErrorShape() {}

    /** Whether errors on {@code path} are answered in OpenAI's shape. */
    public static boolean covers(String path) {
        for (String p : PATHS) {
            if (path.equals(p) || path.startsWith(p + "/")) return true;
        }
        return false;
    }

    /** The body: {@code param} names the request field at fault, or is null. */
    public static ObjectNode body(int status, String code, String message, String param) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        ObjectNode error = root.putObject("error").put("message", message).put("type", type(status, code));
        error.put("param", param);
        error.put("code", code);
        return root;
    }

    /** OpenAI's error types, by what the client does next. */
    static String type(int status, String code) {
        if ("budget_exceeded".equals(code)) return "insufficient_quota";
        return switch (status) {
            case 401 -> "authentication_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            case 409 -> "conflict_error";
            case 429 -> "rate_limit_error";
            default -> status >= 500 ? "server_error" : "invalid_request_error";
        };
    }
}
