package dev.baton.modules.pii;

import dev.baton.core.hook.HookContext;
import dev.baton.core.hook.HookResult;
import dev.baton.core.hook.Module;
import dev.baton.core.hook.ModuleDescriptor;
import dev.baton.core.hook.OutputFilter;
import java.util.Objects;

/**
 * The {@code pii-redaction} module: replaces e-mail addresses, phone numbers, card numbers, SSNs and IBANs with
 * typed placeholders ({@code [EMAIL]}, {@code [CARD]}…) in the user message before the model sees it (before_ai)
 * and in the answer as it streams (an output filter, so data split across chunks is caught too). Each redaction
 * leaves an audit note (the original, the kinds matched) and a {@code pii_detected} extraction (location, kinds,
 * counts). It never logs content.
 *
 * <p>With {@code afterAi} it also checks the whole answer after the model (the pipeline then shows the answer only
 * once it is complete, so streaming stops being incremental); the output filter alone already covers every
 * streamed character.
 */
public final class PiiRedactionModule implements Module {

    /** The id agents name the module by. */
    public static final String ID = "pii-redaction";

    /** Safety band: runs before content modifiers and guards that should see redacted text. */
    static final int DEFAULT_PRIORITY = 5;

    private final ModuleDescriptor descriptor;
    private final PiiDetector detector;
    private final boolean filterOutput;

    PiiRedactionModule(ModuleDescriptor descriptor, PiiDetector detector, boolean filterOutput) {
        this.descriptor = Objects.requireNonNull(descriptor, "descriptor");
        this.detector = Objects.requireNonNull(detector, "detector");
        this.filterOutput = filterOutput;
    }

    @Override
    public ModuleDescriptor descriptor() {
        return descriptor;
    }

    @Override
    public HookResult handle(HookContext context) {
        return switch (context.request().hook()) {
            case BEFORE_AI -> redact(context.conversation().currentMessage(), PiiFindings.Location.USER_MESSAGE);
            case AFTER_AI -> redact(context.response(), PiiFindings.Location.RESPONSE);
            case SESSION_START, SESSION_END, ON_MESSAGE -> HookResult.proceed();
        };
    }

    @Override
    public OutputFilter outputFilter(HookContext context) {
        return filterOutput ? new PiiOutputFilter(detector) : OutputFilter.NONE;
    }

    private HookResult redact(String text, PiiFindings.Location location) {
        if (text == null || text.isEmpty()) {
            return HookResult.proceed();
        }
        Redaction r = detector.redact(text);
        if (!r.found()) {
            return HookResult.proceed();
        }
        HookResult.Continue replaced = location == PiiFindings.Location.USER_MESSAGE
                ? HookResult.replaceUserMessage(r.text())
                : HookResult.replaceResponse(r.text());
        return PiiFindings.record(
                replaced, location, r.matches().stream().map(PiiMatch::type).toList(), text);
    }
}
