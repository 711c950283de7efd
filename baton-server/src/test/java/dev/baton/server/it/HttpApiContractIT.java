package dev.baton.server.it;

import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.server.app.BatonServer;
import dev.baton.simulator.LlmSimulator;
import dev.baton.testkit.contract.HttpApiContract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP API contract against {@code baton serve} — the reference the Spring Boot starter's door is held to (its
 * run of the same suite is the starter's {@code StarterHttpApiContractIT}): a real server on a free port, over SQLite,
 * configured by the contract's baton.yaml, with the LLM simulator as its model.
 */
class HttpApiContractIT extends HttpApiContract {
    @TempDir
    static Path dir;

    static LlmSimulator simulator;
    static BatonServer server;

    @BeforeAll
    static void start() throws IOException {
        simulator = LlmSimulator.start(HttpApiContract.script());
        Path yaml = Files.writeString(
                dir.resolve("baton.yaml"), HttpApiContract.batonYaml("jdbc:sqlite:" + dir.resolve("baton.db")));
        BatonConfig config = ConfigLoader.load(yaml, Map.of("BATON_PORT", "0"));
        server = BatonServer.start(
                config,
                new BatonServer.Options("127.0.0.1", Clock.systemUTC(), Duration.ofSeconds(1), simulator.baseUrl()));
    }

    @AfterAll
    static void stop() {
        if (server != null) server.close();
        if (simulator != null) simulator.close();
    }

    @Override
    protected String baseUrl() {
        return "http://127.0.0.1:" + server.port();
    }
}
