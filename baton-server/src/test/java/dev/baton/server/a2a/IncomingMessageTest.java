package dev.baton.server.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.server.http.Json;
import org.junit.jupiter.api.Test;

class IncomingMessageTest {

    static JsonNode params(String messageJson) throws Exception {
        return Json.MAPPER.readTree("{\"message\":" + messageJson + "}");
    }

    static IncomingMessage text(String text) throws Exception {
        return IncomingMessage.from(params("{\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"" + text + "\"}]}"));
    }

    @Test
    void text_parts_are_joined_and_context_and_task_are_read() throws Exception {
        IncomingMessage m = IncomingMessage.from(
                params(
                        "{\"role\":\"ROLE_USER\",\"contextId\":\"c1\",\"taskId\":\"t1\",\"parts\":[{\"text\":\"a\"},{\"text\":\"b\"}]}"));

        assertThat(m.text()).isEqualTo("a\nb");
        assertThat(m.contextId()).isEqualTo("c1");
        assertThat(m.taskId()).isEqualTo("t1");
    }

    @Test
    void a_clear_yes_or_no_answers_and_anything_else_does_not() throws Exception {
        assertThat(text("Yes").approval()).contains(true);
        assertThat(text("go ahead!").approval()).contains(true);
        assertThat(text("no.").approval()).contains(false);
        assertThat(text("Deny").approval()).contains(false);
        assertThat(text("OK, go ahead").approval()).isEmpty();
        assertThat(text("yes but not that one").approval()).isEmpty();
        assertThat(text("maybe").approval()).isEmpty();
    }

    @Test
    void a_data_part_answers_with_its_comment() throws Exception {
        IncomingMessage m = IncomingMessage.from(params(
                "{\"role\":\"ROLE_USER\",\"parts\":[{\"data\":{\"approve\":false,\"comment\":\"not that one\"}}]}"));

        assertThat(m.approval()).contains(false);
        assertThat(m.comment()).isEqualTo("not that one");
    }

    @Test
    void a_message_without_user_role_parts_or_with_other_parts_is_invalid_params() {
        assertThatThrownBy(() -> IncomingMessage.from(params("{\"parts\":[{\"text\":\"hi\"}]}")))
                .isInstanceOfSatisfying(A2aError.class, e -> assertThat(e.code).isEqualTo(A2aError.INVALID_PARAMS));
        assertThatThrownBy(() -> IncomingMessage.from(params("{\"role\":\"ROLE_USER\",\"parts\":[]}")))
                .isInstanceOfSatisfying(A2aError.class, e -> assertThat(e.code).isEqualTo(A2aError.INVALID_PARAMS));
        assertThatThrownBy(() -> IncomingMessage.from(
                        params("{\"role\":\"ROLE_USER\",\"parts\":[{\"url\":\"https://example.com/x.png\"}]}")))
                .isInstanceOfSatisfying(A2aError.class, e -> assertThat(e.code).isEqualTo(A2aError.INVALID_PARAMS));
        assertThatThrownBy(() -> IncomingMessage.from(
                        params("{\"role\":\"ROLE_USER\",\"parts\":[{\"data\":{\"approve\":\"yes\"}}]}")))
                .isInstanceOfSatisfying(A2aError.class, e -> assertThat(e.code).isEqualTo(A2aError.INVALID_PARAMS));
    }
}
