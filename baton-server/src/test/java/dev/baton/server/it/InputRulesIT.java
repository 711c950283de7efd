package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.simulator.SimulatorScript;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input gets a precise status and error body, and nothing is stored for it. */
class InputRulesIT {

    @TempDir
    static Path dir;

    static TestServer t;
    static String token;
    static String session;

    @BeforeAll
    static void start() {
        t = TestServer.start(dir, SimulatorScript.replyingWith("ok"));
        token = TestServer.token("ingrid");
        session = t.api.startSession(token, "tasks");
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    private ApiClient.Response sendRaw(byte[] body) {
        return t.api.post("/v1/sessions/" + session + "/messages", token, body, Map.of());
    }

    private ApiClient.Response send(String json) {
        return sendRaw(json.getBytes(StandardCharsets.UTF_8));
    }

    private static void assertError(ApiClient.Response r, int status, String code) {
        assertThat(r.status()).as(r.raw()).isEqualTo(status);
        assertThat(r.body().path("error").path("code").asText()).isEqualTo(code);
        assertThat(r.body().path("error").path("message").asText()).isNotBlank();
    }

    private int storedMessages() {
        return t.api.get("/v1/sessions/" + session, token)
                .body()
                .path("messageCount")
                .asInt();
    }

    @Test
    void a_message_over_10000_characters_is_400_and_nothing_is_stored() {
        int before = storedMessages();
        assertError(send("{\"content\":\"" + "a".repeat(10_001) + "\"}"), 400, "message_too_long");
        assertThat(storedMessages()).isEqualTo(before);
        // exactly 10,000 is fine
        assertThat(send("{\"content\":\"" + "a".repeat(10_000) + "\"}").status())
                .isEqualTo(200);
    }

    @Test
    void a_nul_byte_is_400() {
        int before = storedMessages();
        assertError(send("{\"content\":\"hello\\u0000world\"}"), 400, "invalid_content");
        assertError(sendRaw("{\"content\":\"hi\0\"}".getBytes(StandardCharsets.UTF_8)), 400, "invalid_content");
        assertThat(storedMessages()).isEqualTo(before);
    }

    @Test
    void control_characters_are_stripped_before_anything_sees_them() {
        int before = t.simulator.requests().size();
        var r = send("{\"content\":\"buy\\u0007 milk\\u001b\\tnow\\nplease\"}");
        assertThat(r.status()).isEqualTo(200);
        assertThat(t.simulator.requests().get(before).lastUserMessage()).isEqualTo("buy milk\tnow\nplease");
        var messages = t.api.get("/v1/sessions/" + session + "/messages?limit=2", token)
                .body()
                .path("messages");
        assertThat(messages.get(0).path("content").asText()).isEqualTo("buy milk\tnow\nplease");
    }

    @Test
    void a_message_of_only_control_characters_is_400() {
        assertError(send("{\"content\":\"\\u0007\\u0008\"}"), 400, "invalid_content");
    }

    @Test
    void malformed_json_is_400() {
        assertError(send("{\"content\": \"unterminated"), 400, "invalid_json");
        assertError(send("[1,2]"), 400, "invalid_json");
        assertError(send(""), 400, "invalid_json");
        assertError(send("{\"content\":\"a\",\"content\":\"b\"}"), 400, "invalid_json");
    }

    @Test
    void invalid_utf8_is_400() {
        byte[] bad = {'{', '"', 'c', 'o', 'n', 't', 'e', 'n', 't', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
        assertError(sendRaw(bad), 400, "invalid_encoding");
    }

    @Test
    void a_body_over_256_kib_is_413() {
        String huge = "{\"content\":\"" + "a".repeat(300 * 1024) + "\"}";
        assertError(send(huge), 413, "payload_too_large");
    }

    @Test
    void unknown_fields_and_wrong_types_are_400() {
        assertError(send("{\"content\":\"hi\",\"role\":\"system\"}"), 400, "unknown_field");
        assertError(send("{\"content\":42}"), 400, "invalid_request");
        assertError(send("{}"), 400, "invalid_request");
    }

    @Test
    void bad_task_values_are_422_and_bad_task_structure_is_400() {
        assertError(t.api.post("/v1/tasks", token, "{\"title\":\"" + "x".repeat(201) + "\"}"), 422, "invalid_value");
        assertError(t.api.post("/v1/tasks", token, "{\"title\":\"ok\",\"priority\":\"urgent\"}"), 422, "invalid_value");
        assertError(t.api.post("/v1/tasks", token, "{\"title\":\"ok\",\"owner\":\"bob\"}"), 400, "invalid_request");
    }

    @Test
    void an_unknown_agent_is_404_and_a_missing_agent_id_is_400() {
        assertError(t.api.post("/v1/sessions", token, "{\"agentId\":\"nope\"}"), 404, "not_found");
        assertError(t.api.post("/v1/sessions", token, "{}"), 400, "invalid_request");
    }

    @Test
    void a_completed_session_refuses_messages_with_409() {
        String s = t.api.startSession(token, "tasks");
        assertThat(t.api.post("/v1/sessions/" + s + "/complete", token, "{}")
                        .body()
                        .path("state")
                        .asText())
                .isEqualTo("completed");
        assertError(
                t.api.post("/v1/sessions/" + s + "/messages", token, "{\"content\":\"hi\"}"), 409, "session_completed");
    }

    @Test
    void an_unknown_endpoint_is_a_json_404() {
        assertError(t.api.get("/v1/nothing-here", token), 404, "not_found");
    }
}
