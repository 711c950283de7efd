package dev.baton.modules.pii;

import dev.baton.core.hook.HookResult;
import dev.baton.core.hook.OutputFilter;

/** Redacts a turn's streamed answer as it streams (see {@link StreamingRedactor} for how much it holds back). */
final class PiiOutputFilter implements OutputFilter {

    private final StreamingRedactor redactor;

    PiiOutputFilter(PiiDetector detector) {
        this.redactor = new StreamingRedactor(detector);
    }

    @Override
    public String onChunk(String chunk) {
        return redactor.accept(chunk);
    }

    @Override
    public String flush() {
        return redactor.finish();
    }

    @Override
    public HookResult.Continue result() {
        var found = redactor.found();
        return found.isEmpty()
                ? HookResult.proceed()
                : PiiFindings.record(HookResult.proceed(), PiiFindings.Location.RESPONSE, found, null);
    }
}
