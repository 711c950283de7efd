package dev.baton.server.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.runtime.Refusal;
import dev.baton.server.http.ErrorResponses;
import dev.baton.server.http.Json;

/**
 * A JSON-RPC error in A2A's codes, answered as {@code {"jsonrpc":"2.0","id":…,"error":{code,message,data}}}. Most are
 * HTTP 200 as JSON-RPC has it; a refusal the client should wait out (rate limit, budget) keeps its HTTP 429 and
 * {@code Retry-After}, so that a plain HTTP client backs off too.
 *
 * @param data Baton's own error code ({@code data.code}) and, when the client should wait, {@code retryAfterSeconds}
 */
final class A2aError extends RuntimeException {
    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL_ERROR = -32603;
    static final int TASK_NOT_FOUND = -32001;
    static final int TASK_NOT_CANCELABLE = -32002;
    static final int PUSH_NOTIFICATION_NOT_SUPPORTED = -32003;
    static final int UNSUPPORTED_OPERATION = -32004;
    static final int VERSION_NOT_SUPPORTED = -32009;

    final int code;
    final int httpStatus;
    final transient ObjectNode data;

    A2aError(int code, String message, String batonCode) {
        this(code, message, batonCode, 200);
    }

    private A2aError(int code, String message, String batonCode, int httpStatus) {
        super(message);
        this.code = code;
        this.httpStatus = httpStatus;
        this.data = Json.MAPPER.createObjectNode().put("code", batonCode);
    }

    static A2aError taskNotFound() {
        return new A2aError(TASK_NOT_FOUND, "task not found", "not_found");
    }

    static A2aError invalidParams(String message) {
        return new A2aError(INVALID_PARAMS, message, "invalid_request");
    }

    /** A refusal of the runtime in A2A's terms; someone else's session or turn is "not found", as no such one is. */
    static A2aError of(Refusal refusal) {
        A2aError error = switch (refusal) {
            case Refusal.NotFound n -> new A2aError(TASK_NOT_FOUND, n.what() + " not found", refusal.code());
            case Refusal.InvalidInput i -> new A2aError(INVALID_PARAMS, i.message(), refusal.code());
            case Refusal.InvalidValue v -> new A2aError(INVALID_PARAMS, v.message(), refusal.code());
            case Refusal.InvalidArguments a -> new A2aError(INVALID_PARAMS, a.message(), refusal.code());
            case Refusal.IdempotencyKeyReused k -> new A2aError(INVALID_PARAMS, k.message(), refusal.code());
            case Refusal.RateLimited r ->
                new A2aError(INTERNAL_ERROR, r.message(), refusal.code(), 429)
                        .retryAfter(ErrorResponses.retryAfterSeconds(r.retryAfter()));
            case Refusal.BudgetExceeded b ->
                new A2aError(INTERNAL_ERROR, b.message(), refusal.code(), 429)
                        .retryAfter(ErrorResponses.retryAfterSeconds(b.retryAfter()));
            // the caller's role may not use the agent: the operation is not theirs
            case Refusal.Forbidden f -> new A2aError(UNSUPPORTED_OPERATION, f.message(), refusal.code());
            case Refusal.SessionBusy b -> new A2aError(UNSUPPORTED_OPERATION, b.message(), refusal.code());
            case Refusal.SessionCompleted c -> new A2aError(UNSUPPORTED_OPERATION, c.message(), refusal.code());
            case Refusal.AgentUnavailable a -> new A2aError(UNSUPPORTED_OPERATION, a.message(), refusal.code());
            case Refusal.IdempotencyKeyInUse k -> new A2aError(UNSUPPORTED_OPERATION, k.message(), refusal.code());
            case Refusal.ApprovalNotPending a -> new A2aError(UNSUPPORTED_OPERATION, a.message(), refusal.code());
        };
        return error;
    }

    private A2aError retryAfter(long seconds) {
        data.put("retryAfterSeconds", seconds);
        return this;
    }

    /** Seconds to wait before trying again; 0 when there is nothing to wait for. */
    long retryAfterSeconds() {
        return data.path("retryAfterSeconds").asLong(0);
    }

    /** The JSON-RPC response carrying this error. */
    ObjectNode response(JsonNode id) {
        ObjectNode r = Json.MAPPER.createObjectNode().put("jsonrpc", "2.0");
        r.set("id", id == null ? Json.MAPPER.nullNode() : id);
        ObjectNode e = r.putObject("error").put("code", code).put("message", getMessage());
        e.set("data", data);
        return r;
    }
}
