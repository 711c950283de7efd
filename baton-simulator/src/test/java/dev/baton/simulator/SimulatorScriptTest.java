package dev.baton.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SimulatorScriptTest {

    @Test
    void the_first_matching_rule_answers() {
        var script = SimulatorScript.builder()
                .whenUserSays("hello", Reply.text("first"))
                .whenUserSays("hello", Reply.text("second"))
                .build();

        var answer = script.answer(ChatBody.create().user("Well HELLO there").recorded());

        assertThat(answer.reply()).isEqualTo(Reply.text("first"));
    }

    @Test
    void without_a_match_the_fallback_answers() {
        var script = SimulatorScript.builder()
                .whenUserSays("hello", Reply.text("hi"))
                .fallback("no idea")
                .build();

        var answer = script.answer(ChatBody.create().user("goodbye").recorded());

        assertThat(answer.ruleName()).isEqualTo("fallback");
        assertThat(answer.reply()).isEqualTo(Reply.text("no idea"));
    }

    @Test
    void regex_groups_are_substituted_into_text_and_dollar_dollar_is_a_dollar() {
        var script = SimulatorScript.builder()
                .whenUserMatches("buy (\\d+) (\\w+)", Reply.text("$2 x$1 for $$5 (${1})"))
                .build();

        var answer = script.answer(ChatBody.create().user("please BUY 3 apples").recorded());

        assertThat(answer.reply()).isEqualTo(Reply.text("apples x3 for $5 (3)"));
    }

    @Test
    void user_rules_do_not_fire_when_the_last_message_is_a_tool_result() {
        var script = SimulatorScript.builder()
                .whenUserSays("weather", Reply.toolCall("get_weather", "{}"))
                .whenToolResult("get_weather", Reply.text("sunny"))
                .build();
        var request = ChatBody.create()
                .user("weather?")
                .assistantCalls("call_9", "get_weather", "{}")
                .toolResult("call_9", "{\"sky\":\"clear\"}")
                .recorded();

        assertThat(script.answer(request).reply()).isEqualTo(Reply.text("sunny"));
    }

    @Test
    void tool_result_rules_check_the_tool_name_and_content() {
        var script = SimulatorScript.builder()
                .when(Condition.ToolResult.of("add_task", "\"title\":\"([^\"]+)\""), Reply.text("added $1"))
                .when(Condition.ToolResult.any(), Reply.text("some tool"))
                .build();
        var addResult = ChatBody.create()
                .user("add milk")
                .assistantCalls("c1", "add_task", "{}")
                .toolResult("c1", "{\"task\":{\"title\":\"milk\"}}")
                .recorded();
        var otherResult = ChatBody.create()
                .user("list")
                .assistantCalls("c2", "list_tasks", "{}")
                .toolResult("c2", "{\"tasks\":[]}")
                .recorded();

        assertThat(script.answer(addResult).reply()).isEqualTo(Reply.text("added milk"));
        assertThat(script.answer(otherResult).reply()).isEqualTo(Reply.text("some tool"));
        assertThat(otherResult.lastToolResult()).contains(new ToolResultMessage("c2", "list_tasks", "{\"tasks\":[]}"));
    }

    @Test
    void a_java_responder_can_decline_and_let_the_next_rule_answer() {
        var script = SimulatorScript.builder()
                .responder(
                        "long messages",
                        request -> request.lastUserMessage().length() > 10
                                ? Optional.of(Reply.text("long"))
                                : Optional.empty())
                .always(Reply.text("short"))
                .build();

        assertThat(script.answer(ChatBody.create().user("a very long message").recorded())
                        .reply())
                .isEqualTo(Reply.text("long"));
        assertThat(script.answer(ChatBody.create().user("tiny").recorded()).reply())
                .isEqualTo(Reply.text("short"));
    }

    @Test
    void rule_pacing_overrides_the_script_pacing() {
        var slow = Pacing.INSTANT.withTokensPerSecond(5);
        var script = SimulatorScript.builder()
                .firstTokenLatency(Duration.ofMillis(20))
                .rule(Rule.when(new Condition.UserContains("slow"), Reply.text("s"))
                        .withPacing(slow))
                .build();

        assertThat(script.answer(ChatBody.create().user("slow please").recorded())
                        .pacing())
                .isEqualTo(slow);
        assertThat(script.answer(ChatBody.create().user("fast").recorded())
                        .pacing()
                        .firstTokenLatency())
                .isEqualTo(Duration.ofMillis(20));
    }

    @Test
    void usage_override_and_fault_partials_survive_substitution() {
        var script = SimulatorScript.builder()
                .whenUserMatches("echo (\\w+)", Reply.text("said $1").withUsage(10, null))
                .whenUserMatches("cut (\\w+)", new Reply.Failure(Fault.disconnectAfter(1), Reply.text("partial $1")))
                .build();

        assertThat(script.answer(ChatBody.create().user("echo hi").recorded()).reply())
                .isEqualTo(new Reply.Text("said hi", new Reply.UsageOverride(10, null)));
        assertThat(script.answer(ChatBody.create().user("cut here").recorded()).reply())
                .isEqualTo(new Reply.Failure(Fault.disconnectAfter(1), Reply.text("partial here")));
    }

    @Test
    void the_last_user_message_reads_text_parts_of_content_arrays() throws Exception {
        var body = ChatBody.JSON.readTree("""
                {"messages":[{"role":"user","content":[{"type":"text","text":"part one, "},{"type":"text","text":"part two"}]}]}""");
        var request = new RecordedRequest("POST", "/v1/chat/completions", java.util.Map.of(), body, body.toString());

        assertThat(request.lastUserMessage()).isEqualTo("part one, part two");
        assertThat(request.stream()).isFalse();
        assertThat(request.tools().isMissingNode()).isTrue();
    }
}
