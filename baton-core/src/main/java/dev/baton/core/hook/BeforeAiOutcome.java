package dev.baton.core.hook;

import java.util.List;
import java.util.Objects;

/** What the before_ai modules decided together: go on (possibly with a changed message) or block. */
public sealed interface BeforeAiOutcome {

    /** Audit notes for the user message, in module order. */
    List<ModuleAudit> audit();

    /** Extractions about the user message, in module order. */
    List<ModuleExtraction> extractions();

    /**
     * Call the model.
     *
     * @param userMessage the message to store and send (as the last modifier left it)
     * @param modified whether any module changed it (the original is then in {@code audit})
     * @param guidance paragraphs for {@code ## Additional Guidance}, in module order
     */
    record Proceed(
            String userMessage,
            boolean modified,
            List<String> guidance,
            List<ModuleAudit> audit,
            List<ModuleExtraction> extractions)
            implements BeforeAiOutcome {
        public Proceed {
            Objects.requireNonNull(userMessage, "userMessage");
            guidance = List.copyOf(guidance);
            audit = List.copyOf(audit);
            extractions = List.copyOf(extractions);
        }
    }

    /**
     * Do not call the model: store the user message as {@code [blocked]} and answer with {@code response}.
     *
     * @param module the module that blocked (or failed closed)
     * @param audit every audit note, ending with the block's, whose original is the user's message as sent
     */
    record Blocked(
            String module, String reason, String response, List<ModuleAudit> audit, List<ModuleExtraction> extractions)
            implements BeforeAiOutcome {
        public Blocked {
            Objects.requireNonNull(module, "module");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(response, "response");
            audit = List.copyOf(audit);
            extractions = List.copyOf(extractions);
        }
    }
}
