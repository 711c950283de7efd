package dev.baton.app;

import dev.baton.app.config.BatonConfig;
import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.agent.AttachedResource;
import dev.baton.mcp.client.McpClients;
import dev.baton.mcp.client.ServerStatus;
import dev.baton.mcp.client.oauth.TokenKeys;
import dev.baton.mcp.client.oauth.UserAccounts;
import dev.baton.mcp.config.McpServerSettings;
import dev.baton.mcp.config.McpSettings;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.config.ConfigException;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.mcp.JdbcAccountTokens;
import dev.baton.store.jdbc.mcp.JdbcToolPins;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** baton.yaml's {@code mcp} section turned into running MCP clients, their pins in the database. */
final class McpWiring {
    private static final Logger log = LoggerFactory.getLogger(McpWiring.class);

    private McpWiring() {}

    /**
     * Every MCP server an agent's {@code context.mcpResources} names must be configured: a misspelt name would leave the
     * resource out of every turn with only a log line to say so.
     */
    static void checkAttachedResources(AgentRegistry agents, McpClients clients) {
        List<String> servers = clients.status().stream().map(ServerStatus::name).toList();
        for (AgentDefinition agent : agents.all()) {
            for (AttachedResource r : agent.resources()) {
                if (!servers.contains(r.server()))
                    throw new ConfigException("agent " + agent.id() + ": context.mcpResources names the MCP server '"
                            + r.server() + "', which is not configured (mcp.servers: "
                            + (servers.isEmpty() ? "none" : String.join(", ", servers)) + ")");
            }
        }
    }

    /**
     * Starts a client per configured server and waits, at most the longest server timeout, for each to connect or
     * fail once, so the first message already sees the tools of the servers that are up; one that is down does not
     * hold up the start.
     */
    static McpClients start(BatonConfig config, Database db, Clock clock) {
        McpSettings settings;
        try {
            settings = McpSettings.parse(config.section("mcp"), config.env());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        UserAccounts accounts = null;
        if (settings.servers().stream().anyMatch(McpServerSettings::userAccounts)) {
            try {
                accounts = new UserAccounts(
                        settings, new JdbcAccountTokens(db), TokenKeys.cipher(config.env(), config.dataDir()), clock);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(e.getMessage());
            }
        }
        McpClients clients = McpClients.start(settings, new JdbcToolPins(db), accounts, clock);
        if (clients.isEmpty()) return clients;
        Duration wait = settings.servers().stream()
                .map(McpServerSettings::timeout)
                .max(Duration::compareTo)
                .orElse(McpSettings.DEFAULT_TIMEOUT)
                .plusSeconds(2);
        if (!clients.awaitFirstAttempts(wait))
            log.warn(
                    "some MCP servers did not answer within {} s; starting without waiting for them", wait.toSeconds());
        clients.status()
                .forEach(s -> log.info(
                        "MCP server {}: {} ({} tools{})",
                        s.name(),
                        s.state(),
                        s.tools(),
                        s.lastError() == null ? "" : "; " + s.lastError()));
        return clients;
    }
}
