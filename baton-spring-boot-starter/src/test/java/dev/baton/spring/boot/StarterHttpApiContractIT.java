package dev.baton.spring.boot;

import dev.baton.simulator.LlmSimulator;
import dev.baton.testkit.contract.HttpApiContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The HTTP API contract against a Spring Boot app with the starter, on a random port and under a base path, with the
 * same baton.yaml, tokens and LLM simulator as {@code baton serve}'s run of it ({@code HttpApiContractIT} in
 * baton-server, the reference). The app has no Spring Security, so the caller comes from Baton's own HS256 tokens.
 */
@SpringBootTest(
        classes = StarterHttpApiContractIT.ContractApp.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class StarterHttpApiContractIT extends HttpApiContract {
    static final String BASE_PATH = "/assistant";
    static final LlmSimulator MODEL = LlmSimulator.start(HttpApiContract.script());
    static final Path DIR = tempDir();

    @SpringBootApplication
    static class ContractApp {}

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void baton(DynamicPropertyRegistry properties) {
        String databaseUrl = "jdbc:sqlite:" + DIR.resolve("baton.db");
        Path yaml;
        try {
            yaml = Files.writeString(DIR.resolve("baton.yaml"), HttpApiContract.batonYaml(databaseUrl));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        properties.add("baton.config", yaml::toString);
        properties.add("baton.database.url", () -> databaseUrl);
        properties.add("baton.simulator-base-url", MODEL::baseUrl);
        properties.add("baton.api.base-path", () -> BASE_PATH);
    }

    @AfterAll
    static void stop() {
        MODEL.close();
    }

    @Override
    protected String baseUrl() {
        return "http://127.0.0.1:" + port + BASE_PATH;
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("baton-starter-contract");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
