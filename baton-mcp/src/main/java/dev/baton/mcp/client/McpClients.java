package dev.baton.mcp.client;

import dev.baton.core.tool.ToolSource;
import dev.baton.core.tool.pin.ToolPin;
import dev.baton.core.tool.pin.ToolPins;
import dev.baton.mcp.client.oauth.UserAccounts;
import dev.baton.mcp.config.McpServerSettings;
import dev.baton.mcp.config.McpSettings;
import dev.baton.mcp.config.McpTransport;
import dev.baton.mcp.config.ResourceSettings;
import dev.baton.mcp.config.UserKey;
import dev.baton.mcp.pin.PinGuard;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The external MCP servers Baton is a client of: one supervised connection and one {@link ToolSource} per configured
 * server. Connections start in the background; one server that is down never holds up the others, or the chat.
 *
 * <pre>{@code
 * McpClients mcp = McpClients.start(McpSettings.parse(config.path("mcp"), System.getenv()), pins, clock);
 * Baton.builder().tools(mcp.toolSources().toArray(ToolSource[]::new)) ...
 * }</pre>
 */
public final class McpClients implements AutoCloseable {
    private static final Duration PIN_RECHECK_WAIT = Duration.ofSeconds(5);

    private final List<McpConnection> connections;
    private final List<ToolSource> sources;
    private final PinGuard pins;
    /** The pools of processes per user, by server name. */
    private final Map<String, UserProcesses> userProcesses;
    /** The users' own sessions of the servers with {@code auth: oauth}, by server name. */
    private final Map<String, AccountSessions> accountSessions;

    private final McpAccounts accounts;
    private final McpResources resources;

    private McpClients(
            List<McpConnection> connections,
            PinGuard pins,
            Map<String, UserProcesses> userProcesses,
            Map<String, AccountSessions> accountSessions,
            McpAccounts accounts,
            ResourceSettings resourceSettings) {
        this.connections = List.copyOf(connections);
        this.resources = new McpResources(connections, accountSessions, resourceSettings);
        this.userProcesses = Map.copyOf(userProcesses);
        this.accountSessions = Map.copyOf(accountSessions);
        this.accounts = accounts;
        this.sources =
                connections.stream().map(c -> (ToolSource) new McpToolSource(c)).toList();
        this.pins = pins;
    }

    /** Starts connecting to every configured server, in the background; none may have {@code auth: oauth}. */
    public static McpClients start(McpSettings settings, ToolPins pins, Clock clock) {
        return start(settings, pins, null, clock);
    }

    /**
     * Starts connecting to every configured server, in the background.
     *
     * @param accounts the users' own accounts, for the servers with {@code auth: oauth}; null when there are none
     */
    public static McpClients start(McpSettings settings, ToolPins pins, UserAccounts accounts, Clock clock) {
        Objects.requireNonNull(settings, "settings");
        PinGuard guard = new PinGuard(pins, clock);
        Map<String, UserProcesses> pools = new LinkedHashMap<>();
        Map<String, AccountSessions> ownSessions = new LinkedHashMap<>();
        List<McpConnection> connections = new ArrayList<>();
        List<McpConnection> listedByUsers = new ArrayList<>();
        for (McpServerSettings server : settings.servers()) {
            if (server.userAccounts()) {
                if (accounts == null)
                    throw new IllegalArgumentException("MCP server " + server.name() + " has auth: oauth, which needs"
                            + " the users' accounts (a token store and key)");
                AtomicReference<McpConnection> listing = new AtomicReference<>();
                AccountSessions sessions = new AccountSessions(
                        server, accounts, tools -> listing.get().listedElsewhere(tools), clock);
                McpConnection connection = new McpConnection(server, settings, guard, clock, sessions);
                listing.set(connection);
                ownSessions.put(server.name(), sessions);
                listedByUsers.add(connection);
                connections.add(connection);
                continue;
            }
            // a server whose state is per user is still started once, to list its tools; that process is never called
            UserProcesses pool = null;
            McpServerSettings listed = server;
            if (server.processPerUser()) {
                pool = new UserProcesses(server, settings, guard, clock);
                pools.put(server.name(), pool);
                listed = server.withTransport(((McpTransport.Stdio) server.transport()).forUser(UserKey.LISTING));
            }
            connections.add(new McpConnection(listed, settings, guard, clock, pool));
        }
        for (McpConnection c : connections) {
            if (listedByUsers.contains(c)) c.startWithoutSession();
            else c.start();
        }
        McpAccounts own = accounts == null ? null : new McpAccounts(accounts, ownSessions);
        return new McpClients(connections, guard, pools, ownSessions, own, settings.resources());
    }

    /** Users' own accounts on the servers with {@code auth: oauth}; empty when Baton was started without them. */
    public Optional<McpAccounts> accounts() {
        return Optional.ofNullable(accounts);
    }

    /** The prompts of the connected servers of shared data, for their callers. */
    public McpPrompts prompts() {
        return new McpPrompts(connections);
    }

    /** The resources of the connected servers, for their callers and the agents that attach them. */
    public McpResources resources() {
        return resources;
    }

    /** One source per server, in configuration order. */
    public List<ToolSource> toolSources() {
        return sources;
    }

    public boolean isEmpty() {
        return connections.isEmpty();
    }

    /** Every server's state now, in configuration order. */
    public List<ServerStatus> status() {
        return connections.stream()
                .map(c -> userProcesses(c.name())
                        .map(pool -> c.status().withUserProcesses(pool.running()))
                        .orElse(c.status()))
                .toList();
    }

    /**
     * Waits until every server has been tried once (connected or failed), at most {@code max}: a server starting with
     * Baton then has its tools listed before the first message arrives, and one that is down costs at most this.
     *
     * @return whether every first attempt finished in time
     */
    public boolean awaitFirstAttempts(Duration max) {
        try {
            CompletableFuture.allOf(connections.stream()
                            .map(McpConnection::firstAttempt)
                            .toArray(CompletableFuture[]::new))
                    .get(max.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    /** Every pin, with whether its tool is on offer here now. */
    public List<PinnedTool> pins() {
        return pins.pins().all().stream().map(this::view).toList();
    }

    /**
     * Accepts the change recorded for a tool, if it is still the one the operator reviewed, and offers the tool again.
     *
     * @param hash the changed fingerprint the operator reviewed (from {@link #pins()})
     */
    public PinAcceptance accept(String server, String tool, String hash) {
        Optional<McpConnection> connection = connection(server);
        Optional<ToolPin> pin = pins.pins().all().stream()
                .filter(p -> p.server().equals(server) && p.tool().equals(tool))
                .findFirst();
        if (connection.isEmpty() || pin.isEmpty())
            return new PinAcceptance.Unknown("no pinned tool " + tool + " of an MCP server named " + server);
        if (!pins.accept(server, tool, hash))
            return new PinAcceptance.Mismatch(pin.get().changedHash());
        connection.get().recheckPins(PIN_RECHECK_WAIT);
        return new PinAcceptance.Accepted(hash);
    }

    @Override
    public void close() {
        // in parallel: each may wait a few seconds for its process to exit
        userProcesses.values().parallelStream().forEach(UserProcesses::close);
        accountSessions.values().parallelStream().forEach(AccountSessions::close);
        connections.parallelStream().forEach(McpConnection::close);
    }

    private PinnedTool view(ToolPin pin) {
        String exposed = ToolNames.exposed(pin.server(), pin.tool());
        boolean offered = connection(pin.server())
                .map(c -> c.catalogue().offered().stream()
                        .anyMatch(t -> t.definition().name().equals(exposed)))
                .orElse(false);
        return new PinnedTool(
                pin.server(),
                pin.tool(),
                exposed,
                pin.pinnedHash(),
                pin.pinnedAt(),
                pin.changedHash(),
                pin.changedAt(),
                offered,
                pins.flags(pin.server(), pin.tool()));
    }

    /** The processes per user of a server whose state is per user. */
    Optional<UserProcesses> userProcesses(String server) {
        return Optional.ofNullable(userProcesses.get(server));
    }

    Optional<McpConnection> connection(String server) {
        return connections.stream().filter(c -> c.name().equals(server)).findFirst();
    }
}
