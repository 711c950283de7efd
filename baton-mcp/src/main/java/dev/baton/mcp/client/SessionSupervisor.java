package dev.baton.mcp.client;

import dev.baton.mcp.config.McpServerSettings;
import dev.baton.mcp.config.McpSettings;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lifecycle of an {@link McpConnection}'s session: a virtual thread opens a {@link ToolSession}, lists the tools
 * into the {@link ServerCatalogue}, watches the session (a stdio process that exits, a failed call, a health ping that
 * goes unanswered) and, when it is lost, closes it and opens a new one after a backoff that doubles while attempts
 * keep failing.
 */
final class SessionSupervisor {
    // logged as the connection, which is what an operator looks for
    private static final Logger log = LoggerFactory.getLogger(McpConnection.class);
    /** Requests the SDK still tracks after Baton gave up on them are dropped after this long past the timeout. */
    private static final Duration REQUEST_TIMEOUT_MARGIN = Duration.ofSeconds(5);

    private final McpServerSettings settings;
    private final McpSettings timing;
    private final ServerCatalogue catalogue;
    private final SessionOpener opener;
    private final BlockingQueue<String> lostSignals = new LinkedBlockingQueue<>();
    private final CompletableFuture<Void> firstAttempt = new CompletableFuture<>();
    private final AtomicLong generation = new AtomicLong();
    private final Thread supervisor;

    private volatile boolean closed;
    private volatile ToolSession session;

    SessionSupervisor(McpServerSettings settings, McpSettings timing, ServerCatalogue catalogue) {
        this.settings = settings;
        this.timing = timing;
        this.catalogue = catalogue;
        this.opener = new SessionOpener(settings);
        this.supervisor = Thread.ofVirtual().name("mcp-" + settings.name()).unstarted(this::supervise);
    }

    void start() {
        supervisor.start();
    }

    /** The session calls go to now; null while there is none. */
    ToolSession session() {
        return session;
    }

    /** Completes when the first attempt to connect has succeeded or failed. */
    CompletableFuture<Void> firstAttempt() {
        return firstAttempt;
    }

    /** Reports that {@code lostSession} broke; ignored when it is no longer the current one. */
    void lost(ToolSession lostSession, String why) {
        if (session == lostSession) lostSignals.offer(why);
    }

    /** Stops the thread (waiting for it a while) and closes the last session. */
    void close() {
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
                catalogue.rebuild(opened.listTools(settings.timeout()), first ? Refresh.INITIAL : Refresh.RECONNECT);
                session = opened;
                upAt = System.nanoTime();
                catalogue.setStatus(ServerStatus.State.UP, catalogue.status().lastError(), opened);
                log.info(
                        "MCP server {} is up over {} with {} tools",
                        settings.name(),
                        opened.wire().label,
                        catalogue.catalogue().offered().size());
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
            catalogue.setStatus(ServerStatus.State.DOWN, reason);
            log.warn("MCP server {} is down ({}); next attempt in {} ms", settings.name(), reason, delay.toMillis());
            if (pause(delay)) break;
            delay = min(delay.multipliedBy(2), timing.maxRestartDelay());
            first = false;
            catalogue.countRestart();
            catalogue.setStatus(ServerStatus.State.CONNECTING, reason);
        }
    }

    /** Opens a session; in AUTO mode an HTTP server that rejects streamable HTTP is tried over legacy SSE. */
    private ToolSession open(long attempt) {
        Duration requestTimeout = settings.longestTimeout().plus(REQUEST_TIMEOUT_MARGIN);
        Consumer<List<McpSchema.Tool>> onToolsChanged = tools -> catalogue.update(() -> {
            if (generation.get() == attempt) catalogue.rebuild(tools, Refresh.LIST_CHANGED);
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
            catalogue.recheckHeldBack();
        }
        return "closed";
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

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
