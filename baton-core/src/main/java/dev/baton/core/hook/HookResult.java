package dev.baton.core.hook;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a module decided: {@link Continue} (possibly with modifications) or {@link Block}. Both may carry
 * extractions (structured data for the {@code extractions} table) and audit notes (for {@code message_audit}).
 *
 * <p>Results compose in priority order: a module sees the user message (before_ai) or answer (after_ai) as the
 * previous module left it; guidance, extractions and audit notes accumulate; the first {@link Block} ends the
 * before_ai run (later modules are not called).
 */
public sealed interface HookResult {

    List<Extraction> extractions();

    List<Audit> audit();

    /**
     * Go on, optionally with changes.
     *
     * @param userMessage the user message to store and send instead (before_ai); null to keep it
     * @param response the answer to store and report instead (after_ai); null to keep it
     * @param guidance paragraphs for the system prompt's {@code ## Additional Guidance} (before_ai)
     */
    record Continue(
            String userMessage, String response, List<String> guidance, List<Extraction> extractions, List<Audit> audit)
            implements HookResult {
        public Continue {
            guidance = List.copyOf(guidance == null ? List.of() : guidance);
            extractions = List.copyOf(extractions == null ? List.of() : extractions);
            audit = List.copyOf(audit == null ? List.of() : audit);
        }

        public Continue withExtraction(String type, JsonNode data) {
            return new Continue(userMessage, response, guidance, plus(extractions, new Extraction(type, data)), audit);
        }

        /** Adds an audit note; the original content is what this module saw. */
        public Continue withAudit(String reason, List<String> patternsMatched) {
            return withAudit(new Audit(null, reason, patternsMatched));
        }

        public Continue withAudit(Audit note) {
            return new Continue(userMessage, response, guidance, extractions, plus(audit, note));
        }

        public Continue withGuidance(String paragraph) {
            return new Continue(userMessage, response, plus(guidance, paragraph), extractions, audit);
        }
    }

    /**
     * Stop the turn: the user message is stored as {@code [blocked]} (the original goes to the audit trail), the
     * model is never called, and {@code directResponse} is what the user is told.
     *
     * @param reason why (stored in the audit trail, never shown to the user)
     * @param directResponse the assistant's answer instead of the model's
     * @param patternsMatched what matched, for the audit trail
     */
    record Block(
            String reason,
            String directResponse,
            List<String> patternsMatched,
            List<Extraction> extractions,
            List<Audit> audit)
            implements HookResult {
        public Block {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(directResponse, "directResponse");
            if (directResponse.isBlank()) {
                throw new IllegalArgumentException("a block needs a direct response");
            }
            patternsMatched = List.copyOf(patternsMatched == null ? List.of() : patternsMatched);
            extractions = List.copyOf(extractions == null ? List.of() : extractions);
            audit = List.copyOf(audit == null ? List.of() : audit);
        }

        public Block withExtraction(String type, JsonNode data) {
            return new Block(
                    reason, directResponse, patternsMatched, plus(extractions, new Extraction(type, data)), audit);
        }
    }

    /**
     * Structured data a module extracted (a {@code pii_detected} finding, a topic, a sentiment…).
     *
     * @param type what kind of extraction, e.g. {@code pii_detected}
     */
    record Extraction(String type, JsonNode data) {
        public Extraction {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(data, "data");
            if (type.isBlank()) {
                throw new IllegalArgumentException("extraction type is blank");
            }
        }
    }

    /**
     * A note for the audit trail ({@code message_audit}), attached to the message the hook concerned.
     *
     * @param originalContent the content before this module changed it; null lets the pipeline fill in what the
     *     module was given
     * @param reason why it was changed or blocked, e.g. "pii redacted"
     * @param patternsMatched names of what matched (pattern names, never the matched text)
     */
    record Audit(String originalContent, String reason, List<String> patternsMatched) {
        public Audit {
            Objects.requireNonNull(reason, "reason");
            patternsMatched = List.copyOf(patternsMatched == null ? List.of() : patternsMatched);
        }

        Audit withOriginal(String original) {
            return originalContent != null ? this : new Audit(original, reason, patternsMatched);
        }
    }

    Continue PROCEED = new Continue(null, null, List.of(), List.of(), List.of());

    /** Go on unchanged. */
    static Continue proceed() {
        return PROCEED;
    }

    /** Store and send {@code message} instead of the user's (before_ai). Add an audit note with withAudit. */
    static Continue replaceUserMessage(String message) {
        return new Continue(Objects.requireNonNull(message, "message"), null, List.of(), List.of(), List.of());
    }

    /** Store and report {@code answer} instead of the model's (after_ai). */
    static Continue replaceResponse(String answer) {
        return new Continue(null, Objects.requireNonNull(answer, "answer"), List.of(), List.of(), List.of());
    }

    /** Add a paragraph to the system prompt's {@code ## Additional Guidance} (before_ai). */
    static Continue guidance(String paragraph) {
        return proceed().withGuidance(paragraph);
    }

    /** Block the turn (before_ai) and answer with {@code directResponse}. */
    static Block block(String reason, String directResponse, List<String> patternsMatched) {
        return new Block(reason, directResponse, patternsMatched, List.of(), List.of());
    }

    private static <T> List<T> plus(List<T> list, T item) {
        List<T> copy = new ArrayList<>(list);
        copy.add(Objects.requireNonNull(item));
        return copy;
    }
}
