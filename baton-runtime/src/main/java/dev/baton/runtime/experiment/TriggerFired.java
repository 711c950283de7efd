package dev.baton.runtime.experiment;

/**
 * A rollback trigger that fired for an arm.
 *
 * @param trigger {@code p95_latency}, {@code cost_per_conversation}, {@code eval_pass_rate} or {@code error_rate}
 * @param observed what the arm showed, as text (e.g. {@code 1840ms}, {@code 0.031})
 * @param limit the configured threshold, as text
 */
public record TriggerFired(String trigger, String observed, String limit) {
    public String describe() {
        return trigger + " " + observed + " breaks the limit " + limit;
    }
}
