package dev.baton.eval;

import java.math.BigDecimal;
import java.util.List;

/**
 * One turn of one run, as the report shows it.
 *
 * @param tools the tools that ran, in order
 * @param approvalsRequired the tools the turn stopped for, awaiting approval
 * @param error the error code and message; null when the turn ended without one
 */
public record TurnResult(
        String user,
        String answer,
        List<String> tools,
        List<String> approvalsRequired,
        int modelCalls,
        long latencyMs,
        long inputTokens,
        long outputTokens,
        BigDecimal costUsd,
        String error,
        boolean passed,
        List<CheckResult> checks) {

    public TurnResult {
        tools = List.copyOf(tools);
        approvalsRequired = List.copyOf(approvalsRequired);
        checks = List.copyOf(checks);
    }

    static TurnResult of(TurnObservation turn, List<CheckResult> checks) {
        return new TurnResult(
                turn.message(),
                turn.answer(),
                turn.toolNames(),
                turn.approvalsRequired(),
                turn.modelCalls(),
                turn.latencyMs(),
                turn.inputTokens(),
                turn.outputTokens(),
                turn.costUsd(),
                turn.error(),
                checks.stream().allMatch(CheckResult::passed),
                checks);
    }
}
