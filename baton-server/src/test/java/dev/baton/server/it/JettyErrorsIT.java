package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.server.http.HttpSettings;
import dev.baton.simulator.SimulatorScript;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests so malformed that Jetty answers them before any route runs: they get the JSON error body like every other
 * error (a control character in a header once got Jetty's HTML 400 page).
 */
class JettyErrorsIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static TestServer t;

    @BeforeAll
    static void start() {
        t = TestServer.start(dir, SimulatorScript.replyingWith("hi"));
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    record RawResponse(int status, String head, String body) {
        JsonNode json() throws IOException {
            return JSON.readTree(body);
        }
    }

    private static RawResponse send(String raw) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", t.server.port()), 5_000);
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            out.write(raw.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            String all = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int split = all.indexOf("\r\n\r\n");
            String head = all.substring(0, split);
            String body = all.substring(split + 4);
            if (head.toLowerCase().contains("transfer-encoding: chunked")) body = unchunk(body);
            int status = Integer.parseInt(head.substring(9, 12));
            return new RawResponse(status, head, body);
        }
    }

    private static String unchunk(String chunked) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < chunked.length()) {
            int eol = chunked.indexOf("\r\n", i);
            int size = Integer.parseInt(chunked.substring(i, eol).trim(), 16);
            if (size == 0) break;
            out.append(chunked, eol + 2, eol + 2 + size);
            i = eol + 2 + size + 2;
        }
        return out.toString();
    }

    @Test
    void a_control_character_in_a_header_is_a_json_400() throws IOException {
        RawResponse r =
                send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Bad: a\u0001b\r\nConnection: close\r\n\r\n");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.head().toLowerCase()).contains("content-type: application/json");
        assertThat(r.json().path("error").path("code").asText()).isEqualTo("invalid_request");
        assertThat(r.json().path("error").path("message").asText()).startsWith("malformed HTTP request");
        assertThat(r.body()).doesNotContain("<html");
    }

    @Test
    void a_malformed_request_line_is_a_json_400() throws IOException {
        RawResponse r = send("THIS IS NOT HTTP\r\n\r\n");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.json().path("error").path("code").asText()).isEqualTo("invalid_request");
    }

    @Test
    void headers_too_large_are_a_json_431() throws IOException {
        RawResponse r = send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "a".repeat(20_000)
                + "\r\nConnection: close\r\n\r\n");
        assertThat(r.status()).isEqualTo(431);
        assertThat(r.json().path("error").path("code").asText()).isEqualTo("headers_too_large");
    }

    @Test
    void the_accept_queue_defaults_to_1024_and_is_configurable() throws Exception {
        assertThat(HttpSettings.from(JSON.readTree("{}")).acceptQueue()).isEqualTo(1024);
        assertThat(HttpSettings.from(JSON.readTree("{\"acceptQueue\": 4096}")).acceptQueue())
                .isEqualTo(4096);
    }
}
