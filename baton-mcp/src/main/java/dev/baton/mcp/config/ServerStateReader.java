package dev.baton.mcp.config;

import static dev.baton.mcp.config.SectionNodes.duration;
import static dev.baton.mcp.config.SectionNodes.text;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashSet;
import java.util.Set;

/** Reads whose data a server keeps ({@code state}) and, for the server's processes or users, its limits. */
final class ServerStateReader {
    private ServerStateReader() {}

    /**
     * The server's {@code state}, which must be said: Baton cannot see whether a server keeps one memory for everybody.
     */
    static ServerState state(JsonNode node, String where, boolean stdio) {
        if (!node.has("state"))
            throw new IllegalArgumentException(where + ": say whose data the server keeps with state: perUser (each"
                    + " user's own: "
                    + (stdio ? "Baton runs one process per user" : "set identity and let the server" + " enforce it")
                    + ") or state: shared (one set of data for everybody, with sharedWith: [roles"
                    + " that may use it]); without it every user could read and change every other user's data");
        String value = text(node.path("state"), where + ".state");
        boolean processLimits = node.has("maxProcesses") || node.has("idleTimeout");
        switch (value) {
            case "perUser" -> {
                if (node.has("sharedWith"))
                    throw new IllegalArgumentException(where + ".sharedWith is for state: shared");
                if (processLimits && !stdio)
                    throw new IllegalArgumentException(
                            where + ": maxProcesses and idleTimeout are for command servers (one process per user)");
                JsonNode max = node.path("maxProcesses");
                if (!max.isMissingNode() && (!max.canConvertToInt() || !max.isIntegralNumber() || max.asInt() < 1))
                    throw new IllegalArgumentException(where + ".maxProcesses must be a whole number of at least 1");
                return new ServerState.PerUser(
                        max.isMissingNode() ? ServerState.PerUser.DEFAULT_MAX_PROCESSES : max.asInt(),
                        duration(
                                node.path("idleTimeout"),
                                ServerState.PerUser.DEFAULT_IDLE_TIMEOUT,
                                where + ".idleTimeout"));
            }
            case "shared" -> {
                if (processLimits)
                    throw new IllegalArgumentException(
                            where + ": maxProcesses and idleTimeout are for state: perUser (one process per user)");
                Set<String> roles = roles(node.path("sharedWith"), where + ".sharedWith");
                if (roles.isEmpty())
                    throw new IllegalArgumentException(where + ": state: shared needs sharedWith, the roles that may"
                            + " use it (every one of them reads and changes the same data), e.g. sharedWith: [admin]");
                return new ServerState.Shared(roles);
            }
            default ->
                throw new IllegalArgumentException(where + ".state must be perUser or shared, got '" + value + "'");
        }
    }

    private static Set<String> roles(JsonNode node, String where) {
        if (node.isMissingNode() || node.isNull()) return Set.of();
        if (!node.isArray()) throw new IllegalArgumentException(where + " must be a list of roles");
        Set<String> out = new LinkedHashSet<>();
        for (int i = 0; i < node.size(); i++) out.add(text(node.get(i), where + "[" + i + "]"));
        return out;
    }
}
