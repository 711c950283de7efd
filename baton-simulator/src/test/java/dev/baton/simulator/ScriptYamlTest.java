package dev.baton.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ScriptYamlTest {

    private static SimulatorScript parse(String yaml) {
        return SimulatorScript.fromYaml(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void the_bundled_example_script_reads_every_kind_of_rule() {
        var script = SimulatorScript.fromYaml(getClass().getResourceAsStream("/weather-script.yaml"));

        assertThat(script.rules()).hasSize(5);
        assertThat(script.fallback()).isEqualTo("I only know about the weather.");
        assertThat(script.pacing()).isEqualTo(new Pacing(Duration.ZERO, 0, 2));

        var weather = script.answer(ChatBody.create().user("weather in Rome").recorded());
        assertThat(weather.ruleName()).isEqualTo("weather");
        assertThat(weather.reply())
                .isEqualTo(new Reply.ToolCalls(
                        "",
                        java.util.List.of(new Reply.ToolCall("get_weather", "{\"city\":\"Rome\"}")),
                        new Reply.UsageOverride(100, null)));

        var sky = script.answer(ChatBody.create()
                .user("weather in Rome")
                .assistantCalls("c1", "get_weather", "{}")
                .toolResult("c1", "{\"sky\":\"grey\"}")
                .recorded());
        assertThat(sky.reply()).isEqualTo(Reply.text("The sky is grey."));
        assertThat(sky.pacing()).isEqualTo(new Pacing(Duration.ZERO, 50, 2));

        assertThat(script.answer(ChatBody.create().user("are you overloaded").recorded())
                        .reply())
                .isEqualTo(Reply.fault(Fault.http503()));
        assertThat(script.answer(ChatBody.create().user("drop it").recorded()).reply())
                .isEqualTo(new Reply.Failure(Fault.disconnectAfter(2), Reply.text("this text is cut short")));
        assertThat(script.answer(ChatBody.create().user("anything").recorded()).reply())
                .isEqualTo(Reply.fault(Fault.rateLimited(3)));
    }

    @Test
    void every_fault_kind_and_duration_format_is_understood() {
        var script = parse("""
                pacing: {firstTokenLatency: 1.5s, tokensPerSecond: 20}
                rules:
                  - {when: {userContains: a}, reply: {fault: http_500}, pacing: {firstTokenLatency: PT2S}}
                  - {when: {userContains: b}, reply: {fault: hang}, pacing: {firstTokenLatency: 250ms}}
                  - {when: {userContains: c}, reply: {fault: {kind: malformed_chunk, afterChunks: 4}}}
                  - {when: {userContains: d}, reply: {fault: {kind: http_error, status: 502, type: bad_gateway, code: upstream}}}
                  - {when: {userContains: e}, reply: {fault: http_429}, pacing: {firstTokenLatency: 1m}}
                  - {when: {userContains: f}, reply: {fault: {kind: rate_limited, retryAfter: PT1M}}}
                """);

        assertThat(script.pacing().firstTokenLatency()).isEqualTo(Duration.ofMillis(1500));
        assertThat(script.rules().get(0).pacing().firstTokenLatency()).isEqualTo(Duration.ofSeconds(2));
        assertThat(script.rules().get(0).pacing().tokensPerSecond()).isEqualTo(20);
        assertThat(script.rules().get(1).pacing().firstTokenLatency()).isEqualTo(Duration.ofMillis(250));
        assertThat(script.rules().get(4).pacing().firstTokenLatency()).isEqualTo(Duration.ofMinutes(1));
        assertThat(script.answer(ChatBody.create().user("a").recorded()).reply())
                .isEqualTo(Reply.fault(Fault.http500()));
        assertThat(script.answer(ChatBody.create().user("b").recorded()).reply())
                .isEqualTo(Reply.fault(Fault.hang()));
        assertThat(script.answer(ChatBody.create().user("c").recorded()).reply())
                .isEqualTo(Reply.fault(Fault.malformedChunk(4)));
        assertThat(script.answer(ChatBody.create().user("d").recorded()).reply())
                .isEqualTo(Reply.fault(new Fault.HttpError(502, "bad_gateway", "upstream", null)));
        assertThat(script.answer(ChatBody.create().user("e").recorded()).reply())
                .isEqualTo(Reply.fault(Fault.rateLimited(1)));
        assertThat(script.answer(ChatBody.create().user("f").recorded()).reply())
                .isEqualTo(Reply.fault(Fault.rateLimited(60)));
    }

    @Test
    void a_duration_without_a_unit_is_an_error_that_names_the_setting() {
        assertThatThrownBy(() -> parse("rules: [{when: always, reply: hi, pacing: {firstTokenLatency: 250}}]"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid simulator script: 'rules[0].pacing.firstTokenLatency: 250' needs a unit,"
                        + " e.g. 250s or 250ms");
        assertThatThrownBy(() -> parse("pacing: {firstTokenLatency: -1s}"))
                .hasMessageContaining("must not be negative");
    }

    @Test
    void a_google_error_carries_its_status_name_reason_and_retry_delay() {
        var script = parse("""
                rules:
                  - when: {userContains: quota}
                    reply: {fault: {kind: google_error, status: 429, googleStatus: RESOURCE_EXHAUSTED, retryDelay: 1500ms}}
                  - when: {userContains: key}
                    reply: {fault: {kind: google_error, status: 400, googleStatus: INVALID_ARGUMENT, reason: API_KEY_INVALID, message: API key not valid.}}
                """);

        assertThat(script.answer(ChatBody.create().user("quota").recorded()).reply())
                .isEqualTo(Reply.fault(
                        new Fault.GoogleError(429, "RESOURCE_EXHAUSTED", null, null, Duration.ofMillis(1500))));
        assertThat(script.answer(ChatBody.create().user("key").recorded()).reply())
                .isEqualTo(Reply.fault(
                        new Fault.GoogleError(400, "INVALID_ARGUMENT", "API key not valid.", "API_KEY_INVALID", null)));
    }

    @Test
    void retry_after_is_whole_seconds_because_the_header_is() {
        assertThatThrownBy(() ->
                        parse("rules: [{when: always, reply: {fault: {kind: rate_limited, retryAfter: 1500ms}}}]"))
                .hasMessageContaining("'rules[0].reply.fault.retryAfter: 1500ms' must be whole seconds");
        assertThatThrownBy(() -> parse("rules: [{when: always, reply: {fault: {kind: rate_limited, retryAfter: 3}}}]"))
                .hasMessageContaining("needs a unit");
        assertThatThrownBy(() ->
                        parse("rules: [{when: always, reply: {fault: {kind: rate_limited, retryAfterSeconds: 3}}}]"))
                .hasMessageContaining("unknown key 'retryAfterSeconds'");
    }

    @Test
    void arguments_may_be_given_as_a_string_to_send_broken_json() {
        var script = parse("""
                rules:
                  - when: always
                    reply: {toolCalls: [{name: add_task, arguments: '{"title": '}]}
                """);

        assertThat(script.answer(ChatBody.create().user("x").recorded()).reply())
                .isEqualTo(Reply.toolCall("add_task", "{\"title\": "));
    }

    @Test
    void usage_can_report_cached_prompt_tokens_but_never_more_than_the_prompt() {
        var script =
                parse("rules: [{when: always, reply: {text: hi, usage: {promptTokens: 10, cachedPromptTokens: 8}}}]");

        assertThat(script.answer(ChatBody.create().user("x").recorded()).reply())
                .isEqualTo(new Reply.Text("hi", new Reply.UsageOverride(10, null, 8)));
        assertThatThrownBy(() -> parse(
                        "rules: [{when: always, reply: {text: hi, usage: {promptTokens: 5, cachedPromptTokens: 8}}}]"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rules[0].reply.usage");
    }

    @Test
    void a_misspelled_key_is_an_error_that_names_it() {
        assertThatThrownBy(() -> parse("""
                rules:
                  - when: {userContain: hello}
                    reply: hi
                """))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rules[0].when")
                .hasMessageContaining("userContain");
    }

    @Test
    void a_rule_needs_exactly_one_condition_and_a_known_fault() {
        assertThatThrownBy(() -> parse("rules: [{when: {userContains: a, userMatches: b}, reply: x}]"))
                .hasMessageContaining("exactly one");
        assertThatThrownBy(() -> parse("rules: [{when: always, reply: {fault: explode}}]"))
                .hasMessageContaining("unknown fault kind 'explode'");
        assertThatThrownBy(() -> parse("pacing: {firstTokenLatency: soon}")).hasMessageContaining("not a duration");
    }
}
