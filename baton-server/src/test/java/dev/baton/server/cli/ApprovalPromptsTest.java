package dev.baton.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class ApprovalPromptsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode held(String summaryJson) throws Exception {
        return JSON.readTree("{\"type\":\"approval_required\",\"callId\":\"c1\",\"name\":\"delete_task\","
                + "\"arguments\":{\"taskId\":\"01a2\",\"confirmation\":true},\"summary\":" + summaryJson + "}");
    }

    @Test
    void a_summarised_call_is_asked_about_in_its_words_with_the_raw_arguments_on_their_own_line() throws Exception {
        JsonNode call = held("\"Delete the task 'buy milk' (due 2026-12-01)\"");

        assertThat(ApprovalPrompts.announcement(call))
                .isEqualTo("[needs approval] Delete the task 'buy milk' (due 2026-12-01)");
        assertThat(ApprovalPrompts.question(call))
                .isEqualTo("Allow: Delete the task 'buy milk' (due 2026-12-01)?\n"
                        + "  arguments: delete_task {\"taskId\":\"01a2\",\"confirmation\":true}\n"
                        + "[y/N] ");
    }

    @Test
    void a_call_without_a_summary_is_asked_about_by_name_and_arguments() throws Exception {
        for (String none : new String[] {"null", "\"  \""}) {
            JsonNode call = held(none);

            assertThat(ApprovalPrompts.announcement(call))
                    .isEqualTo("[needs approval] delete_task {\"taskId\":\"01a2\",\"confirmation\":true}");
            assertThat(ApprovalPrompts.question(call))
                    .isEqualTo("Allow delete_task {\"taskId\":\"01a2\",\"confirmation\":true}? [y/N] ");
        }
    }
}
