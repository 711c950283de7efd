package dev.baton.mcp.config;

import static dev.baton.mcp.config.SectionNodes.stringMap;
import static dev.baton.mcp.config.SectionNodes.text;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Reads how Baton reaches a server: the command it runs, or the URL it calls and how. */
final class TransportReader {
    private TransportReader() {}

    static McpTransport.Stdio stdio(JsonNode node, String where, Placeholders placeholders) {
        for (String httpOnly : List.of("headers", "transport")) {
            if (node.has(httpOnly))
                throw new IllegalArgumentException(where + "." + httpOnly + " is for url servers, not command ones");
        }
        String command = placeholders.expand(text(node.path("command"), where + ".command"), where + ".command");
        List<String> args = new ArrayList<>();
        JsonNode argsNode = node.path("args");
        if (!argsNode.isMissingNode()) {
            if (!argsNode.isArray()) throw new IllegalArgumentException(where + ".args must be a list of strings");
            for (int i = 0; i < argsNode.size(); i++) {
                String argWhere = where + ".args[" + i + "]";
                args.add(placeholders.expand(text(argsNode.get(i), argWhere), argWhere));
            }
        }
        return new McpTransport.Stdio(command, args, stringMap(node.path("env"), where + ".env", placeholders));
    }

    static McpTransport.Http http(JsonNode node, String where, Placeholders placeholders) {
        if (node.has("args") || node.has("env"))
            throw new IllegalArgumentException(where + ": args and env are for command servers, not url ones");
        String url = placeholders.expand(text(node.path("url"), where + ".url"), where + ".url");
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(where + ".url is not a URL: " + e.getMessage());
        }
        McpTransport.HttpMode mode = McpTransport.HttpMode.AUTO;
        if (node.has("transport")) {
            String value = text(node.path("transport"), where + ".transport");
            try {
                mode = McpTransport.HttpMode.valueOf(value.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        where + ".transport must be auto, streamable or sse, got '" + value + "'");
            }
        }
        McpTransport.Protocol protocol =
                mode == McpTransport.HttpMode.SSE ? McpTransport.Protocol.V2025 : McpTransport.Protocol.AUTO;
        if (node.has("protocol")) {
            String value = text(node.path("protocol"), where + ".protocol");
            protocol = switch (value) {
                case "auto" -> McpTransport.Protocol.AUTO;
                case "2025" -> McpTransport.Protocol.V2025;
                case "2026" -> McpTransport.Protocol.V2026;
                default ->
                    throw new IllegalArgumentException(
                            where + ".protocol must be auto, 2025 or 2026, got '" + value + "'");
            };
        }
        Map<String, String> headers = stringMap(node.path("headers"), where + ".headers", placeholders);
        try {
            return new McpTransport.Http(uri, headers, mode, protocol);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ".url: " + e.getMessage());
        }
    }
}
