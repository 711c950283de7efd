package dev.baton.mcp.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.tool.ConnectRequiredException;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolException;
import dev.baton.mcp.client.oauth.AccountFlowException;
import dev.baton.mcp.client.oauth.UserAccounts;
import dev.baton.mcp.config.McpServerSettings;
import dev.baton.mcp.config.McpTransport;
import dev.baton.mcp.config.ServerState;
import dev.baton.mcp.config.UserKey;
import io.modelcontextprotocol.client.transport.McpHttpClientTransportAuthorizationException;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sessions of a server with {@code auth: oauth}: each user's calls go over a session of their own that carries
 * their own access token (read again for every HTTP request, so a refreshed one is used at once), opened on their first
 * call and closed after {@code idleTimeout} without calls. A user who has not connected the server, or whose account
 * can no longer be used, gets {@link ConnectRequiredException} instead of a failure; a token the server rejects is
 * refreshed once and the call sent again. A token never crosses from one user's session to another's.
 *
 * <p>The server's tools are listed through whichever user's session opened last (a tool's definition is the server's,
 * not the user's); they are offered from then on, and pinned like any server's.
 */
final class AccountSessions implements CallTarget, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AccountSessions.class);

    private final McpServerSettings settings;
    private final UserAccounts accounts;
    private final Consumer<List<McpSchema.Tool>> onListed;
    private final Clock clock;
    private final Duration idleTimeout;
    private final Map<UserKey, UserSession> sessions = new ConcurrentHashMap<>();
    private final ScheduledExecutorService reaper;
    private volatile boolean closed;

    /** One user's session; opened and replaced under its own lock. */
    private static final class UserSession {
        volatile String token;
        volatile Instant lastUsed;
        ServerSession open;
    }

    AccountSessions(
            McpServerSettings settings, UserAccounts accounts, Consumer<List<McpSchema.Tool>> onListed, Clock clock) {
        this.settings = settings;
        this.accounts = accounts;
        this.onListed = onListed;
        this.clock = clock;
        this.idleTimeout = ((ServerState.PerUser) settings.state()).idleTimeout();
        this.reaper = Executors.newSingleThreadScheduledExecutor(
                Thread.ofVirtual().name("mcp-" + settings.name() + "-accounts").factory());
        long every = Math.max(50, Math.min(idleTimeout.toMillis() / 4, 30_000));
        reaper.scheduleWithFixedDelay(this::closeIdle, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public JsonNode call(String remoteName, JsonNode arguments, ToolContext context) {
        String tenant = context.principal().tenantId();
        String user = context.principal().userId();
        McpSchema.CallToolRequest request =
                new McpSchema.CallToolRequest(remoteName, SdkJson.map(arguments), CallMeta.of(false, context));
        McpTransportContext transportContext = ServerSession.transportContext(false, user, tenant);
        return overOwnSession(
                tenant,
                user,
                "the call",
                () -> Duration.between(clock.instant(), context.deadline()),
                (session, left) -> {
                    McpSchema.CallToolResult result = session.call(request, transportContext, left);
                    if (result == null) throw unavailable("answered with nothing");
                    return CallResults.toJson(result);
                });
    }

    /**
     * Sends one request other than a tool call ({@code resources/read}, {@code resources/list}) over the user's own
     * session, as {@link #call} does: a rejected token is refreshed once and the request sent again.
     *
     * @param what what the request does, for the error ("read resources")
     * @throws ConnectRequiredException when the user has not connected their account
     * @throws ToolException when the server refused the request
     * @throws McpUnavailableException when the server is down or did not answer in time
     */
    <T> T request(String tenant, String user, String what, java.util.function.Function<ToolSession, T> request) {
        return overOwnSession(tenant, user, "to " + what, settings::timeout, (session, left) -> request.apply(session));
    }

    /**
     * Sends {@code send} over the user's own session within {@code timeLeft}: a token the server rejects is refreshed
     * once and sent again; a second rejection means the user must connect again.
     *
     * @param failed completes "failed …" in the error of a request that failed ("the call", "to read resources")
     */
    private <T> T overOwnSession(
            String tenant,
            String user,
            String failed,
            Supplier<Duration> timeLeft,
            BiFunction<ToolSession, Duration, T> send) {
        String token = token(() -> accounts.accessToken(tenant, user, settings.name()));
        UserSession own = sessions.computeIfAbsent(UserKey.of(tenant, user), k -> new UserSession());
        own.token = token;
        own.lastUsed = clock.instant();
        for (int attempt = 0; ; attempt++) {
            Duration left = timeLeft.get();
            if (!left.isPositive()) throw unavailable("was not called: no time left");
            try {
                return send.apply(session(own, left), left);
            } catch (RuntimeException e) {
                if (e instanceof ToolException || e instanceof McpUnavailableException) throw e;
                if (rejectedToken(e) && attempt == 0) {
                    // the token expired early or was revoked elsewhere: one refresh, then the request once more
                    closeSession(own);
                    own.token = token(() -> accounts.refreshAfterRejection(tenant, user, settings.name()));
                    continue;
                }
                if (rejectedToken(e)) throw connectRequired();
                CallFailure failure = CallFailure.of(e);
                switch (failure.kind()) {
                    case SERVER_ERROR -> throw new ToolException("mcp_error", failure.message());
                    case INTERRUPTED -> {
                        Thread.currentThread().interrupt();
                        throw new CancellationException("the request was cancelled");
                    }
                    case TIMEOUT -> throw unavailable("did not answer within " + left.toMillis() + " ms");
                    default -> {
                        closeSession(own);
                        throw unavailable("failed " + failed + ": " + failure.message());
                    }
                }
            }
        }
    }

    /**
     * Opens the user's session now (when they connected, or opened the app), so the server's tools are listed even
     * before anybody calls one; a failure is only logged.
     */
    void warm(String tenantId, String userId) {
        Optional<String> token;
        try {
            token = accounts.accessToken(tenantId, userId, settings.name());
        } catch (AccountFlowException e) {
            log.warn("MCP server {}: a user's token could not be refreshed: {}", settings.name(), e.getMessage());
            return;
        }
        if (token.isEmpty()) return;
        UserSession own = sessions.computeIfAbsent(UserKey.of(tenantId, userId), k -> new UserSession());
        own.token = token.get();
        own.lastUsed = clock.instant();
        try {
            session(own, settings.timeout());
        } catch (RuntimeException e) {
            log.warn(
                    "MCP server {}: opening a user's session failed: {}",
                    settings.name(),
                    CallFailure.of(e).message());
        }
    }

    /** Closes the user's session (their account was disconnected). */
    void forget(String tenantId, String userId) {
        UserSession own = sessions.remove(UserKey.of(tenantId, userId));
        if (own != null) closeSession(own);
    }

    /** How many users' sessions are open now. */
    int open() {
        return (int) sessions.values().stream().filter(s -> s.open != null).count();
    }

    @Override
    public void close() {
        closed = true;
        reaper.shutdownNow();
        sessions.values().parallelStream().forEach(this::closeSession);
        sessions.clear();
    }

    private ServerSession session(UserSession own, Duration timeout) {
        synchronized (own) {
            if (closed) throw unavailable("is closed");
            if (own.open != null) return own.open;
            ServerSession.Wire wire = ((McpTransport.Http) settings.transport()).mode() == McpTransport.HttpMode.SSE
                    ? ServerSession.Wire.SSE
                    : ServerSession.Wire.STREAMABLE_HTTP;
            ServerSession opened = ServerSession.open(
                    settings,
                    wire,
                    settings.longestTimeout().plusSeconds(5),
                    onListed,
                    why -> closeSession(own),
                    () -> own.token);
            try {
                onListed.accept(opened.listTools(timeout));
            } catch (RuntimeException e) {
                opened.close();
                throw e;
            }
            own.open = opened;
            return opened;
        }
    }

    private void closeSession(UserSession own) {
        ServerSession open;
        synchronized (own) {
            open = own.open;
            own.open = null;
        }
        if (open != null) open.close();
    }

    private void closeIdle() {
        Instant now = clock.instant();
        sessions.forEach((key, own) -> {
            Instant last = own.lastUsed;
            if (own.open != null && last != null && !last.plus(idleTimeout).isAfter(now)) closeSession(own);
        });
    }

    /**
     * The user's token, or {@link ConnectRequiredException} when there is none; an authorization server that failed a
     * refresh makes the server unavailable for now (the user need not connect again).
     */
    private String token(java.util.function.Supplier<Optional<String>> lookup) {
        try {
            return lookup.get().orElseThrow(this::connectRequired);
        } catch (AccountFlowException e) {
            throw unavailable("cannot be called: refreshing the user's token failed (" + e.getMessage() + ")");
        }
    }

    private static boolean rejectedToken(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof McpHttpClientTransportAuthorizationException) return true;
        }
        return false;
    }

    private ConnectRequiredException connectRequired() {
        return new ConnectRequiredException(UserAccounts.connectLink(settings.name()));
    }

    private McpUnavailableException unavailable(String what) {
        return new McpUnavailableException("MCP server " + settings.name() + " " + what);
    }
}
