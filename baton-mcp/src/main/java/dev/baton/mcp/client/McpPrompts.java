package dev.baton.mcp.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.ToolException;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The prompts of connected MCP servers, for a caller to use as slash-commands: listed and rendered only from servers
 * the caller may use. Only servers of shared data ({@code state: shared}) offer theirs: a server that keeps each
 * user's data apart is either reached through a listing process no user owns, or needs the caller's identity or
 * account on every request, which prompt requests do not carry yet.
 */
public final class McpPrompts {
    private static final Logger log = LoggerFactory.getLogger(McpPrompts.class);

    /** One prompt of one server. */
    public record Prompt(String server, String name, String title, String description, List<Argument> arguments) {}

    public record Argument(String name, String description, boolean required) {}

    /** A prompt rendered by its server: messages to put in the conversation as they are. */
    public record Rendered(String server, String name, String description, List<Message> messages) {}

    /** @param content the server's content block as JSON ({@code {"type": "text", "text": …}}, an image, …) */
    public record Message(String role, JsonNode content) {}

    private final List<McpConnection> connections;

    McpPrompts(List<McpConnection> connections) {
        this.connections = List.copyOf(connections);
    }

    /**
     * The prompts of every connected server the caller may use, by server in configuration order; a server that is
     * down or fails the listing is left out (and logged), not an error for the others.
     */
    public List<Prompt> list(Principal caller) {
        List<Prompt> out = new ArrayList<>();
        for (McpConnection c : connections) {
            if (!usableBy(c, caller) || !c.status().up()) continue;
            try {
                for (McpSchema.Prompt p : c.prompts()) out.add(prompt(c.name(), p));
            } catch (RuntimeException e) {
                log.warn("MCP server {}: listing its prompts failed: {}", c.name(), e.getMessage());
            }
        }
        return out;
    }

    /**
     * Renders one prompt.
     *
     * @return empty when there is no such server, or the caller may not use it (the two look the same)
     * @throws ToolException when the server refused (an unknown prompt, a missing argument)
     * @throws McpUnavailableException when the server is down or did not answer in time
     */
    public Optional<Rendered> render(Principal caller, String server, String name, Map<String, String> arguments) {
        Optional<McpConnection> found = connections.stream()
                .filter(c -> c.name().equals(server) && usableBy(c, caller))
                .findFirst();
        if (found.isEmpty()) return Optional.empty();
        McpSchema.GetPromptResult result = found.get().prompt(name, Map.copyOf(arguments));
        List<Message> messages = result.messages() == null
                ? List.of()
                : result.messages().stream()
                        .map(m -> new Message(
                                m.role() == null ? null : SdkJson.tree(m.role()).asText(), SdkJson.tree(m.content())))
                        .toList();
        return Optional.of(new Rendered(server, name, result.description(), messages));
    }

    /** The rule of the server's tools: its permissions, and one of the roles its shared data is for. */
    private static boolean usableBy(McpConnection c, Principal caller) {
        var settings = c.settings();
        if (!(settings.state() instanceof dev.baton.mcp.config.ServerState.Shared)) return false;
        return caller.hasAllPermissions(settings.permissions())
                && caller.roles().stream().anyMatch(settings.sharedWith()::contains);
    }

    private static Prompt prompt(String server, McpSchema.Prompt p) {
        List<Argument> arguments = p.arguments() == null
                ? List.of()
                : p.arguments().stream()
                        .map(a -> new Argument(a.name(), a.description(), Boolean.TRUE.equals(a.required())))
                        .toList();
        return new Prompt(server, p.name(), p.title(), p.description(), arguments);
    }
}
