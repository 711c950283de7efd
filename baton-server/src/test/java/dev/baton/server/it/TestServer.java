package dev.baton.server.it;

import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.server.app.BatonServer;
import dev.baton.server.auth.JwtSecret;
import dev.baton.server.auth.TokenMinter;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.SimulatorScript;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * A real Baton server on a free port over a real database, with the LLM simulator as its model peer.
 * Tests talk to it over HTTP only.
 */
final class TestServer implements AutoCloseable {

    static final String SECRET = "test-secret-test-secret-test-secret-0123456789";
    static final Map<String, Set<String>> ROLES = Map.of(
            "student", Set.of("tasks:read:self", "tasks:write:self", "sessions:read:self", "sessions:write:self"),
            // can chat and read tasks, but not change them: the model must not be able to either
            "viewer", Set.of("tasks:read:self", "sessions:read:self", "sessions:write:self"),
            "admin",
                    Set.of(
                            "tasks:read:self",
                            "tasks:write:self",
                            "sessions:read:self",
                            "sessions:write:self",
                            "admin:audit"));

    final LlmSimulator simulator;
    final BatonServer server;
    final ApiClient api;
    final String databaseUrl;
    private final boolean ownsSimulator;

    private TestServer(LlmSimulator simulator, boolean ownsSimulator, BatonServer server, String databaseUrl) {
        this.simulator = simulator;
        this.ownsSimulator = ownsSimulator;
        this.server = server;
        this.databaseUrl = databaseUrl;
        this.api = new ApiClient("http://127.0.0.1:" + server.port());
    }

    static TestServer start(Path dir, SimulatorScript script) {
        return start(sqliteUrl(dir), TurnLimits.DEFAULTS, LlmSimulator.start(script), true);
    }

    static TestServer start(String databaseUrl, TurnLimits limits, LlmSimulator simulator, boolean ownsSimulator) {
        return start(
                databaseUrl,
                limits,
                simulator,
                ownsSimulator,
                new ModelSettings("simulator:default", null, null, Map.of()),
                simulator.baseUrl());
    }

    /**
     * @param simulatorBaseUrl what "simulator:*" models reach; null when the models configured point at the
     *     simulator as if it were a real provider
     */
    static TestServer start(
            String databaseUrl,
            TurnLimits limits,
            LlmSimulator simulator,
            boolean ownsSimulator,
            ModelSettings models,
            String simulatorBaseUrl) {
        BatonConfig config = BatonConfig.of(0, databaseUrl, SECRET, models, limits, ROLES);
        BatonServer server = BatonServer.start(
                config,
                new BatonServer.Options("127.0.0.1", Clock.systemUTC(), Duration.ofMillis(100), simulatorBaseUrl));
        return new TestServer(simulator, ownsSimulator, server, databaseUrl);
    }

    /**
     * A server on a whole configuration (baton.yaml sections in {@code config.raw()}, agent folders) whose clock the
     * test may move; "simulator:*" models reach {@code simulator}.
     */
    static TestServer start(BatonConfig config, LlmSimulator simulator, boolean ownsSimulator, Clock clock) {
        BatonServer server = BatonServer.start(
                config, new BatonServer.Options("127.0.0.1", clock, Duration.ofMillis(100), simulator.baseUrl()));
        return new TestServer(simulator, ownsSimulator, server, config.databaseUrl());
    }

    /**
     * A server over SQLite in {@code dir} with extra agents: each entry of {@code agentYamls} (file name without
     * ".yaml" → YAML text) is written to {@code dir/agents}, which the configuration lists as an agents folder.
     */
    static TestServer startWithAgents(Path dir, LlmSimulator simulator, Map<String, String> agentYamls) {
        Path agents = dir.resolve("agents");
        try {
            java.nio.file.Files.createDirectories(agents);
            for (var agent : agentYamls.entrySet()) {
                java.nio.file.Files.writeString(agents.resolve(agent.getKey() + ".yaml"), agent.getValue());
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        BatonConfig config = new BatonConfig(
                0,
                sqliteUrl(dir),
                SECRET,
                new ModelSettings("simulator:default", null, null, Map.of()),
                TurnLimits.DEFAULTS,
                ROLES,
                java.util.List.of(agents),
                BatonConfig.DEFAULT_MAX_BODY_BYTES,
                null,
                null);
        return start(config, simulator, true, Clock.systemUTC());
    }

    static String sqliteUrl(Path dir) {
        return "jdbc:sqlite:" + dir.resolve("baton.db");
    }

    static String token(String user, String... roles) {
        return new TokenMinter(JwtSecret.of(SECRET))
                .mint(
                        TokenMinter.Claims.user(user, roles.length == 0 ? new String[] {"student"} : roles),
                        Instant.now(),
                        Duration.ofHours(1));
    }

    @Override
    public void close() {
        server.close();
        if (ownsSimulator) simulator.close();
    }
}
