package dev.baton.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.app.BatonApp;
import dev.baton.runtime.delivery.Delivery;
import dev.baton.simulator.LlmSimulator;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code GET /v1/events} served by the starter: a message a background job delivers into the caller's session reaches
 * the caller's open stream, read by the JDK's HTTP client; another user's delivery does not.
 */
@SpringBootTest(
        classes = StarterDeliveredMessagesIT.EventsApp.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class StarterDeliveredMessagesIT {
    static final LlmSimulator MODEL = LlmSimulator.start(HttpApiContract.script());
    static final Path DIR = tempDir();
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @SpringBootApplication
    static class EventsApp {}

    @LocalServerPort
    int port;

    @Autowired
    BatonApp app;

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
    }

    @AfterAll
    static void stop() {
        MODEL.close();
    }

    @Test
    void a_delivered_message_reaches_its_users_stream_and_no_one_elses() throws Exception {
        String base = "http://127.0.0.1:" + port;
        ApiExchanges api = new ApiExchanges(base, HttpApiContract.SECRET);
        String mine = api.token("reader-ada", "acme", "student");
        String theirs = api.token("reader-bob", "acme", "student");
        String session = api.post("/v1/sessions", mine, "{\"agentId\":\"tasks\"}")
                .body()
                .path("id")
                .asText();
        String otherSession = api.post("/v1/sessions", theirs, "{\"agentId\":\"tasks\"}")
                .body()
                .path("id")
                .asText();
        assertThat(session).isNotBlank();
        assertThat(otherSession).isNotBlank();
        assertThat(api.get("/v1/events?sessionId=" + otherSession, mine).status())
                .as("another user's session is none")
                .isEqualTo(404);

        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/v1/events"))
                .header("Authorization", "Bearer " + mine)
                .header("Accept", "text/event-stream")
                .GET()
                .build();
        HttpClient client = HttpClient.newHttpClient();
        var answer = client.sendAsync(request, HttpResponse.BodyHandlers.ofLines());
        Thread reader = Thread.ofVirtual().start(() -> {
            try (Stream<String> body = answer.join().body()) {
                body.forEach(lines::add);
            } catch (RuntimeException e) {
                // the stream ends when the test closes the client
            }
        });
        try {
            List<String> seen = new ArrayList<>();
            awaitLine(lines, seen, "event:ready");

            app.deliveries().deliver(new Delivery("acme", "reader-bob", otherSession, "Bob's notes", "test.job"));
            app.deliveries().deliver(new Delivery("acme", "reader-ada", session, "Ada's notes", "test.job"));

            awaitLine(lines, seen, "event:message");
            String data = awaitLine(lines, seen, "data:");
            assertThat(data).contains("\"sessionId\":\"" + session + "\"", "Ada's notes", "\"source\":\"test.job\"");
            assertThat(seen).noneMatch(line -> line.contains("Bob's notes"));
            assertThat(answer.join().statusCode()).isEqualTo(200);
        } finally {
            client.shutdownNow();
            reader.interrupt();
        }
    }

    /** Waits for the next line starting with {@code prefix}, keeping every line read in {@code seen}. */
    private static String awaitLine(BlockingQueue<String> lines, List<String> seen, String prefix)
            throws InterruptedException {
        long end = System.nanoTime() + DEADLINE.toNanos();
        while (System.nanoTime() < end) {
            String line = lines.poll(end - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (line == null) break;
            seen.add(line);
            if (line.startsWith(prefix)) return line;
        }
        throw new AssertionError("no line starting with " + prefix + " within " + DEADLINE + "; read " + seen);
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("baton-starter-events");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
