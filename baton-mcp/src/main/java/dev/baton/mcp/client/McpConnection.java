package dev.baton.mcp.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolException;
import dev.baton.mcp.config.IdentityForwarding;
import dev.baton.mcp.config.McpServerSettings;
import dev.baton.mcp.config.McpSettings;
import dev.baton.mcp.pin.PinGuard;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one MCP server connected: a supervisor (a virtual thread) opens a {@link ToolSession}, lists the tools,
 * watches the session (a stdio process that exits, a failed call, a health ping that goes unanswered) and, when it is
 * lost, closes it and opens a new one after a backoff that doubles while attempts keep failing. Meanwhile the last
 * catalogue stays on offer and its calls fail at once, so the source's circuit breaker opens and the model is told
 * the tool is unavailable; nothing waits for a server that is not there.
 *
 * <p>The session's lifecycle is the {@link SessionSupervisor}'s, the catalogue and status the
 * {@link ServerCatalogue}'s; this class sends the requests, on whichever session is current.
 */
final class McpConnection implements CallTarget, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(McpConnection.class);

    private final McpServerSettings settings;
    private final Clock clock;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final ServerCatalogue catalogue;
    private final SessionSupervisor supervisor;

    /**
     * @param calls where the catalogue's tools send their calls: this connection (null), or the pool of processes per
     *     user for which this connection only lists the tools
     */
    McpConnection(McpServerSettings settings, McpSettings timing, PinGuard pins, Clock clock, CallTarget calls) {
        this.settings = settings;
        this.clock = clock;
        this.catalogue = new ServerCatalogue(settings, pins, clock, calls == null ? this : calls);
        this.supervisor = new SessionSupervisor(settings, timing, catalogue);
    }

    void start() {
        supervisor.start();
    }

    /**
     * For a server whose tools are listed through its users' own sessions ({@code auth: oauth}): no session of its
     * own is opened, and its tools are offered once a user's session has listed them ({@link #listedElsewhere}).
     */
    void startWithoutSession() {
        supervisor.firstAttempt().complete(null);
        catalogue.setStatus(ServerStatus.State.CONNECTING, "its tools are listed when a user connects their account");
    }

    /** The tools a user's own session listed: the catalogue is rebuilt from them (and pinned) like any listing. */
    void listedElsewhere(List<McpSchema.Tool> tools) {
        catalogue.listedElsewhere(tools);
    }

    String name() {
        return settings.name();
    }

    Catalogue catalogue() {
        return catalogue.catalogue();
    }

    ServerStatus status() {
        return catalogue.status();
    }

    McpServerSettings settings() {
        return settings;
    }

    /** Calls sent and not answered yet. */
    int callsInFlight() {
        return inFlight.get();
    }

    /** Completes when the first attempt to connect has succeeded or failed. */
    CompletableFuture<Void> firstAttempt() {
        return supervisor.firstAttempt();
    }

    /**
     * Calls a tool as the context's caller.
     *
     * @throws ToolException when the server answered with an error (the tool refused; the server is fine)
     * @throws McpUnavailableException when the server is down, went away during the call or did not answer in time
     */
    @Override
    public JsonNode call(String remoteName, JsonNode arguments, ToolContext context) {
        IdentityForwarding identity = settings.identity();
        String user = context.principal().userId();
        String tenant = context.principal().tenantId();
        Map<String, Object> meta = CallMeta.of(identity.meta(), context);
        McpSchema.CallToolRequest request = new McpSchema.CallToolRequest(remoteName, SdkJson.map(arguments), meta);
        McpTransportContext transportContext = ServerSession.transportContext(identity.headers(), user, tenant);
        for (int attempt = 0; ; attempt++) {
            ToolSession current = supervisor.session();
            if (current == null) throw unavailable("is not connected (" + describeDown() + ")");
            Duration left = Duration.between(clock.instant(), context.deadline());
            if (!left.isPositive()) throw unavailable("was not called: no time left");
            McpSchema.CallToolResult result;
            long sessionLosses = current.sessionLosses();
            inFlight.incrementAndGet();
            try {
                result = current.call(request, transportContext, left);
            } catch (RuntimeException e) {
                CallFailure failure = CallFailure.of(e);
                if (current.sessionLosses() > sessionLosses) failure = CallFailure.sessionGone();
                switch (failure.kind()) {
                    case SERVER_ERROR -> throw new ToolException("mcp_error", failure.message());
                    case INTERRUPTED -> {
                        Thread.currentThread().interrupt();
                        throw new CancellationException("the call was cancelled");
                    }
                    case TIMEOUT -> throw unavailable("did not answer within " + left.toMillis() + " ms");
                    case SESSION_GONE -> {
                        // the server restarted and forgot the session; the SDK opens a new one by itself. The call
                        // never ran, so it is sent once more, on the new session
                        if (attempt == 0) {
                            sessionRenewed(current);
                            continue;
                        }
                        throw unavailable("lost its session twice in one call");
                    }
                    case CONNECTION -> {
                        supervisor.lost(current, failure.message());
                        throw unavailable("went away during the call (" + failure.message() + ")");
                    }
                    default -> throw unavailable("failed the call: " + failure.message());
                }
            } finally {
                inFlight.decrementAndGet();
            }
            if (result == null) throw unavailable("answered with nothing");
            return CallResults.toJson(result);
        }
    }

    /**
     * The server's prompts, on its current session.
     *
     * @throws ToolException when the server refused the request
     * @throws McpUnavailableException when it is not connected or did not answer in time
     */
    List<McpSchema.Prompt> prompts() {
        return request("list its prompts", current -> current.listPrompts(settings.timeout()));
    }

    /** One of its prompts rendered with {@code arguments}; the exceptions of {@link #prompts()}. */
    McpSchema.GetPromptResult prompt(String name, Map<String, String> arguments) {
        McpSchema.GetPromptResult rendered =
                request("render a prompt", current -> current.getPrompt(name, arguments, settings.timeout()));
        if (rendered == null) throw unavailable("answered with nothing");
        return rendered;
    }

    /**
     * One request other than a tool call, on the current session ({@code resources/read}, …); the exceptions of
     * {@link #prompts()}.
     */
    <T> T request(String what, Function<ToolSession, T> request) {
        ToolSession current = supervisor.session();
        if (current == null) throw unavailable("is not connected (" + describeDown() + ")");
        try {
            return request.apply(current);
        } catch (RuntimeException e) {
            CallFailure failure = CallFailure.of(e);
            switch (failure.kind()) {
                case SERVER_ERROR -> throw new ToolException("mcp_error", failure.message());
                case INTERRUPTED -> {
                    Thread.currentThread().interrupt();
                    throw new CancellationException("cancelled");
                }
                default -> throw unavailable("failed to " + what + ": " + failure.message());
            }
        }
    }

    /** Checks the tools its pins hold back again now (after an operator accepted a change); waits for the result. */
    void recheckPins(Duration wait) {
        catalogue.recheckPins(wait);
    }

    @Override
    public void close() {
        catalogue.closing();
        supervisor.close();
        catalogue.stopped();
        supervisor.firstAttempt().complete(null);
    }

    /** The server restarted under a live session: count it, and list its tools again (they may have changed). */
    private void sessionRenewed(ToolSession renewed) {
        log.warn("MCP server {} no longer knew its session (it restarted); continuing on a new one", settings.name());
        catalogue.countRestart();
        catalogue.update(() -> {
            if (supervisor.session() != renewed) return;
            try {
                catalogue.rebuild(renewed.listTools(settings.timeout()), Refresh.RECONNECT);
            } catch (RuntimeException e) {
                supervisor.lost(
                        renewed,
                        "listing tools on the new session failed: "
                                + CallFailure.of(e).message());
            }
        });
    }

    private String describeDown() {
        ServerStatus s = catalogue.status();
        return s.lastError() == null ? s.state().name().toLowerCase(java.util.Locale.ROOT) : s.lastError();
    }

    private McpUnavailableException unavailable(String what) {
        return new McpUnavailableException("MCP server " + settings.name() + " " + what);
    }
}
