package dev.baton.eval;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One thing a scenario expects of a user turn. Each is checked on its own against the {@link TurnObservation}, so a
 * report can say exactly which expectation a turn missed and what it saw instead.
 */
public sealed interface Expectation {

    /** The expectation as the report states it. */
    String describe();

    /** Checks {@code turn}; the judge is asked only by a {@link Rubric}. */
    CheckResult check(TurnObservation turn, Judge judge);

    /** The tool was called at least once. */
    record ToolCalled(String tool) implements Expectation {
        public ToolCalled {
            Objects.requireNonNull(tool, "tool");
        }

        @Override
        public String describe() {
            return "calls " + tool;
        }

        @Override
        public CheckResult check(TurnObservation turn, Judge judge) {
            return turn.toolNames().contains(tool)
                    ? CheckResult.pass(describe())
                    : CheckResult.fail(describe(), "tools called: " + calledList(turn));
        }
    }

    /** The model did not ask for the tool: it neither ran nor waits for approval. */
    record ToolNotCalled(String tool) implements Expectation {
        public ToolNotCalled {
            Objects.requireNonNull(tool, "tool");
        }

        @Override
        public String describe() {
            return "does not call " + tool;
        }

        @Override
        public CheckResult check(TurnObservation turn, Judge judge) {
            return turn.toolNames().contains(tool) || turn.approvalsRequired().contains(tool)
                    ? CheckResult.fail(describe(), "tools called: " + calledList(turn))
                    : CheckResult.pass(describe());
        }
    }

    /** At least one call of the tool had matching arguments. */
    record ToolCalledWith(String tool, ArgumentMatch arguments) implements Expectation {
        public ToolCalledWith {
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(arguments, "arguments");
        }

        @Override
        public String describe() {
            return "calls " + tool + " with " + arguments;
        }

        @Override
        public CheckResult check(TurnObservation turn, Judge judge) {
            List<ObservedToolCall> calls =
                    turn.toolCalls().stream().filter(c -> c.name().equals(tool)).toList();
            if (calls.isEmpty()) return CheckResult.fail(describe(), "tools called: " + calledList(turn));
            String firstMismatch = null;
            for (ObservedToolCall call : calls) {
                var mismatch = arguments.mismatch(call.arguments());
                if (mismatch.isEmpty()) return CheckResult.pass(describe());
                if (firstMismatch == null) firstMismatch = mismatch.get();
            }
            return CheckResult.fail(describe(), firstMismatch);
        }
    }

    /** The turn stopped to ask the user's approval of a call of the tool (it did not run). */
    record ApprovalRequired(String tool) implements Expectation {
        public ApprovalRequired {
            Objects.requireNonNull(tool, "tool");
        }

        @Override
        public String describe() {
            return "waits for approval of " + tool;
        }

        @Override
        public CheckResult check(TurnObservation turn, Judge judge) {
            return turn.approvalsRequired().contains(tool)
                    ? CheckResult.pass(describe())
                    : CheckResult.fail(
                            describe(),
                            turn.approvalsRequired().isEmpty()
                                    ? "no approval was asked for"
                                    : "approval asked for " + turn.approvalsRequired());
        }
    }

    /** The answer contains the text, in any case. */
    record AnswerContains(String text) implements Expectation {
        public AnswerContains {
            Objects.requireNonNull(text, "text");
        }

        @Override
        public String describe() {
            return "answer contains '" + text + "'";
        }

        @Override
        public CheckResult check(TurnObservation turn, Judge judge) {
            return lower(turn.answer()).contains(lower(text))
                    ? CheckResult.pass(describe())
                    : CheckResult.fail(describe(), "answer: " + quoted(turn.answer()));
        }
    }

    /** The answer does not contain the text, in any case. */
    record AnswerNotContains(String text) implements Expectation {
        public AnswerNotContains {
            Objects.requireNonNull(text, "text");
        }

        @Override
        public String describe() {
            return "answer does not contain '" + text + "'";
        }

        @Override
        public CheckResult check(TurnObservation turn, Judge judge) {
            return lower(turn.answer()).contains(lower(text))
                    ? CheckResult.fail(describe(), "answer: " + quoted(turn.answer()))
                    : CheckResult.pass(describe());
        }
    }

    /** Part of the answer matches the regular expression. */
    record AnswerMatches(Pattern pattern) implements Expectation {
        public AnswerMatches {
            Objects.requireNonNull(pattern, "pattern");
        }

        @Override
        public String describe() {
            return "answer matches /" + pattern.pattern() + "/";
        }

        @Override
        public CheckResult check(TurnObservation turn, Judge judge) {
            return pattern.matcher(turn.answer()).find()
                    ? CheckResult.pass(describe())
                    : CheckResult.fail(describe(), "answer: " + quoted(turn.answer()));
        }
    }

    /** The answer has at most this many characters. */
    record AnswerMaxLength(int maxChars) implements Expectation {
        @Override
        public String describe() {
            return "answer is at most " + maxChars + " characters";
        }

        @Override
        public CheckResult check(TurnObservation turn, Judge judge) {
            int length = turn.answer().length();
            return length <= maxChars
                    ? CheckResult.pass(describe())
                    : CheckResult.fail(describe(), "answer has " + length + " characters");
        }
    }

    /** The turn ended without an error or a refusal (a pause for approval is not an error). */
    record NoError() implements Expectation {
        @Override
        public String describe() {
            return "ends without error";
        }

        @Override
        public CheckResult check(TurnObservation turn, Judge judge) {
            return turn.error() == null
                    ? CheckResult.pass(describe())
                    : CheckResult.fail(describe(), "error " + turn.error());
        }
    }

    /** The model was asked at most this many times. */
    record MaxIterations(int max) implements Expectation {
        @Override
        public String describe() {
            return "at most " + max + " model call" + (max == 1 ? "" : "s");
        }

        @Override
        public CheckResult check(TurnObservation turn, Judge judge) {
            return turn.modelCalls() <= max
                    ? CheckResult.pass(describe())
                    : CheckResult.fail(describe(), turn.modelCalls() + " model calls");
        }
    }

    /** The turn took at most this long (a real model's latency; on the simulator it measures Baton alone). */
    record MaxLatency(long maxMs) implements Expectation {
        @Override
        public String describe() {
            return "answers within " + maxMs + " ms";
        }

        @Override
        public CheckResult check(TurnObservation turn, Judge judge) {
            return turn.latencyMs() <= maxMs
                    ? CheckResult.pass(describe())
                    : CheckResult.fail(describe(), "took " + turn.latencyMs() + " ms");
        }
    }

    /** A judge model reads the turn and says whether the answer meets the rubric (LLM-as-judge). */
    record Rubric(String rubric) implements Expectation {
        public Rubric {
            Objects.requireNonNull(rubric, "rubric");
        }

        @Override
        public String describe() {
            return "judge: " + rubric;
        }

        @Override
        public CheckResult check(TurnObservation turn, Judge judge) {
            Judge.Verdict verdict = judge.judge(rubric, turn);
            return verdict.passed() ? CheckResult.pass(describe()) : CheckResult.fail(describe(), verdict.reason());
        }
    }

    private static String calledList(TurnObservation turn) {
        String ran = turn.toolNames().isEmpty() ? "none" : String.join(", ", turn.toolNames());
        return turn.approvalsRequired().isEmpty()
                ? ran
                : ran + "; waiting for approval: " + String.join(", ", turn.approvalsRequired());
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    private static String quoted(String answer) {
        String one = answer.replaceAll("\\s+", " ").strip();
        return "'" + (one.length() > 160 ? one.substring(0, 157) + "..." : one) + "'";
    }
}
