package dev.baton.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.server.app.BatonServer;
import dev.baton.server.auth.JwtSecret;
import dev.baton.server.auth.TokenMinter;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.RecordedRequest;
import dev.baton.simulator.SimulatorScript;
import dev.baton.store.jdbc.Database;
import dev.baton.tasks.TaskModule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A real Baton server for benchmarks: SQLite in a temporary folder, the LLM simulator answering instantly, one
 * signed-in user. Turns go over real HTTP (JSON mode); history is seeded and cut back through a second pool on
 * the same database file ({@link ConversationSeeder}), only while no turn runs.
 */
public final class BenchServer implements AutoCloseable {
    public static final String USER = "bench-user";
    public static final String AGENT = "tasks";

    private static final String SECRET = "bench-secret-bench-secret-bench-secret-0123456789";
    private static final Map<String, Set<String>> ROLES = Map.of(
            "student",
            Set.of(
                    "tasks:read:self",
                    "tasks:write:self",
                    "sessions:read:self",
                    "sessions:write:self",
                    "mcp:everything"));
    /** The defaults, except that a long benchmark conversation must never hit the per-conversation tool cap. */
    private static final TurnLimits LIMITS = new TurnLimits(
            5,
            10,
            Integer.MAX_VALUE,
            20,
            4000,
            128_000,
            Duration.ofSeconds(30),
            Duration.ofSeconds(10),
            Duration.ofSeconds(45));

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * What one turn answered.
     *
     * @param toolStates the state of each tool call, in order
     */
    public record TurnReply(String answer, List<String> toolStates) {}

    private final Path dir;
    private final LlmSimulator simulator;
    private final BatonServer server;
    private final Database seedDb;
    private final ConversationSeeder seeder;
    private final String base;
    private final String token;
    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** A token for {@code user} (role student), valid for twelve hours, that a bench server accepts. */
    static String token(String user) {
        return new TokenMinter(JwtSecret.of(SECRET))
                .mint(TokenMinter.Claims.user(user, "student"), Instant.now(), Duration.ofHours(12));
    }

    private BenchServer(Path dir, LlmSimulator simulator, BatonServer server, Database seedDb) {
        this.dir = dir;
        this.simulator = simulator;
        this.server = server;
        this.seedDb = seedDb;
        this.seeder = new ConversationSeeder(seedDb, Clock.systemUTC());
        this.base = "http://127.0.0.1:" + server.port();
        this.token = new TokenMinter(JwtSecret.of(SECRET))
                .mint(TokenMinter.Claims.user(USER, "student"), Instant.now(), Duration.ofHours(12));
    }

    /** Starts the simulator with {@link BenchScripts#turns()} and a server on a new SQLite file. */
    public static BenchServer start() {
        return start(BenchScripts.turns());
    }

    public static BenchServer start(SimulatorScript script) {
        return start(script, JSON.createObjectNode(), Map.of());
    }

    /**
     * @param acceptQueue the server's listen backlog ({@code server.acceptQueue}); 0 keeps Baton's default
     */
    public static BenchServer start(SimulatorScript script, int acceptQueue) {
        ObjectNode sections = JSON.createObjectNode();
        if (acceptQueue > 0) sections.putObject("server").put("acceptQueue", acceptQueue);
        return start(script, sections, Map.of());
    }

    /**
     * A server with more configuration (baton.yaml sections, e.g. {@code mcp}) and more agents.
     *
     * @param agentYamls file name without ".yaml" → agent definition
     */
    public static BenchServer start(SimulatorScript script, ObjectNode sections, Map<String, String> agentYamls) {
        return start(script, sections, agentYamls, null);
    }

    /**
     * As {@link #start(SimulatorScript, ObjectNode, Map)}, on the database at {@code jdbcUrl}; null for a new SQLite
     * file.
     */
    public static BenchServer start(
            SimulatorScript script, ObjectNode sections, Map<String, String> agentYamls, String jdbcUrl) {
        Path dir;
        try {
            dir = Files.createTempDirectory("baton-bench");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String url = jdbcUrl != null ? jdbcUrl : "jdbc:sqlite:" + dir.resolve("baton.db");
        // Opened before the server, so the server's own migrations (it may know more modules than these) come
        // last and this pool never sees a schema newer than it knows. It only seeds and truncates, between
        // measurements.
        Database seedDb = Database.open(url, List.of(TaskModule.MIGRATIONS));
        LlmSimulator simulator = null;
        BatonServer server = null;
        try {
            simulator = LlmSimulator.start(script);
            Path agents = Files.createDirectories(dir.resolve("agents"));
            for (var agent : agentYamls.entrySet()) {
                Files.writeString(agents.resolve(agent.getKey() + ".yaml"), agent.getValue());
            }
            server = BatonServer.start(
                    config(url, sections, agents),
                    new BatonServer.Options(
                            "127.0.0.1", Clock.systemUTC(), Duration.ofSeconds(1), simulator.baseUrl()));
            return new BenchServer(dir, simulator, server, seedDb);
        } catch (IOException | RuntimeException e) {
            if (server != null) server.close();
            if (simulator != null) simulator.close();
            seedDb.close();
            deleteQuietly(dir);
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    /**
     * Defaults, except limits no benchmark reaches: the per-conversation tool-call cap and the per-user message
     * rate (the rate limiter stays in the path of every turn, as in production).
     */
    private static BatonConfig config(String url, ObjectNode sections, Path agents) {
        return config(url, sections, agents, LIMITS);
    }

    /** {@link #config(String, ObjectNode, Path)} with other turn limits (e.g. a shorter request deadline). */
    static BatonConfig config(String url, ObjectNode sections, Path agents, TurnLimits limits) {
        ObjectNode raw = sections.deepCopy();
        raw.putObject("rateLimits")
                .putObject("perUser")
                .put("perMinute", 100_000_000)
                .put("perHour", 1_000_000_000);
        // -Dbench.groupCommit=false (run.sh: BENCH_GROUP_COMMIT=false) compares SQLite commits shared or one by one
        String groupCommit = System.getProperty("bench.groupCommit");
        if (groupCommit != null) {
            ObjectNode database = raw.has("database") ? (ObjectNode) raw.get("database") : raw.putObject("database");
            if (!database.has("groupCommit")) database.put("groupCommit", Boolean.parseBoolean(groupCommit));
        }
        return new BatonConfig(
                0,
                url,
                SECRET,
                // read from the sections like baton.yaml's, so that a benchmark can set models.requestTimeout
                ModelSettings.parse(raw.get("models"), Map.of()),
                limits,
                ROLES,
                List.of(agents),
                BatonConfig.DEFAULT_MAX_BODY_BYTES,
                raw,
                Map.of());
    }

    /** Starts a session with the task agent over the API and returns its id. */
    public String startSession() {
        return startSession(AGENT);
    }

    /** Starts a session with the agent over the API and returns its id. */
    public String startSession(String agentId) {
        HttpResponse<String> r = post("/v1/sessions", "{\"agentId\":\"" + agentId + "\"}");
        if (r.statusCode() != 201)
            throw new IllegalStateException("session not created: " + r.statusCode() + " " + r.body());
        return read(r.body()).path("id").asText();
    }

    /** Appends {@code messages} prior messages (alternating user/assistant) to the session. */
    public void seedHistory(String sessionId, int messages) {
        seeder.seed(USER, sessionId, messages);
    }

    /** Cuts the session back to its first {@code messages} messages; call only while no turn runs. */
    public void resetHistory(String sessionId, int messages) {
        seeder.truncate(USER, sessionId, messages);
        simulator.clearRequests(); // the simulator records every request; don't let that grow across iterations
    }

    public long messageCount(String sessionId) {
        return seeder.messageCount(sessionId);
    }

    /**
     * One full turn: {@code POST /v1/sessions/{id}/messages} without {@code Accept: text/event-stream}, so the
     * server answers with one JSON document once the turn is saved.
     *
     * @throws IllegalStateException when the turn did not answer 200 — a benchmark must not time failures
     */
    public TurnReply send(String sessionId, String content) {
        String body = JSON.createObjectNode().put("content", content).toString();
        HttpResponse<String> r = post("/v1/sessions/" + sessionId + "/messages", body);
        if (r.statusCode() != 200) throw new IllegalStateException("turn failed: " + r.statusCode() + " " + r.body());
        JsonNode json = read(r.body());
        List<String> states = new java.util.ArrayList<>();
        json.path("toolCalls").forEach(c -> states.add(c.path("state").asText()));
        return new TurnReply(json.path("answer").asText(), List.copyOf(states));
    }

    /**
     * The value of one unlabelled gauge in the server's {@code GET /metrics} (Prometheus text), e.g.
     * {@code baton_database_connections_active}.
     */
    public double gauge(String name) {
        HttpRequest req =
                HttpRequest.newBuilder(URI.create(base + "/metrics")).GET().build();
        String body;
        try {
            body = http.send(req, HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        for (String line : body.split("\n")) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new IllegalStateException("no gauge " + name + " in /metrics");
    }

    /** Makes the simulator keep every request it receives, as it once did (to show what that cost in a soak). */
    public void keepAllModelRequests() {
        simulator.keepAllRequests();
    }

    /** The simulator's OpenAI-compatible base URL ({@code .../v1}), for clients that call the model directly. */
    public String simulatorUrl() {
        return simulator.baseUrl();
    }

    /** The bodies of the model requests the simulator kept, exactly as Baton sent them, oldest first. */
    public List<String> modelRequestBodies() {
        return simulator.requests().stream().map(RecordedRequest::rawBody).toList();
    }

    /** Replaces what (and how fast) the simulator answers, for the requests that arrive from now on. */
    public void script(SimulatorScript script) {
        simulator.script(script);
    }

    /** The signed-in bench user's bearer token. */
    public String token() {
        return token;
    }

    /** The server's port on 127.0.0.1. */
    public int port() {
        return server.port();
    }

    /** The runtime behind the server (its running turns, pending usage). */
    public dev.baton.runtime.Baton runtime() {
        return server.runtime();
    }

    /** Requests the simulator received since the last reset: one per model call. */
    public int modelCalls() {
        return (int) simulator.requestCount();
    }

    /** How many messages (system, history, current, tool results) the model was sent in its last call. */
    public int messagesInLastModelCall() {
        List<RecordedRequest> requests = simulator.requests();
        if (requests.isEmpty()) throw new IllegalStateException("the model has not been called");
        return requests.getLast().messages().size();
    }

    @Override
    public void close() {
        try {
            seedDb.close();
            server.close();
        } finally {
            simulator.close();
            deleteQuietly(dir);
        }
    }

    private HttpResponse<String> post(String path, String json) {
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + path))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
        try {
            return http.send(req, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static JsonNode read(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + body, e);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp folder left behind is harmless
        }
    }
}
