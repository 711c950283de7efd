package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.SimulatorScript;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request refused before its body is read still gets its JSON error over HTTP/2. The bodies here are larger than
 * the server's flow-control window for one stream, so the client cannot finish sending unless the server reads: a
 * server that answered without reading would reset the stream, and the client would see the reset, not the answer.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RefusedBodyIT {
    /** Above Jetty's 512 KiB receive window per stream, below the bound the server drains before answering. */
    private static final String BODY = "{\"title\":\"" + "x".repeat(1024 * 1024) + "\"}";

    @TempDir
    static Path dir;

    TestServer t;
    HttpClient http;

    @BeforeAll
    void start() throws Exception {
        t = TestServer.start(dir, SimulatorScript.replyingWith("ok"));
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        // the JDK's client upgrades its first connection to h2c: every request below is a stream on it
        HttpResponse<String> healthz =
                http.send(HttpRequest.newBuilder(uri("/healthz")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(healthz.version()).isEqualTo(HttpClient.Version.HTTP_2);
    }

    @AfterAll
    void stop() {
        http.close();
        t.close();
    }

    @Test
    void a_request_without_a_token_gets_its_401() throws Exception {
        assertError(send(post("/v1/tasks", "application/json")), 401, "unauthorized");
    }

    @Test
    void an_mcp_message_in_the_wrong_media_type_gets_its_415() throws Exception {
        HttpRequest.Builder request =
                post("/mcp", "text/plain").header("Authorization", "Bearer " + TestServer.token("refused-415"));
        assertError(send(request), 415, "unsupported_media_type");
    }

    /**
     * An unknown protocol version is answered in JSON-RPC since MCP 2026-07-28 (-32022 with the request's id, see
     * McpStatelessIT), so the body is read first: one over the limit is refused as such, unread beyond it.
     */
    @Test
    void an_oversized_mcp_message_gets_its_413_whatever_its_protocol_version() throws Exception {
        HttpRequest.Builder request = post("/mcp", "application/json")
                .header("Authorization", "Bearer " + TestServer.token("refused-413"))
                .header("MCP-Protocol-Version", "1999-01-01");
        assertError(send(request), 413, "payload_too_large");
    }

    @Test
    void the_connection_serves_the_next_request_after_the_refusals() throws Exception {
        assertError(send(post("/v1/tasks", "application/json")), 401, "unauthorized");
        HttpResponse<String> tasks = send(HttpRequest.newBuilder(uri("/v1/tasks"))
                .header("Authorization", "Bearer " + TestServer.token("refused-after"))
                .GET());
        assertThat(tasks.statusCode()).as(tasks.body()).isEqualTo(200);
        assertThat(tasks.version()).isEqualTo(HttpClient.Version.HTTP_2);
    }

    private HttpRequest.Builder post(String path, String contentType) {
        return HttpRequest.newBuilder(uri(path))
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(BODY));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void assertError(HttpResponse<String> response, int status, String code) throws Exception {
        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        JsonNode error = ApiClient.JSON.readTree(response.body()).path("error");
        assertThat(error.path("code").asText()).as(response.body()).isEqualTo(code);
        assertThat(error.path("requestId").asText()).isNotBlank();
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + t.server.port() + path);
    }
}
