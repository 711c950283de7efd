package dev.baton.modules.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.hook.HookResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads a webhook's answer (docs/modules.md) into a {@link HookResult}. An empty body means "continue unchanged";
 * anything malformed is an error, which the module's failure policy then handles — a webhook that answers nonsense
 * is treated like one that is down. Unknown fields are ignored so receivers can add their own.
 */
final class WebhookReply {

    private WebhookReply() {}

    /** @throws InvalidReply when the answer does not follow the wire format */
    static HookResult parse(JsonNode reply) {
        if (reply == null || reply.isMissingNode() || reply.isNull()) {
            return HookResult.proceed();
        }
        if (!reply.isObject()) {
            throw new InvalidReply("the answer must be a JSON object");
        }
        String action = optionalText(reply, "action");
        action = action == null ? "continue" : action.toLowerCase(Locale.ROOT);
        List<HookResult.Extraction> extractions = extractions(reply.path("extractions"));
        List<HookResult.Audit> audit = audit(reply.path("audit"));
        return switch (action) {
            case "continue" ->
                new HookResult.Continue(
                        optionalText(reply, "userMessage"),
                        optionalText(reply, "response"),
                        strings(reply, "guidance"),
                        extractions,
                        audit);
            case "block" -> {
                String directResponse = optionalText(reply, "directResponse");
                if (directResponse == null || directResponse.isBlank()) {
                    throw new InvalidReply("a block needs a directResponse");
                }
                String reason = optionalText(reply, "reason");
                yield new HookResult.Block(
                        reason == null || reason.isBlank() ? "blocked by webhook" : reason,
                        directResponse,
                        strings(reply, "patternsMatched"),
                        extractions,
                        audit);
            }
            default -> throw new InvalidReply("unknown action '" + action + "' (continue or block)");
        };
    }

    private static List<HookResult.Extraction> extractions(JsonNode node) {
        List<HookResult.Extraction> out = new ArrayList<>();
        for (JsonNode x : array(node, "extractions")) {
            String type = optionalText(x, "type");
            if (type == null || type.isBlank() || !x.has("data")) {
                throw new InvalidReply("an extraction needs a type and data");
            }
            out.add(new HookResult.Extraction(type, x.get("data").deepCopy()));
        }
        return out;
    }

    private static List<HookResult.Audit> audit(JsonNode node) {
        List<HookResult.Audit> out = new ArrayList<>();
        for (JsonNode a : array(node, "audit")) {
            String reason = optionalText(a, "reason");
            if (reason == null || reason.isBlank()) {
                throw new InvalidReply("an audit note needs a reason");
            }
            // the original content is always what Baton gave the module, never what the webhook claims it was
            out.add(new HookResult.Audit(null, reason, strings(a, "patternsMatched")));
        }
        return out;
    }

    private static Iterable<JsonNode> array(JsonNode node, String field) {
        if (node.isMissingNode() || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw new InvalidReply("'" + field + "' must be a list");
        }
        for (JsonNode item : node) {
            if (!item.isObject()) {
                throw new InvalidReply("'" + field + "' must be a list of objects");
            }
        }
        return node;
    }

    private static List<String> strings(JsonNode node, String field) {
        JsonNode v = node.path(field);
        if (v.isMissingNode() || v.isNull()) {
            return List.of();
        }
        if (!v.isArray()) {
            throw new InvalidReply("'" + field + "' must be a list of strings");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode item : v) {
            if (!item.isTextual()) {
                throw new InvalidReply("'" + field + "' must be a list of strings");
            }
            out.add(item.asText());
        }
        return out;
    }

    private static String optionalText(JsonNode node, String field) {
        JsonNode v = node.path(field);
        if (v.isMissingNode() || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new InvalidReply("'" + field + "' must be a string");
        }
        return v.asText();
    }

    /** The webhook's answer does not follow the wire format. */
    static final class InvalidReply extends RuntimeException {
        InvalidReply(String message) {
            super("invalid webhook answer: " + message);
        }
    }
}
