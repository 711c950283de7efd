package dev.baton.core.hook;

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
}
