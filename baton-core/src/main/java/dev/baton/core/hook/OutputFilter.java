package dev.baton.core.hook;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Filters a turn's streamed answer before the client sees it. One instance per turn (from
 * {@link Module#outputFilter}), called from the turn's thread only, so it may keep state.
 *
 * <p>A filter may hold text back — a pattern can be split across two chunks ("alice@exa" + "mple.com") — and
 * release it with a later chunk or at {@link #flush()}. Whatever it returns is what the client sees and what is
 * stored: the stored answer always equals the streamed one. Filters of several modules are chained in priority
 * order, each seeing the previous one's output. Filters must be fast and must not block: they run inline, without
 * a timeout (a filter that throws is dropped for the rest of the turn — or, if its module fails closed, the rest
 * of the answer is withheld).
 *
 * <p>{@link RedactingOutputFilter} implements the hold-back for pattern-based redaction.
 *
 * <p>A turn may pause between two model calls (for a user's approval) and go on later, on another instance, with a
 * new filter from the same module. A filter that keeps state between chunks should then hand it over through
 * {@link #exportState()} and {@link #importState(JsonNode)}; a filter that exports nothing is brought up to date by
 * replaying, through {@link #onChunk} and {@link #flush}, all the text it was given before the pause (its output
 * is discarded). Stateless filters need neither.
 */
public interface OutputFilter {

    /** Passes everything through unchanged. */
    OutputFilter NONE = new OutputFilter() {
        @Override
        public String onChunk(String chunk) {
            return chunk;
        }

        @Override
        public String flush() {
            return "";
        }
    };

    /**
     * The next text delta from the model.
     *
     * @return the text that may be sent to the client now; empty to hold it all back
     */
    String onChunk(String chunk);

    /**
     * The model call's text is complete (before tools run, or at the end of the answer).
     *
     * @return everything still held back, filtered; empty when nothing is held
     */
    String flush();

    /**
     * What the filter did, once the answer is complete: audit notes (an {@link HookResult.Audit} without original
     * content gets the unfiltered answer) and extractions. Modifications in the result are ignored.
     */
    default HookResult.Continue result() {
        return HookResult.proceed();
    }

    /**
     * This filter's state as plain JSON, for a turn that pauses between model calls; null when it has none to hand
     * over (the default), in which case a resumed turn replays the filter's input instead. Called only after
     * {@link #flush()}, so held-back text has already been released, but a filter may include it anyway.
     */
    default JsonNode exportState() {
        return null;
    }

    /**
     * Takes over the state {@link #exportState()} gave, on a new filter of the same module for the same turn,
     * before it sees any text.
     *
     * @throws UnsupportedOperationException if this filter exports no state (the default)
     */
    default void importState(JsonNode state) {
        throw new UnsupportedOperationException(getClass().getName() + " exports no state to import");
    }
}
