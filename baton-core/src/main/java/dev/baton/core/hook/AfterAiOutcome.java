package dev.baton.core.hook;

import java.util.List;
import java.util.Objects;

/**
 * What the after_ai modules made of the answer.
 *
 * @param response the answer to store and show
 * @param replaced whether a module replaced it (the original is then in {@code audit})
 * @param blocked whether a module blocked it (or failed closed): {@code response} is then the module's direct
 *     (or safe) response, reported to the client as a {@code blocked} event
 */
public record AfterAiOutcome(
        String response,
        boolean replaced,
        boolean blocked,
        List<ModuleAudit> audit,
        List<ModuleExtraction> extractions) {
    public AfterAiOutcome {
        Objects.requireNonNull(response, "response");
        audit = List.copyOf(audit);
        extractions = List.copyOf(extractions);
    }

    /** The answer unchanged. */
    public static AfterAiOutcome unchanged(String response) {
        return new AfterAiOutcome(response, false, false, List.of(), List.of());
    }
}
