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
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one MCP server connected: a supervisor (a virtual thread) opens a {@link ToolSession}, lists the tools,
 * watches the session (a stdio process that exits, a failed call, a health ping that goes unanswered) and, when it is
 * lost, closes it and opens a new one after a backoff that doubles while attempts keep failing. Meanwhile the last
 * catalogue stays on offer and its calls fail at once, so the source's circuit breaker opens and the model is told
 * the tool is unavailable; nothing waits for a server that is not there.
 */
final class McpConnection implements CallTarget, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(McpConnection.class);
    /** Requests the SDK still tracks after Baton gave up on them are dropped after this long past the timeout. */
    private static final Duration REQUEST_TIMEOUT_MARGIN = Duration.ofSeconds(5);

    private final McpServerSettings settings;
    private final McpSettings timing;
    private final CatalogueBuilder builder;
    private final Clock clock;
    private final BlockingQueue<String> lostSignals = new LinkedBlockingQueue<>();
    /** Catalogue updates one at a time, in the order they arrived (list_changed lists must not overtake each other). */
    private final ExecutorService updates = Executors.newSingleThreadExecutor(
            Thread.ofVirtual().name("mcp-updates").factory());

    private final CompletableFuture<Void> firstAttempt = new CompletableFuture<>();
    private final AtomicLong generation = new AtomicLong();
    private final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
    private final Thread supervisor;

    private volatile boolean closed;
    private volatile ToolSession session;
    private volatile Catalogue catalogue = Catalogue.EMPTY;
    private volatile List<McpSchema.Tool> lastListed = List.of();
    /** Replaced whole on every change, under this connection's lock; read without it. */
    private volatile ServerStatus status;

    private final SessionOpener opener;

    /**
     * @param calls where the catalogue's tools send their calls: this connection (null), or the pool of processes per
     *     user for which this connection only lists the tools
     */
    McpConnection(McpServerSettings settings, McpSettings timing, PinGuard pins, Clock clock, CallTarget calls) {
        this.settings = settings;
        this.opener = new SessionOpener(settings);
        this.timing = timing;
        this.clock = clock;
        this.builder = new CatalogueBuilder(settings, pins, calls == null ? this : calls);
        this.status = ServerStatus.connecting(settings.name(), clock.instant());
        this.supervisor = Thread.ofVirtual().name("mcp-" + settings.name()).unstarted(this::supervise);
    }

    void start() {
        supervisor.start();
    }

    /**
     * For a server whose tools are listed through its users' own sessions ({@code auth: oauth}): no session of its
     * own is opened, and its tools are offered once a user's session has listed them ({@link #listedElsewhere}).
     */
    void startWithoutSession() {
        firstAttempt.complete(null);
        setStatus(ServerStatus.State.CONNECTING, "its tools are listed when a user connects their account");
    }

    /** The tools a user's own session listed: the catalogue is rebuilt from them (and pinned) like any listing. */
    void listedElsewhere(List<McpSchema.Tool> tools) {
        update(() -> {
            rebuild(tools, lastListed.isEmpty() ? Refresh.INITIAL : Refresh.LIST_CHANGED);
            if (status.state() != ServerStatus.State.UP) setStatus(ServerStatus.State.UP, null);
        });
    }

    String name() {
        return settings.name();
    }

    Catalogue catalogue() {
        return catalogue;
    }

    ServerStatus status() {
        return status;
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
        return firstAttempt;
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
            ToolSession current = session;
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
                        lost(current, failure.message());
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
    <T> T request(String what, java.util.function.Function<ToolSession, T> request) {
        ToolSession current = session;
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
        try {
            updates.submit(() -> rebuild(lastListed, Refresh.PIN_RECHECK)).get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("MCP server {}: re-checking pins failed: {}", settings.name(), e.toString());
        }
    }

    @Override
    public void close() {
        closed = true;
        lostSignals.offer("closed");
        supervisor.interrupt();
        try {
            // a connection whose tools users' sessions list never started its supervisor
            if (supervisor.getState() != Thread.State.NEW) supervisor.join(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        ToolSession last = session;
        if (last != null) last.close();
        updates.shutdownNow();
        firstAttempt.complete(null);
        setStatus(ServerStatus.State.STOPPED, status.lastError());
    }

    private void supervise() {
        Duration delay = timing.restartDelay();
        boolean first = true;
        while (!closed) {
            long attempt = generation.incrementAndGet();
            lostSignals.clear();
            ToolSession opened = null;
            long upAt = 0;
            String reason;
            try {
                opened = open(attempt);
                rebuild(opened.listTools(settings.timeout()), first ? Refresh.INITIAL : Refresh.RECONNECT);
                session = opened;
                upAt = System.nanoTime();
                setStatus(ServerStatus.State.UP, status.lastError(), opened);
                log.info(
                        "MCP server {} is up over {} with {} tools",
                        settings.name(),
                        opened.wire().label,
                        catalogue.offered().size());
                firstAttempt.complete(null);
                reason = watch(opened);
            } catch (RuntimeException e) {
                reason = CallFailure.of(e).message();
            } finally {
                session = null;
                if (opened != null) opened.close();
            }
            firstAttempt.complete(null);
            if (closed) break;
            boolean wasUpLongEnough =
                    upAt != 0 && Duration.ofNanos(System.nanoTime() - upAt).compareTo(timing.maxRestartDelay()) >= 0;
            delay = wasUpLongEnough ? timing.restartDelay() : delay;
            setStatus(ServerStatus.State.DOWN, reason);
            log.warn("MCP server {} is down ({}); next attempt in {} ms", settings.name(), reason, delay.toMillis());
            if (pause(delay)) break;
            delay = min(delay.multipliedBy(2), timing.maxRestartDelay());
            first = false;
            countRestart();
            setStatus(ServerStatus.State.CONNECTING, reason);
        }
    }

    /** Opens a session; in AUTO mode an HTTP server that rejects streamable HTTP is tried over legacy SSE. */
    private ToolSession open(long attempt) {
        Duration requestTimeout = settings.longestTimeout().plus(REQUEST_TIMEOUT_MARGIN);
        Consumer<List<McpSchema.Tool>> onToolsChanged = tools -> update(() -> {
            if (generation.get() == attempt) rebuild(tools, Refresh.LIST_CHANGED);
        });
        Consumer<String> onLost = why -> lostSignals.offer(why);
        return opener.open(requestTimeout, onToolsChanged, onLost);
    }

    /**
     * Waits until the session is lost (its process exited, a call broke it) or a health ping goes unanswered; while up,
     * held-back tools are checked against their pins again at every ping, so an acceptance made on another instance
     * takes effect here too.
     *
     * @return why the session ended
     */
    private String watch(ToolSession watched) {
        while (!closed) {
            String lost;
            try {
                lost = lostSignals.poll(timing.healthCheck().toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return "closed";
            }
            if (lost != null) return lost;
            try {
                watched.ping(settings.timeout());
            } catch (RuntimeException e) {
                return "health check failed: " + CallFailure.of(e).message();
            }
            if (!catalogue.heldBack().isEmpty()) update(() -> rebuild(lastListed, Refresh.PIN_RECHECK));
        }
        return "closed";
    }

    /** Queues a catalogue update; one that arrives after the connection closed has nothing left to update. */
    private void update(Runnable change) {
        try {
            updates.execute(change);
        } catch (RejectedExecutionException e) {
            log.debug("MCP server {}: an update arrived after it was closed", settings.name());
        }
    }

    /** Reports that {@code lostSession} broke; ignored when it is no longer the current one. */
    private void lost(ToolSession lostSession, String why) {
        if (session == lostSession) lostSignals.offer(why);
    }

    /** The server restarted under a live session: count it, and list its tools again (they may have changed). */
    private void sessionRenewed(ToolSession renewed) {
        log.warn("MCP server {} no longer knew its session (it restarted); continuing on a new one", settings.name());
        countRestart();
        update(() -> {
            if (session != renewed) return;
            try {
                rebuild(renewed.listTools(settings.timeout()), Refresh.RECONNECT);
            } catch (RuntimeException e) {
                lost(
                        renewed,
                        "listing tools on the new session failed: "
                                + CallFailure.of(e).message());
            }
        });
    }

    /** Sleeps for the backoff; true when the connection was closed meanwhile. */
    private boolean pause(Duration delay) {
        try {
            String signal = lostSignals.poll(delay.toMillis(), TimeUnit.MILLISECONDS);
            return closed || "closed".equals(signal);
        } catch (InterruptedException e) {
            return true;
        }
    }

    private synchronized void rebuild(List<McpSchema.Tool> tools, Refresh cause) {
        if (closed) return;
        Catalogue next = builder.build(tools, catalogue.version() + 1, cause, clock.instant());
        lastListed = List.copyOf(tools);
        catalogue = next;
        status = status.withCatalogue(next.offered().size(), next.heldBack().size(), next.version(), cause);
        if (cause != Refresh.PIN_RECHECK)
            log.info(
                    "MCP server {}: catalogue {} ({}): {} tools offered, {} held back",
                    settings.name(),
                    next.version(),
                    cause,
                    next.offered().size(),
                    next.heldBack().size());
    }

    private void setStatus(ServerStatus.State state, String lastError) {
        setStatus(state, lastError, null);
    }

    private synchronized void setStatus(ServerStatus.State state, String lastError, ToolSession current) {
        status = status.entering(
                state,
                clock.instant(),
                lastError,
                current == null ? null : current.wire().label,
                current == null ? -1 : current.pid());
    }

    /** One more restart or reconnection, counted under the same lock as every other change of the status. */
    private synchronized void countRestart() {
        status = status.restarted();
    }

    private String describeDown() {
        ServerStatus s = status;
        return s.lastError() == null ? s.state().name().toLowerCase(java.util.Locale.ROOT) : s.lastError();
    }

    private McpUnavailableException unavailable(String what) {
        return new McpUnavailableException("MCP server " + settings.name() + " " + what);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
