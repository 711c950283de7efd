package dev.baton.mcp.client;

import dev.baton.mcp.config.McpServerSettings;
import dev.baton.mcp.pin.PinGuard;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an {@link McpConnection} offers of its server: the catalogue built from the tools it last listed, and the
 * server's status, which counts that catalogue's tools. Both are replaced whole under this object's lock and read
 * without it; a catalogue update from the server runs on one thread, in the order the updates arrived.
 */
final class ServerCatalogue {
    // logged as the connection, which is what an operator looks for
    private static final Logger log = LoggerFactory.getLogger(McpConnection.class);

    private final McpServerSettings settings;
    private final CatalogueBuilder builder;
    private final Clock clock;
    /** Catalogue updates one at a time, in the order they arrived (list_changed lists must not overtake each other). */
    private final ExecutorService updates = Executors.newSingleThreadExecutor(
            Thread.ofVirtual().name("mcp-updates").factory());

    private volatile boolean closed;
    private volatile Catalogue catalogue = Catalogue.EMPTY;
    private volatile List<McpSchema.Tool> lastListed = List.of();
    /** Replaced whole on every change, under this object's lock; read without it. */
    private volatile ServerStatus status;

    /** @param calls where the catalogue's tools send their calls */
    ServerCatalogue(McpServerSettings settings, PinGuard pins, Clock clock, CallTarget calls) {
        this.settings = settings;
        this.clock = clock;
        this.builder = new CatalogueBuilder(settings, pins, calls);
        this.status = ServerStatus.connecting(settings.name(), clock.instant());
    }

    Catalogue catalogue() {
        return catalogue;
    }

    ServerStatus status() {
        return status;
    }

    /** The tools a user's own session listed: the catalogue is rebuilt from them (and pinned) like any listing. */
    void listedElsewhere(List<McpSchema.Tool> tools) {
        update(() -> {
            rebuild(tools, lastListed.isEmpty() ? Refresh.INITIAL : Refresh.LIST_CHANGED);
            if (status.state() != ServerStatus.State.UP) setStatus(ServerStatus.State.UP, null);
        });
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

    /** Queues a check of the held-back tools against their pins, when there are any. */
    void recheckHeldBack() {
        if (!catalogue.heldBack().isEmpty()) update(() -> rebuild(lastListed, Refresh.PIN_RECHECK));
    }

    /** Queues a catalogue update; one that arrives after the connection closed has nothing left to update. */
    void update(Runnable change) {
        try {
            updates.execute(change);
        } catch (RejectedExecutionException e) {
            log.debug("MCP server {}: an update arrived after it was closed", settings.name());
        }
    }

    synchronized void rebuild(List<McpSchema.Tool> tools, Refresh cause) {
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

    void setStatus(ServerStatus.State state, String lastError) {
        setStatus(state, lastError, null);
    }

    synchronized void setStatus(ServerStatus.State state, String lastError, ToolSession current) {
        status = status.entering(
                state,
                clock.instant(),
                lastError,
                current == null ? null : current.wire().label,
                current == null ? -1 : current.pid());
    }

    /** One more restart or reconnection, counted under the same lock as every other change of the status. */
    synchronized void countRestart() {
        status = status.restarted();
    }

    /** No catalogue is rebuilt from now on, even by an update already running. */
    void closing() {
        closed = true;
    }

    /** Drops the updates still queued and says the server is stopped. */
    void stopped() {
        updates.shutdownNow();
        setStatus(ServerStatus.State.STOPPED, status.lastError());
    }
}
