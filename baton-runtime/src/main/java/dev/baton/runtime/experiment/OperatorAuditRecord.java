package dev.baton.runtime.experiment;

import java.time.Instant;
import java.util.Objects;

/**
 * One entry of the operators' audit trail (append-only): who changed what about an experiment or a feature flag.
 *
 * @param subject {@code experiment:<id>} or {@code flag:<name>}
 * @param action {@code created}, {@code weights_changed}, {@code rolled_back}, {@code eval_recorded},
 *     {@code flag_set} or {@code flag_cleared}
 * @param actor the user id of the administrator, or {@code system} for an automatic rollback
 * @param detail JSON text: what changed (old and new weights, the trigger that fired, ...)
 */
public record OperatorAuditRecord(String id, String subject, String action, String actor, String detail, Instant at) {
    public static final String SYSTEM = "system";

    public OperatorAuditRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(at, "at");
    }

    public static String experiment(String id) {
        return "experiment:" + id;
    }

    public static String flag(String name) {
        return "flag:" + name;
    }
}
