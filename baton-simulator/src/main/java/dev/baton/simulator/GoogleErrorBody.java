package dev.baton.simulator;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The body of a {@link Fault.GoogleError}: what Gemini's OpenAI-compatible endpoint answers instead of OpenAI's
 * {@code {"error": {...}}}, an array holding Google's error object, with the wait of a 429 as a RetryInfo detail.
 */
final class GoogleErrorBody {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private GoogleErrorBody() {}

    static byte[] bytes(Fault.GoogleError fault) {
        ObjectNode error = NODES.objectNode()
                .put("code", fault.status())
                .put("message", fault.message())
                .put("status", fault.googleStatus());
        ArrayNode details = error.putArray("details");
        if (fault.reason() != null) {
            details.addObject()
                    .put("@type", "type.googleapis.com/google.rpc.ErrorInfo")
                    .put("reason", fault.reason())
                    .put("domain", "googleapis.com");
        }
        if (fault.retryDelay() != null) {
            details.addObject()
                    .put("@type", "type.googleapis.com/google.rpc.RetryInfo")
                    // protobuf's Duration in JSON: seconds with an "s", fractions as decimals ("1.5s")
                    .put("retryDelay", protobufDuration(fault.retryDelay()));
        }
        ArrayNode body = NODES.arrayNode();
        body.addObject().set("error", error);
        return ChatWire.bytes(body);
    }

    /** Protobuf's Duration in JSON: whole seconds as "26s", fractions as decimals ("1.5s"). */
    private static String protobufDuration(java.time.Duration wait) {
        long millis = wait.toMillis();
        return (millis % 1000 == 0 ? String.valueOf(millis / 1000) : String.valueOf(millis / 1000.0)) + "s";
    }
}
