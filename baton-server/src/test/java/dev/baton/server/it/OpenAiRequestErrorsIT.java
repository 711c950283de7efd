package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.simulator.TaskAgentScript;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code POST /v1/chat/completions} refuses, each in OpenAI's error shape with the field at fault in
 * {@code param}, and who a request acts as and which session it may continue.
 */
class OpenAiRequestErrorsIT {
    private static final String PATH = "/v1/chat/completions";
    private static final String HI = "\"messages\":[{\"role\":\"user\",\"content\":\"list my tasks\"}]";

    @TempDir
    static Path dir;

    static TestServer t;

    @BeforeAll
    static void start() {
        t = TestServer.start(dir, TaskAgentScript.create());
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    @Test
    void client_side_tools_are_400_naming_tools() {
        assertRefused(
                "{\"model\":\"tasks\"," + HI
                        + ",\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"parameters\":{}}}]}",
                400,
                "tools");
        assertRefused("{\"model\":\"tasks\"," + HI + ",\"tool_choice\":\"auto\"}", 400, "tools");
        assertRefused("{\"model\":\"tasks\"," + HI + ",\"functions\":[{\"name\":\"f\"}]}", 400, "functions");
    }

    @Test
    void a_missing_or_malformed_model_is_400_and_an_unknown_one_is_404() {
        assertRefused("{" + HI + "}", 400, "model");
        assertRefused("{\"model\":42," + HI + "}", 400, "model");
        var unknown = assertRefused("{\"model\":\"no-such-agent\"," + HI + "}", 404, "model");
        assertThat(unknown.body().at("/error/code").asText()).isEqualTo("model_not_found");
    }

    @Test
    void missing_empty_or_unfinished_messages_are_400() {
        assertRefused("{\"model\":\"tasks\"}", 400, "messages");
        assertRefused("{\"model\":\"tasks\",\"messages\":[]}", 400, "messages");
        assertRefused("{\"model\":\"tasks\",\"messages\":\"hi\"}", 400, "messages");
        assertRefused(
                "{\"model\":\"tasks\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"},"
                        + "{\"role\":\"assistant\",\"content\":\"hello\"}]}",
                400,
                "messages");
        assertRefused(
                "{\"model\":\"tasks\",\"messages\":[{\"role\":\"system\",\"content\":\"be brief\"}]}", 400, "messages");
    }

    @Test
    void a_bad_message_is_400_naming_it() {
        assertRefused("{\"model\":\"tasks\",\"messages\":[{\"content\":\"hi\"}]}", 400, "messages[0].role");
        assertRefused(
                "{\"model\":\"tasks\",\"messages\":[{\"role\":\"tool\",\"content\":\"42\",\"tool_call_id\":\"c\"}]}",
                400,
                "messages[0].role");
        assertRefused("{\"model\":\"tasks\",\"messages\":[{\"role\":\"user\"}]}", 400, "messages[0].content");
        assertRefused(
                "{\"model\":\"tasks\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\","
                        + "\"image_url\":{\"url\":\"https://example.com/a.png\"}}]}]}",
                400,
                "messages[0].content");
    }

    @Test
    void unsupported_options_are_400_naming_them() {
        assertRefused("{\"model\":\"tasks\"," + HI + ",\"n\":2}", 400, "n");
        assertRefused("{\"model\":\"tasks\"," + HI + ",\"stream\":\"yes\"}", 400, "stream");
        assertRefused("{\"model\":\"tasks\"," + HI + ",\"stream_options\":true}", 400, "stream_options");
    }

    @Test
    void a_body_that_is_not_json_or_a_message_too_long_is_400_in_openais_shape() {
        var notJson = t.api.post(PATH, TestServer.token("oe-json"), "{nope");
        assertThat(notJson.status()).isEqualTo(400);
        assertThat(notJson.body().at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(notJson.body().at("/error/message").asText()).isNotBlank();
        var tooLong = t.api.post(
                PATH,
                TestServer.token("oe-long"),
                "{\"model\":\"tasks\",\"messages\":[{\"role\":\"user\",\"content\":\"" + "x".repeat(10_001) + "\"}]}");
        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(tooLong.body().at("/error/type").asText()).isEqualTo("invalid_request_error");
    }

    @Test
    void the_body_s_user_never_changes_who_acts() {
        String ann = TestServer.token("oe-ann");
        String bob = TestServer.token("oe-bob");

        var r = t.api.post(PATH, ann, "{\"model\":\"tasks\"," + HI + ",\"user\":\"oe-bob\"}");

        assertThat(r.status()).isEqualTo(200);
        String session = r.headers().firstValue("X-Conversation-ID").orElseThrow();
        assertThat(t.api.get("/v1/sessions/" + session, ann).status()).isEqualTo(200);
        assertThat(t.api.get("/v1/sessions/" + session, bob).status()).isEqualTo(404);
    }

    @Test
    void a_named_conversation_continues_for_its_owner_and_is_404_for_anyone_else() {
        String cat = TestServer.token("oe-cat");
        String dan = TestServer.token("oe-dan");
        var first = t.api.post(PATH, cat, "{\"model\":\"tasks\"," + HI + "}");
        String session = first.headers().firstValue("X-Conversation-ID").orElseThrow();

        var byMetadata = t.api.post(
                PATH, cat, "{\"model\":\"tasks\"," + HI + ",\"metadata\":{\"conversation_id\":\"" + session + "\"}}");
        assertThat(byMetadata.status()).isEqualTo(200);
        assertThat(byMetadata.headers().firstValue("X-Conversation-ID")).contains(session);

        var foreign = t.api.post(
                PATH,
                dan,
                ("{\"model\":\"tasks\"," + HI + "}").getBytes(StandardCharsets.UTF_8),
                Map.of("X-Conversation-ID", session));
        var unknown = t.api.post(
                PATH,
                dan,
                ("{\"model\":\"tasks\"," + HI + "}").getBytes(StandardCharsets.UTF_8),
                Map.of("X-Conversation-ID", "no-such-session"));
        assertThat(foreign.status()).isEqualTo(404);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(foreign.body()).isEqualTo(unknown.body());
        assertThat(foreign.body().at("/error/type").asText()).isEqualTo("not_found_error");
    }

    @Test
    void a_missing_token_is_401_in_openais_shape_on_every_door_path() {
        for (String path : new String[] {"/v1/models", PATH}) {
            var r = path.equals(PATH) ? t.api.post(path, null, "{}") : t.api.get(path, null);
            assertThat(r.status()).isEqualTo(401);
            assertThat(r.body().at("/error/type").asText()).isEqualTo("authentication_error");
            assertThat(r.body().at("/error").has("param")).isTrue();
        }
        assertThat(t.api.get("/v1/agents", null).body().at("/error/requestId").isMissingNode())
                .as("Baton's own API keeps its own shape")
                .isFalse();
    }

    private static ApiClient.Response assertRefused(String body, int status, String param) {
        var r = t.api.post(PATH, TestServer.token("oe-refused"), body);
        assertThat(r.status()).as(body).isEqualTo(status);
        assertThat(r.body().at("/error/param").asText()).as(body).isEqualTo(param);
        assertThat(r.body().at("/error/type").asText())
                .isEqualTo(status == 404 ? "not_found_error" : "invalid_request_error");
        assertThat(r.body().at("/error/message").asText()).isNotBlank();
        return r;
    }
}
