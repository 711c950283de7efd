package dev.baton.mcp.config;

import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces {@code ${NAME}} in configuration values with the environment variable {@code NAME}, so that secrets (an
 * MCP server's API key) stay out of baton.yaml. A variable that is not set is an error rather than an empty string:
 * a server called without its key fails in ways that are much harder to trace.
 */
final class Placeholders {
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");

    private final Map<String, String> env;
    /** Names left as they are, to be filled in later (the user's key of a process per user). */
    private final Set<String> kept;

    Placeholders(Map<String, String> env) {
        this(env, Set.of());
    }

    private Placeholders(Map<String, String> env, Set<String> kept) {
        this.env = Map.copyOf(env);
        this.kept = Set.copyOf(kept);
    }

    /** These placeholders, but leaving {@code ${name}} in place. */
    Placeholders keeping(String name) {
        Set<String> more = new java.util.HashSet<>(kept);
        more.add(name);
        return new Placeholders(env, more);
    }

    /** @param where names the setting in the error, e.g. "mcp.servers.todo.headers.X-Api-Key" */
    String expand(String value, String where) {
        Matcher m = VARIABLE.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            if (kept.contains(m.group(1))) {
                m.appendReplacement(out, Matcher.quoteReplacement(m.group()));
                continue;
            }
            // never taken from the environment: it names the user of a process per user, or nothing
            if (m.group(1).equals(UserKey.PLACEHOLDER_NAME))
                throw new IllegalArgumentException(where + " names ${" + m.group(1) + "}, which only a command server"
                        + " with state: perUser has (its process for each user)");
            String replacement = env.get(m.group(1));
            if (replacement == null)
                throw new IllegalArgumentException(
                        where + " names ${" + m.group(1) + "}, but that environment variable is not set");
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }
}
