package dev.baton.eval;

import java.util.Objects;

/**
 * One expectation checked against one turn.
 *
 * @param expectation the expectation as the suite states it ("answer contains 'putting that together'")
 * @param detail why it failed (what was seen instead); empty when it passed
 */
public record CheckResult(String expectation, boolean passed, String detail) {
    public CheckResult {
        Objects.requireNonNull(expectation, "expectation");
        detail = detail == null ? "" : detail;
    }

    static CheckResult pass(String expectation) {
        return new CheckResult(expectation, true, "");
    }

    static CheckResult fail(String expectation, String detail) {
        return new CheckResult(expectation, false, detail);
    }
}
