package dev.baton.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real HTTP server on 127.0.0.1 that speaks the OpenAI Chat Completions, Anthropic Messages and Ollama chat
 * wire protocols, answering all of them from one {@link SimulatorScript}. It records each request before answering it,
 * so tests can assert on the exact prompt, history and tool schemas they sent; it keeps the last
 * {@value #DEFAULT_KEPT_REQUESTS} (see {@link #keepRequests}), so a simulator serving a benchmark or a long-running
 * {@code baton serve} does not grow without bound.
 *
 * <pre>{@code
 * try (var sim = LlmSimulator.start(SimulatorScript.replyingWith("Hello!"))) {
 *     var client = OpenAiClient.of(sim.baseUrl(), "any-key");    // appends /chat/completions
 *     ...
 *     assertThat(sim.awaitRequest(0, Duration.ofSeconds(5)).lastUserMessage()).isEqualTo("hi");
 * }
 * }</pre>
 *
 * Serves {@code POST /v1/chat/completions} (also without {@code /v1}, and as Azure OpenAI's
 * {@code /openai/deployments/{deployment}/chat/completions}), {@code POST /v1/messages} (Anthropic; point its
 * client at {@link #baseUrl()}), {@code POST /api/chat} (Ollama; point its client at {@link #rootUrl()}) and
 * {@code GET /v1/models}; any other path gets a 404 in OpenAI's error format. Faults are played in the form of
 * the request's protocol. Each connection is served on its own virtual thread.
 */
public final class LlmSimulator implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LlmSimulator.class);
    private static final Set<String> MODELS_PATHS = Set.of("/v1/models", "/models");
    private static final Map<String, String> JSON_HEADERS = Map.of("Content-Type", "application/json");
    /** How many requests the simulator keeps unless told otherwise. */
    public static final int DEFAULT_KEPT_REQUESTS = 256;

    private final ServerSocket serverSocket;
    private final Set<ClientConnection> connections = ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedQueue<Fault> faults = new ConcurrentLinkedQueue<>();
    private final AtomicLong completions = new AtomicLong();
    private final ReentrantLock lock = new ReentrantLock();
    private final java.util.concurrent.locks.Condition changed = lock.newCondition();
    private final RequestLog requests = new RequestLog(DEFAULT_KEPT_REQUESTS);
    private int disconnects;
    private volatile SimulatorScript script;
    private volatile boolean closing;
    private Thread acceptor;

    private LlmSimulator(SimulatorScript script, ServerSocket serverSocket) {
        this.script = Objects.requireNonNull(script, "script");
        this.serverSocket = serverSocket;
    }

    /** Starts on a free port of 127.0.0.1. */
    public static LlmSimulator start(SimulatorScript script) {
        return start(script, 0);
    }

    /** Starts on the given port of 127.0.0.1 (0 picks a free one). */
    public static LlmSimulator start(SimulatorScript script, int port) {
        return start(script, port, 128);
    }

    /**
     * Starts on the given port of 127.0.0.1 (0 picks a free one) with a listen backlog of {@code acceptQueue}: a load
     * test that opens thousands of model calls in bursts needs more than the default 128, or the kernel drops their
     * connection attempts while the simulator is busy and the callers' connect timeouts fail them.
     */
    public static LlmSimulator start(SimulatorScript script, int port, int acceptQueue) {
        Objects.requireNonNull(script, "script");
        try {
            var socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), acceptQueue);
            var simulator = new LlmSimulator(script, socket);
            simulator.acceptor = Thread.ofVirtual()
                    .name("llm-simulator-accept-" + socket.getLocalPort())
                    .start(simulator::acceptLoop);
            log.debug("LLM simulator listening on {}", simulator.baseUrl());
            return simulator;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind the LLM simulator to 127.0.0.1:" + port, e);
        }
    }

    /**
     * The OpenAI and Anthropic base URL, e.g. {@code http://127.0.0.1:43117/v1}; clients append
     * {@code /chat/completions} or {@code /messages}.
     */
    public String baseUrl() {
        return "http://127.0.0.1:" + port() + "/v1";
    }

    /**
     * The server root, e.g. {@code http://127.0.0.1:43117}: Ollama's base URL, and the endpoint of an Azure
     * OpenAI resource.
     */
    public String rootUrl() {
        return "http://127.0.0.1:" + port();
    }

    public int port() {
        return serverSocket.getLocalPort();
    }

    /** Replaces the script; requests already being answered finish with the old one. */
    public void script(SimulatorScript newScript) {
        this.script = Objects.requireNonNull(newScript, "script");
    }

    public SimulatorScript script() {
        return script;
    }

    /**
     * Makes the next chat request fail with {@code fault}, ahead of any rule. Queued faults apply in FIFO order,
     * one per chat request; other paths ({@code /v1/models}) do not consume them.
     */
    public void enqueueFault(Fault fault) {
        faults.add(Objects.requireNonNull(fault, "fault"));
    }

    /**
     * Keeps only the last {@code count} requests from now on (older ones are dropped as new ones arrive); the
     * default is {@value #DEFAULT_KEPT_REQUESTS}.
     */
    public LlmSimulator keepRequests(int count) {
        requests.keep(count);
        return this;
    }

    /** Keeps every request for as long as the simulator runs: for a test that needs all of a long run. */
    public LlmSimulator keepAllRequests() {
        return keepRequests(Integer.MAX_VALUE);
    }

    /**
     * A snapshot of the requests kept so far, in arrival order (all paths, faulted ones included): the last
     * {@link #keepRequests} of them.
     */
    public List<RecordedRequest> requests() {
        return requests.snapshot();
    }

    /** How many requests arrived since the last {@link #clearRequests()}, kept or not. */
    public long requestCount() {
        return requests.count();
    }

    public void clearRequests() {
        requests.clear();
    }

    /**
     * Waits until the {@code index}-th request (0-based, counted since the last {@link #clearRequests()}) has
     * arrived.
     *
     * @throws IllegalStateException when it has not arrived within {@code timeout}, or arrived but is no longer kept
     */
    public RecordedRequest awaitRequest(int index, Duration timeout) {
        return requests.await(index, timeout);
    }

    /** How many times a client closed its connection while the simulator was still streaming or hanging. */
    public int clientDisconnects() {
        lock.lock();
        try {
            return disconnects;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until at least one client disconnect has been seen; false on timeout. */
    public boolean awaitClientDisconnect(Duration timeout) {
        return awaitClientDisconnects(1, timeout);
    }

    /** Waits until at least {@code count} client disconnects have been seen in total; false on timeout. */
    public boolean awaitClientDisconnects(int count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        lock.lock();
        try {
            while (disconnects < count) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return false;
                }
                changed.awaitNanos(remaining);
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** Stops accepting, drops every open connection (hanging requests end) and frees the port. */
    @Override
    public void close() {
        closing = true;
        try {
            serverSocket.close();
        } catch (IOException e) {
            log.debug("closing the simulator's server socket failed", e);
        }
        connections.forEach(ClientConnection::close);
        try {
            // A socket closed while a thread is blocked in accept() is released only when that thread leaves it;
            // waiting here means the port is free again once close() returns.
            acceptor.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptLoop() {
        while (!closing) {
            try {
                Socket socket = serverSocket.accept();
                Thread.ofVirtual().name("llm-simulator-conn").start(() -> serve(socket));
            } catch (IOException e) {
                if (!closing) {
                    log.warn("LLM simulator stopped accepting connections", e);
                }
                return;
            }
        }
    }

    private void serve(Socket socket) {
        ClientConnection connection;
        try {
            connection = new ClientConnection(socket);
        } catch (IOException e) {
            log.debug("could not set up a client connection", e);
            return;
        }
        connections.add(connection);
        try (connection) {
            if (closing) {
                return;
            }
            HttpRequestHead head;
            while ((head = connection.readRequest()) != null) {
                boolean keepAlive = head.keepAlive() && !closing;
                var outcome = handle(connection, head, keepAlive);
                if (outcome != CompletionPlayer.Outcome.ANSWERED || !keepAlive || !connection.reusable()) {
                    return;
                }
            }
        } catch (HttpRequestHead.MalformedRequest e) {
            sendQuietly(
                    connection,
                    400,
                    ChatWire.error("Malformed HTTP request: " + e.getMessage(), "invalid_request_error", null));
        } catch (IOException e) {
            log.debug("client connection ended", e);
        } finally {
            connections.remove(connection);
        }
    }

    private CompletionPlayer.Outcome handle(ClientConnection connection, HttpRequestHead head, boolean keepAlive)
            throws IOException {
        var rawBody = new String(head.body(), StandardCharsets.UTF_8);
        var request = new RecordedRequest(
                head.method(), head.path(), head.headers(), parseJson(rawBody), rawBody, head.query());
        requests.record(request);
        var path = head.path();
        var protocol = WireProtocol.of(path);
        if (protocol != null && head.method().equals("POST")) {
            var outcome = answerChat(connection, request, WireFormat.of(protocol), keepAlive);
            if (outcome == CompletionPlayer.Outcome.CLIENT_GONE) {
                countDisconnect();
            }
            return outcome;
        }
        if (MODELS_PATHS.contains(path) && head.method().equals("GET")) {
            connection.sendFixed(
                    200, JSON_HEADERS, ChatWire.bytes(ChatWire.models("simulator", 1_700_000_000L)), keepAlive);
        } else if (protocol != null || MODELS_PATHS.contains(path)) {
            connection.sendFixed(
                    405,
                    JSON_HEADERS,
                    ChatWire.bytes(ChatWire.error(
                            "Method " + head.method() + " is not allowed on " + path + ".",
                            "invalid_request_error",
                            "method_not_allowed")),
                    keepAlive);
        } else {
            connection.sendFixed(
                    404,
                    JSON_HEADERS,
                    ChatWire.bytes(ChatWire.error(
                            "Unknown request URL: " + head.method() + " " + path + ". Please check the URL for typos.",
                            "invalid_request_error",
                            "unknown_url")),
                    keepAlive);
        }
        return CompletionPlayer.Outcome.ANSWERED;
    }

    private CompletionPlayer.Outcome answerChat(
            ClientConnection connection, RecordedRequest request, WireFormat format, boolean keepAlive)
            throws IOException {
        long sequence = completions.incrementAndGet();
        var id = new ChatWire.CompletionId(
                format.completionId(sequence), Instant.now().getEpochSecond(), request.model());
        var player = new CompletionPlayer(connection, request, format, sequence, id, () -> closing, keepAlive);
        if (!request.body().isObject() || !request.body().path("messages").isArray()) {
            connection.sendFixed(
                    400,
                    JSON_HEADERS,
                    ChatWire.bytes(format.error(
                            400,
                            "invalid_request_error",
                            "invalid_request",
                            "The body must be a JSON object with a 'messages' array.")),
                    keepAlive);
            return CompletionPlayer.Outcome.ANSWERED;
        }
        var current = script;
        SimulatorScript.Answer answer;
        try {
            answer = current.answer(request);
        } catch (RuntimeException e) {
            log.warn("simulator script failed on request {}", sequence, e);
            connection.sendFixed(
                    500,
                    JSON_HEADERS,
                    ChatWire.bytes(
                            format.error(500, "server_error", "script_error", "The simulator script failed: " + e)),
                    keepAlive);
            return CompletionPlayer.Outcome.ANSWERED;
        }
        var fault = faults.poll();
        log.debug(
                "request {} answered by rule '{}'{}",
                sequence,
                answer.ruleName(),
                fault == null ? "" : " with queued fault " + fault);
        if (fault != null) {
            var partial = answer.reply() instanceof Reply.Failure f ? f.partial() : answer.reply();
            return player.play(new Reply.Failure(fault, partial), answer.pacing(), current.fallback());
        }
        return player.play(answer.reply(), answer.pacing(), current.fallback());
    }

    private void countDisconnect() {
        lock.lock();
        try {
            disconnects++;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private static JsonNode parseJson(String body) {
        if (body.isBlank()) {
            return null;
        }
        try {
            return ChatWire.JSON.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }

    private static void sendQuietly(ClientConnection connection, int status, JsonNode body) {
        try {
            connection.sendFixed(status, JSON_HEADERS, ChatWire.bytes(body), false);
        } catch (IOException e) {
            // the client is gone; nothing to tell it
        }
    }
}
