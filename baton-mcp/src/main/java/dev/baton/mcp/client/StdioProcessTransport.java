package dev.baton.mcp.client;

import dev.baton.mcp.config.McpTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The stdio transport: the server is a child process, one JSON-RPC message per line on its stdin and stdout. An
 * implementation of the SDK's {@link McpClientTransport} port rather than the SDK's own stdio transport, which keeps
 * its {@code Process} to itself: Baton must notice at once when the process exits (to fail pending calls and restart
 * it), kill a server that ignores SIGTERM and whatever it started ({@code npx} runs node as a grandchild), and report
 * the pid and the last lines of stderr when it dies.
 */
final class StdioProcessTransport implements McpClientTransport {
    private static final Logger log = LoggerFactory.getLogger(StdioProcessTransport.class);
    /** What a child inherits from Baton's environment; nothing else (API keys, the JWT secret) is passed on. */
    static final List<String> INHERITED =
            List.of("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL", "TMPDIR", "TZ");

    private static final int MAX_LINE_CHARS = 16 * 1024 * 1024;
    private static final int STDERR_LINES_KEPT = 20;
    private static final Duration EXIT_GRACE = Duration.ofSeconds(2);

    private final String server;
    private final McpTransport.Stdio settings;
    private final McpJsonMapper json;
    private final Consumer<String> onExit;
    private final Deque<String> stderrTail = new ArrayDeque<>();
    private final Object writeLock = new Object();
    private volatile Process process;
    private volatile boolean closing;

    /** @param onExit told (once, with a description) when the process ends without being asked to */
    StdioProcessTransport(String server, McpTransport.Stdio settings, McpJsonMapper json, Consumer<String> onExit) {
        this.server = server;
        this.settings = settings;
        this.json = json;
        this.onExit = onExit;
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return Mono.fromRunnable(() -> {
            List<String> command = new ArrayList<>();
            command.add(settings.command());
            command.addAll(settings.args());
            ProcessBuilder builder = new ProcessBuilder(command);
            Map<String, String> env = builder.environment();
            env.clear();
            INHERITED.forEach(name -> {
                String value = System.getenv(name);
                if (value != null) env.put(name, value);
            });
            env.putAll(settings.env());
            try {
                process = builder.start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start " + settings.command() + ": " + e.getMessage(), e);
            }
            Process started = process;
            Thread.ofVirtual().name("mcp-" + server + "-stdout").start(() -> readMessages(started, handler));
            Thread.ofVirtual().name("mcp-" + server + "-stderr").start(() -> readStderr(started));
            started.onExit().thenRun(() -> {
                if (!closing)
                    onExit.accept("process " + started.pid() + " exited with " + started.exitValue() + stderrSummary());
            });
            log.info("MCP server {} started: pid {} ({})", server, started.pid(), settings.command());
        });
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        return Mono.fromRunnable(() -> {
            Process running = process;
            if (running == null || !running.isAlive())
                throw new UncheckedIOException(new IOException("MCP server " + server + " is not running"));
            try {
                // compact JSON has no raw line breaks (they are escaped inside strings), so one message is one line
                byte[] line = (json.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8);
                OutputStream stdin = running.getOutputStream();
                synchronized (writeLock) {
                    stdin.write(line);
                    stdin.flush();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("writing to MCP server " + server + " failed: " + e.getMessage(), e);
            }
        });
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(this::stop);
    }

    @Override
    public void close() {
        stop();
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return json.convertValue(data, typeRef);
    }

    /** The process id, or -1 before it started. */
    long pid() {
        Process running = process;
        return running == null ? -1 : running.pid();
    }

    /**
     * Closes stdin (how the MCP spec asks a stdio server to stop), then SIGTERM, then SIGKILL, each after a short grace;
     * whatever the process started is killed with it.
     */
    private void stop() {
        closing = true;
        Process running = process;
        if (running == null) return;
        List<ProcessHandle> descendants = running.descendants().toList();
        try {
            running.getOutputStream().close();
            if (!running.waitFor(EXIT_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                running.destroy();
                if (!running.waitFor(EXIT_GRACE.toMillis(), TimeUnit.MILLISECONDS)) running.destroyForcibly();
            }
        } catch (IOException e) {
            running.destroyForcibly();
        } catch (InterruptedException e) {
            running.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private void readMessages(
            Process running, Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        try (BufferedReader stdout =
                new BufferedReader(new InputStreamReader(running.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = readLine(stdout)) != null) {
                if (line.isBlank()) continue;
                McpSchema.JSONRPCMessage message;
                try {
                    message = McpSchema.deserializeJsonRpcMessage(json, line);
                } catch (IOException | RuntimeException e) {
                    // a server that prints a banner on stdout breaks no call in flight: skip the line and say so
                    log.warn("MCP server {} wrote a line that is not JSON-RPC: {}", server, abbreviate(line));
                    continue;
                }
                handler.apply(Mono.just(message))
                        .subscribe(
                                ignored -> {}, e -> log.debug("MCP server {}: handling a message failed", server, e));
            }
        } catch (IOException e) {
            if (!closing) log.debug("MCP server {}: reading stdout failed: {}", server, e.toString());
        }
    }

    private void readStderr(Process running) {
        try (BufferedReader stderr =
                new BufferedReader(new InputStreamReader(running.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = stderr.readLine()) != null) {
                log.debug("MCP server {} stderr: {}", server, line);
                synchronized (stderrTail) {
                    if (stderrTail.size() == STDERR_LINES_KEPT) stderrTail.removeFirst();
                    stderrTail.addLast(abbreviate(line));
                }
            }
        } catch (IOException e) {
            // the process is gone; its exit is reported by onExit
        }
    }

    private String stderrSummary() {
        synchronized (stderrTail) {
            return stderrTail.isEmpty() ? "" : "; last stderr lines: " + String.join(" | ", stderrTail);
        }
    }

    /** A line of at most {@link #MAX_LINE_CHARS} characters; a longer one ends the stream rather than the heap. */
    private static String readLine(BufferedReader reader) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = reader.read()) != -1) {
            if (c == '\n') return line.toString();
            if (line.length() >= MAX_LINE_CHARS)
                throw new IOException("a message exceeds " + MAX_LINE_CHARS + " chars");
            line.append((char) c);
        }
        return line.isEmpty() ? null : line.toString();
    }

    private static String abbreviate(String line) {
        return line.length() <= 300 ? line : line.substring(0, 300) + "…";
    }
}
