package dev.baton.mcp.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigNodes;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Reads the values of baton.yaml's {@code mcp} section, each failure naming where in the section the wrong value is
 * ({@code mcp.servers.todo.timeout: ...}).
 */
final class SectionNodes {
    private SectionNodes() {}

    static Boolean flag(JsonNode node, Boolean fallback, String where) {
        if (node.isMissingNode() || node.isNull()) return fallback;
        if (!node.isBoolean()) throw new IllegalArgumentException(where + " must be true or false");
        return node.asBoolean();
    }

    static String optionalText(JsonNode node, String where, Placeholders placeholders) {
        if (node.isMissingNode() || node.isNull()) return null;
        return placeholders.expand(text(node, where), where);
    }

    static URI optionalUrl(JsonNode node, String where, Placeholders placeholders) {
        String text = optionalText(node, where, placeholders);
        return text == null ? null : url(text, where);
    }

    static URI url(String text, String where) {
        try {
            URI uri = new URI(text);
            if (!uri.isAbsolute()) throw new IllegalArgumentException(where + " must be an absolute URL, got " + text);
            return uri;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(where + " is not a URL: " + e.getMessage());
        }
    }

    static Map<String, String> stringMap(JsonNode node, String where, Placeholders placeholders) {
        if (node.isMissingNode() || node.isNull()) return Map.of();
        requireObject(node, where);
        Map<String, String> out = new LinkedHashMap<>();
        node.properties().forEach(e -> {
            String entryWhere = where + "." + e.getKey();
            out.put(e.getKey(), placeholders.expand(text(e.getValue(), entryWhere), entryWhere));
        });
        return out;
    }

    static Duration duration(JsonNode node, Duration fallback, String where) {
        try {
            return ConfigNodes.duration(node, fallback);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage());
        }
    }

    static String text(JsonNode node, String where) {
        if (node == null || !node.isValueNode() || node.isNull())
            throw new IllegalArgumentException(where + " must be a string");
        return node.asText();
    }

    static void requireObject(JsonNode node, String where) {
        if (!node.isObject()) throw new IllegalArgumentException(where + " must be a map");
    }

    static void checkKeys(JsonNode node, Set<String> allowed, String where) {
        node.fieldNames().forEachRemaining(key -> {
            if (!allowed.contains(key))
                throw new IllegalArgumentException(where + ": unknown key '" + key + "' (known: "
                        + String.join(", ", allowed.stream().sorted().toList()) + ")");
        });
    }
}
