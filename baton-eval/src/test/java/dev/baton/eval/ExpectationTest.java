package dev.baton.eval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ExpectationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Judge NO_JUDGE = (rubric, turn) -> {
        throw new AssertionError("only a rubric asks the judge");
    };

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static TurnObservation turn(String answer, List<ObservedToolCall> calls, List<String> approvals) {
        return new TurnObservation(
                "add buy milk", answer, calls, approvals, calls.size() + 1, null, 120, 900, 40, BigDecimal.ZERO);
    }

    private static final TurnObservation ADDED = turn(
            "Done — I've added “Buy milk” to your tasks, due 2026-11-26.",
            List.of(new ObservedToolCall(
                    "add_task",
                    json(
                            "{\"title\":\"Buy milk\",\"dueDate\":\"2026-11-26\",\"priority\":2,\"tags\":{\"where\":\"shop\"}}"),
                    true,
                    null)),
            List.of());

    private static CheckResult check(Expectation e, TurnObservation turn) {
        return e.check(turn, NO_JUDGE);
    }

    @Test
    void tool_called_passes_when_the_tool_ran_and_fails_naming_what_ran_instead() {
        assertThat(check(new Expectation.ToolCalled("add_task"), ADDED).passed())
                .isTrue();

        CheckResult missed = check(new Expectation.ToolCalled("list_tasks"), ADDED);
        assertThat(missed.passed()).isFalse();
        assertThat(missed.detail()).isEqualTo("tools called: add_task");
    }

    @Test
    void tool_not_called_fails_when_the_tool_ran_or_waits_for_approval() {
        assertThat(check(new Expectation.ToolNotCalled("delete_task"), ADDED).passed())
                .isTrue();
        assertThat(check(new Expectation.ToolNotCalled("add_task"), ADDED).passed())
                .isFalse();

        TurnObservation paused = turn("", List.of(), List.of("delete_task"));
        CheckResult held = check(new Expectation.ToolNotCalled("delete_task"), paused);
        assertThat(held.passed()).isFalse();
        assertThat(held.detail()).contains("waiting for approval: delete_task");
    }

    @Test
    void arguments_match_as_a_subset_ignoring_case_and_comparing_numbers_by_value() {
        var equal = new ArgumentMatch(
                json("{\"title\":\"  buy MILK \",\"priority\":2.0,\"tags\":{\"where\":\"Shop\"}}"), Map.of());
        assertThat(check(new Expectation.ToolCalledWith("add_task", equal), ADDED)
                        .passed())
                .isTrue();

        var other = new ArgumentMatch(json("{\"title\":\"buy bread\"}"), Map.of());
        CheckResult wrong = check(new Expectation.ToolCalledWith("add_task", other), ADDED);
        assertThat(wrong.passed()).isFalse();
        assertThat(wrong.detail()).isEqualTo("title is \"Buy milk\", expected \"buy bread\"");

        var missingKey = new ArgumentMatch(json("{\"description\":\"x\"}"), Map.of());
        assertThat(check(new Expectation.ToolCalledWith("add_task", missingKey), ADDED)
                        .detail())
                .isEqualTo("description is missing");

        var nested = new ArgumentMatch(json("{\"tags\":{\"where\":\"home\"}}"), Map.of());
        assertThat(check(new Expectation.ToolCalledWith("add_task", nested), ADDED)
                        .detail())
                .isEqualTo("tags.where is \"shop\", expected \"home\"");
    }

    @Test
    void arguments_matching_a_regex_pass_and_fail_on_the_value_as_text() {
        var date = new ArgumentMatch(
                com.fasterxml.jackson.databind.node.MissingNode.getInstance(),
                Map.of("dueDate", Pattern.compile("^\\d{4}-\\d{2}-\\d{2}$")));
        assertThat(check(new Expectation.ToolCalledWith("add_task", date), ADDED)
                        .passed())
                .isTrue();

        var word = new ArgumentMatch(
                com.fasterxml.jackson.databind.node.MissingNode.getInstance(),
                Map.of("title", Pattern.compile("bread")));
        CheckResult wrong = check(new Expectation.ToolCalledWith("add_task", word), ADDED);
        assertThat(wrong.passed()).isFalse();
        assertThat(wrong.detail()).isEqualTo("title is 'Buy milk', not matching /bread/");
    }

    @Test
    void arguments_of_a_tool_that_never_ran_fail() {
        var any = new ArgumentMatch(json("{\"title\":\"Buy milk\"}"), Map.of());
        CheckResult result = check(new Expectation.ToolCalledWith("complete_task", any), ADDED);
        assertThat(result.passed()).isFalse();
        assertThat(result.detail()).isEqualTo("tools called: add_task");
    }

    @Test
    void approval_required_passes_only_for_the_held_tool() {
        TurnObservation paused = turn("", List.of(), List.of("delete_task"));
        assertThat(check(new Expectation.ApprovalRequired("delete_task"), paused)
                        .passed())
                .isTrue();
        assertThat(check(new Expectation.ApprovalRequired("complete_task"), paused)
                        .detail())
                .isEqualTo("approval asked for [delete_task]");
        assertThat(check(new Expectation.ApprovalRequired("delete_task"), ADDED).detail())
                .isEqualTo("no approval was asked for");
    }

    @Test
    void answer_contains_and_not_contains_ignore_case() {
        assertThat(check(new Expectation.AnswerContains("buy milk"), ADDED).passed())
                .isTrue();
        CheckResult missing = check(new Expectation.AnswerContains("bread"), ADDED);
        assertThat(missing.passed()).isFalse();
        assertThat(missing.detail()).startsWith("answer: 'Done — I've added");

        assertThat(check(new Expectation.AnswerNotContains("error"), ADDED).passed())
                .isTrue();
        assertThat(check(new Expectation.AnswerNotContains("BUY MILK"), ADDED).passed())
                .isFalse();
    }

    @Test
    void answer_matches_a_regex_anywhere_in_the_answer() {
        assertThat(check(new Expectation.AnswerMatches(Pattern.compile("due \\d{4}-")), ADDED)
                        .passed())
                .isTrue();
        assertThat(check(new Expectation.AnswerMatches(Pattern.compile("^due")), ADDED)
                        .passed())
                .isFalse();
    }

    @Test
    void answer_max_length_counts_characters() {
        int length = ADDED.answer().length();
        assertThat(check(new Expectation.AnswerMaxLength(length), ADDED).passed())
                .isTrue();
        CheckResult tooLong = check(new Expectation.AnswerMaxLength(length - 1), ADDED);
        assertThat(tooLong.passed()).isFalse();
        assertThat(tooLong.detail()).isEqualTo("answer has " + length + " characters");
    }

    @Test
    void no_error_fails_with_the_error_code_and_passes_a_pause_for_approval() {
        assertThat(check(new Expectation.NoError(), turn("", List.of(), List.of("delete_task")))
                        .passed())
                .isTrue();
        TurnObservation failed = new TurnObservation(
                "hi", "", List.of(), List.of(), 1, "model_unavailable: the model failed", 30, 0, 0, null);
        CheckResult result = check(new Expectation.NoError(), failed);
        assertThat(result.passed()).isFalse();
        assertThat(result.detail()).isEqualTo("error model_unavailable: the model failed");
    }

    @Test
    void max_iterations_and_max_latency_are_upper_bounds() {
        assertThat(check(new Expectation.MaxIterations(2), ADDED).passed()).isTrue();
        assertThat(check(new Expectation.MaxIterations(1), ADDED).detail()).isEqualTo("2 model calls");
        assertThat(check(new Expectation.MaxLatency(120), ADDED).passed()).isTrue();
        assertThat(check(new Expectation.MaxLatency(119), ADDED).detail()).isEqualTo("took 120 ms");
    }

    @Test
    void a_rubric_takes_the_judges_verdict() {
        Judge strict = (rubric, turn) -> new Judge.Verdict(false, "too casual for: " + rubric);
        Judge lenient = (rubric, turn) -> new Judge.Verdict(true, "fine");
        Expectation rubric = new Expectation.Rubric("formal tone");

        assertThat(rubric.check(ADDED, lenient).passed()).isTrue();
        CheckResult failed = rubric.check(ADDED, strict);
        assertThat(failed.passed()).isFalse();
        assertThat(failed.detail()).isEqualTo("too casual for: formal tone");
    }

    @Test
    void a_judge_reply_without_pass_or_fail_is_a_failure() {
        assertThat(ModelJudge.verdict("PASS: concise and polite"))
                .isEqualTo(new Judge.Verdict(true, "concise and polite"));
        assertThat(ModelJudge.verdict("fail - it is rude")).isEqualTo(new Judge.Verdict(false, "it is rude"));
        Judge.Verdict unsure = ModelJudge.verdict("It depends on the learner.");
        assertThat(unsure.passed()).isFalse();
        assertThat(unsure.reason()).startsWith("the judge gave no verdict");
    }
}
