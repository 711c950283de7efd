package dev.baton.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.contract.ApiExchanges;
import dev.baton.testkit.contract.HttpApiContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A streamed turn that stays quiet (the model takes seconds to its first token) gets {@code :keepalive} comments from
 * the starter, as from {@code baton serve}, read by the JDK's HTTP client off the wire.
 */
@SpringBootTest(
        classes = StarterSseHeartbeatIT.HeartbeatApp.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class StarterSseHeartbeatIT {
    static final LlmSimulator MODEL = LlmSimulator.start(SimulatorScript.builder()
            .firstTokenLatency(Duration.ofSeconds(2))
            .always(Reply.text("Here at last."))
            .build());
    static final Path DIR = tempDir();

    @SpringBootApplication
    static class HeartbeatApp {}

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
        properties.add("baton.api.sse-heartbeat", () -> "200ms");
    }

    @AfterAll
    static void stop() {
        MODEL.close();
    }

    @Test
    void a_quiet_stream_gets_keepalive_comments_until_its_events_come() throws Exception {
        String base = "http://127.0.0.1:" + port;
        ApiExchanges api = new ApiExchanges(base, HttpApiContract.SECRET);
        String token = api.token("quiet-user", "acme", "student");
        ApiExchanges.Answer session = api.post("/v1/sessions", token, "{\"agentId\":\"tasks\"}");
        assertThat(session.status()).as(session.raw()).isEqualTo(201);

        HttpRequest request = HttpRequest.newBuilder(URI.create(
                        base + "/v1/sessions/" + session.body().path("id").asText() + "/messages"))
                .header("Authorization", "Bearer " + token)
                .header("Accept", "text/event-stream")
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString("{\"content\":\"take your time\"}"))
                .build();
        List<String> lines = HttpClient.newHttpClient()
                .send(request, HttpResponse.BodyHandlers.ofLines())
                .body()
                .toList();

        int started = lines.indexOf("event:turn.started");
        int firstChunk = lines.indexOf("event:chunk");
        assertThat(started).as(String.join("\n", lines)).isNotNegative();
        assertThat(firstChunk).isGreaterThan(started);
        assertThat(lines.subList(started, firstChunk))
                .as("the model's two quiet seconds, probed every 200 ms")
                .filteredOn(line -> line.startsWith(":") && line.contains("keepalive"))
                .hasSizeGreaterThanOrEqualTo(2);
        assertThat(lines).contains("event:done");
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("baton-starter-heartbeat");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
