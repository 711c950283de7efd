package dev.baton.app.a2a;

import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolSource;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The remote A2A agents of {@code a2a.remotes}, each one tool {@code a2a__<name>}. An agent's allow-list admits one by
 * that name, by {@code a2a:<name>}, or all of them by {@code a2a:*}. Every call goes through the same executor as any
 * tool: its permissions ({@code a2a:<name>} unless configured), timeout, breaker, approval policy and audit.
 */
public final class RemoteAgentSource implements ToolSource {
    /** Redirects are never followed: the URL is the operator's, not something a remote may change. */
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();

    private final List<Tool> tools;
    private final Map<String, String> remoteByTool;

    private RemoteAgentSource(List<RemoteAgentSettings> remotes, HttpClient http) {
        this.tools =
                remotes.stream().map(r -> (Tool) new RemoteAgentTool(r, http)).toList();
        this.remoteByTool = remotes.stream()
                .collect(Collectors.toUnmodifiableMap(RemoteAgentSettings::toolName, RemoteAgentSettings::name));
    }

    /** The source of {@code remotes}; empty when none is configured. */
    public static List<ToolSource> of(List<RemoteAgentSettings> remotes) {
        return remotes.isEmpty() ? List.of() : List.of(new RemoteAgentSource(remotes, HTTP));
    }

    @Override
    public String name() {
        return "a2a";
    }

    @Override
    public List<Tool> tools() {
        return tools;
    }

    @Override
    public boolean admits(String allowListEntry, ToolDefinition tool) {
        String remote = remoteByTool.get(tool.name());
        if (remote == null) return false;
        return allowListEntry.equals("a2a:*") || allowListEntry.equals("a2a:" + remote);
    }
}
