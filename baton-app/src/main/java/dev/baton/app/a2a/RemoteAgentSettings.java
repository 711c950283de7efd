package dev.baton.app.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.config.ConfigSection;
import dev.baton.core.config.Durations;
import dev.baton.runtime.config.ConfigException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One remote A2A agent Baton calls as a tool, from baton.yaml's {@code a2a.remotes}:
 *
 * <pre>{@code
 * a2a:
 *   remotes:
 *     weather:                                         # 1-32 letters, digits, dashes; the tool is a2a__weather
 *       url: https://weather.example.com/a2a           # the agent's JSON-RPC endpoint (its card's interface URL)
 *       description: Answers questions about the weather   # what the model is told the tool does
 *       headers: { Authorization: "Bearer ${WEATHER_TOKEN}" }   # ${NAME}: an environment variable
 *       timeout: 60s                                   # per call (default 60s)
 *       permissions: [a2a:weather]                     # the default: a2a:<name>
 *       destructive: false                             # true: each call waits for the user's approval
 * }</pre>
 */
public record RemoteAgentSettings(
        String name,
        URI url,
        String description,
        Map<String, String> headers,
        Duration timeout,
        Set<String> permissions,
        boolean destructive) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9-]{1,32}");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");
    private static final List<String> KEYS =
            List.of("url", "description", "headers", "timeout", "permissions", "destructive");

    public RemoteAgentSettings {
        headers = Map.copyOf(headers);
        permissions = Set.copyOf(permissions);
    }

    /** The name the model calls it by. */
    public String toolName() {
        return "a2a__" + name;
    }

    /**
     * The remote agents of {@code a2a.remotes} (none without it).
     *
     * @throws ConfigException for a bad name, a missing or non-http(s) URL, an unknown key or an unset variable
     */
    public static List<RemoteAgentSettings> parse(JsonNode a2aSection, Map<String, String> env) {
        JsonNode remotes = a2aSection.path("remotes");
        if (remotes.isMissingNode() || remotes.isNull()) return List.of();
        if (!remotes.isObject()) throw new ConfigException("a2a.remotes must be a map of remote agents by name");
        List<RemoteAgentSettings> out = new ArrayList<>();
        remotes.fields().forEachRemaining(entry -> out.add(one(entry.getKey(), entry.getValue(), env)));
        return List.copyOf(out);
    }

    private static RemoteAgentSettings one(String name, JsonNode node, Map<String, String> env) {
        String where = "a2a.remotes." + name;
        if (!NAME.matcher(name).matches())
            throw new ConfigException(where + ": a remote agent's name is 1-32 letters, digits and dashes");
        if (!node.isObject()) throw new ConfigException(where + " must be a map");
        ConfigSection.of(node, where, KEYS);
        String url = expand(node.path("url").asText(""), where + ".url", env);
        if (!url.startsWith("http://") && !url.startsWith("https://"))
            throw new ConfigException(where + ".url must be the agent's http(s) JSON-RPC endpoint");
        Map<String, String> headers = new LinkedHashMap<>();
        JsonNode h = node.path("headers");
        if (!h.isMissingNode()) {
            if (!h.isObject()) throw new ConfigException(where + ".headers must be a map");
            h.fields()
                    .forEachRemaining(e -> headers.put(
                            e.getKey(), expand(e.getValue().asText(), where + ".headers." + e.getKey(), env)));
        }
        Duration timeout;
        try {
            timeout = node.has("timeout")
                    ? Durations.parse(node.path("timeout").asText(), where + ".timeout")
                    : DEFAULT_TIMEOUT;
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        if (timeout.isZero()) throw new ConfigException(where + ".timeout must be more than zero");
        Set<String> permissions = new LinkedHashSet<>();
        JsonNode p = node.path("permissions");
        if (p.isMissingNode()) permissions.add("a2a:" + name);
        else if (!p.isArray()) throw new ConfigException(where + ".permissions must be a list");
        else p.forEach(v -> permissions.add(v.asText()));
        JsonNode destructive = node.path("destructive");
        if (!destructive.isMissingNode() && !destructive.isBoolean())
            throw new ConfigException(where + ".destructive must be true or false");
        String description = node.path("description").asText("");
        if (description.isBlank()) description = "Asks the remote agent '" + name + "' and returns its answer.";
        return new RemoteAgentSettings(
                name, URI.create(url), description, headers, timeout, permissions, destructive.asBoolean(false));
    }

    /** {@code ${NAME}} from the environment; an unset variable is an error rather than an empty secret. */
    private static String expand(String value, String where, Map<String, String> env) {
        Matcher m = VARIABLE.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String v = env.get(m.group(1));
            if (v == null)
                throw new ConfigException(
                        where + " names ${" + m.group(1) + "}, but that environment variable is not set");
            m.appendReplacement(out, Matcher.quoteReplacement(v));
        }
        m.appendTail(out);
        return out.toString();
    }
}
