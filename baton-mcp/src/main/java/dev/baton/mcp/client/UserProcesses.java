package dev.baton.mcp.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolException;
import dev.baton.mcp.config.McpServerSettings;
import dev.baton.mcp.config.McpSettings;
import dev.baton.mcp.config.McpTransport;
import dev.baton.mcp.config.ServerState;
import dev.baton.mcp.config.UserKey;
import dev.baton.mcp.pin.PinGuard;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The processes of a command server whose state is per user: each user's calls go to a process of their own,
 * started on their first call (with {@code ${BATON_USER_KEY}} filled in, so its data file is theirs) and supervised like
 * any server. One that had no call for {@code idleTimeout} is stopped; at most {@code maxProcesses} run at once, and a
 * new user beyond that takes the place of the one idle longest — or is refused, when every process is busy.
 */
final class UserProcesses implements CallTarget, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(UserProcesses.class);

    private final McpServerSettings settings;
    private final McpTransport.Stdio command;
    private final ServerState.PerUser limits;
    private final McpSettings timing;
    private final PinGuard pins;
    private final Clock clock;
    /** Guarded by this. */
    private final Map<UserKey, UserProcess> processes = new HashMap<>();

    private final ScheduledExecutorService reaper;
    private boolean closed;

    /** One user's process and how it is used. Fields guarded by the pool. */
    private static final class UserProcess {
        final McpConnection connection;
        Instant lastUsed;
        int calls;

        UserProcess(McpConnection connection, Instant lastUsed) {
            this.connection = connection;
            this.lastUsed = lastUsed;
        }
    }

    UserProcesses(McpServerSettings settings, McpSettings timing, PinGuard pins, Clock clock) {
        this.settings = settings;
        this.command = (McpTransport.Stdio) settings.transport();
        this.limits = (ServerState.PerUser) settings.state();
        this.timing = timing;
        this.pins = pins;
        this.clock = clock;
        this.reaper = Executors.newSingleThreadScheduledExecutor(
                Thread.ofVirtual().name("mcp-" + settings.name() + "-idle").factory());
        if (!names(command))
            log.warn(
                    "MCP server {} runs a process per user, but its command, args and env never name {}: if it keeps"
                            + " its data in a file, every user's process reads and writes the same one (give each its"
                            + " own, e.g. env: {MEMORY_FILE_PATH: /var/lib/baton/memory/{}.jsonl})",
                    settings.name(),
                    UserKey.PLACEHOLDER,
                    UserKey.PLACEHOLDER);
        long every = Math.max(50, Math.min(limits.idleTimeout().toMillis() / 4, 30_000));
        reaper.scheduleWithFixedDelay(this::stopIdle, every, every, TimeUnit.MILLISECONDS);
    }

    private static boolean names(McpTransport.Stdio command) {
        return command.command().contains(UserKey.PLACEHOLDER)
                || command.args().stream().anyMatch(a -> a.contains(UserKey.PLACEHOLDER))
                || command.env().values().stream().anyMatch(v -> v.contains(UserKey.PLACEHOLDER));
    }

    @Override
    public JsonNode call(String remoteName, JsonNode arguments, ToolContext context) {
        UserKey key =
                UserKey.of(context.principal().tenantId(), context.principal().userId());
        UserProcess process = acquire(key);
        try {
            awaitStarted(process.connection, context);
            return process.connection.call(remoteName, arguments, context);
        } finally {
            release(process);
        }
    }

    /** How many processes run now. */
    synchronized int running() {
        return processes.size();
    }

    /** How many processes are answering a call now. */
    synchronized int busy() {
        return (int) processes.values().stream().filter(p -> p.calls > 0).count();
    }

    /** The process id of the user's process, if one runs. */
    synchronized Optional<Long> pidOf(String tenantId, String userId) {
        UserProcess p = processes.get(UserKey.of(tenantId, userId));
        return p == null ? Optional.empty() : Optional.of(p.connection.status().pid());
    }

    @Override
    public void close() {
        List<McpConnection> stopping;
        synchronized (this) {
            closed = true;
            stopping = processes.values().stream().map(p -> p.connection).toList();
            processes.clear();
        }
        reaper.shutdownNow();
        stopping.parallelStream().forEach(McpConnection::close);
    }

    private UserProcess acquire(UserKey key) {
        McpConnection evicted = null;
        UserProcess process;
        synchronized (this) {
            if (closed) throw new McpUnavailableException("MCP server " + settings.name() + " is closed");
            process = processes.get(key);
            if (process == null) {
                if (processes.size() >= limits.maxProcesses()) {
                    Map.Entry<UserKey, UserProcess> idlest = processes.entrySet().stream()
                            .filter(e -> e.getValue().calls == 0)
                            .min(Comparator.comparing(e -> e.getValue().lastUsed))
                            .orElseThrow(() -> new ToolException(
                                    "mcp_busy",
                                    "MCP server " + settings.name() + " already runs its maximum of "
                                            + limits.maxProcesses() + " processes (one per user) and every one of"
                                            + " them is busy; try again in a moment."));
                    processes.remove(idlest.getKey());
                    evicted = idlest.getValue().connection;
                }
                McpServerSettings own = settings.withTransport(command.forUser(key));
                process = new UserProcess(new McpConnection(own, timing, pins, clock, null), clock.instant());
                processes.put(key, process);
                process.connection.start();
            }
            process.calls++;
            process.lastUsed = clock.instant();
        }
        if (evicted != null) stopInBackground(evicted, "the least recently used, to make room");
        return process;
    }

    private synchronized void release(UserProcess process) {
        process.calls--;
        process.lastUsed = clock.instant();
    }

    /** A process started for this call gets the server's timeout to come up, within the call's deadline. */
    private void awaitStarted(McpConnection connection, ToolContext context) {
        if (connection.firstAttempt().isDone()) return;
        Duration left = Duration.between(clock.instant(), context.deadline());
        Duration wait = left.compareTo(settings.timeout()) < 0 ? left : settings.timeout();
        try {
            connection.firstAttempt().get(Math.max(0, wait.toMillis()), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.util.concurrent.CancellationException("the call was cancelled");
        } catch (ExecutionException | TimeoutException e) {
            // the call itself reports the server as not connected
        }
    }

    private void stopIdle() {
        Instant now = clock.instant();
        List<McpConnection> idle = new ArrayList<>();
        synchronized (this) {
            processes.values().removeIf(p -> {
                boolean stop =
                        p.calls == 0 && !p.lastUsed.plus(limits.idleTimeout()).isAfter(now);
                if (stop) idle.add(p.connection);
                return stop;
            });
        }
        idle.forEach(c -> stopInBackground(c, "idle for " + limits.idleTimeout()));
    }

    private void stopInBackground(McpConnection connection, String why) {
        log.info("MCP server {}: stopping a user's process ({})", settings.name(), why);
        Thread.ofVirtual().name("mcp-" + settings.name() + "-stop").start(connection::close);
    }
}
