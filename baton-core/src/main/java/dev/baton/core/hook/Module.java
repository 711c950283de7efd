package dev.baton.core.hook;

/**
 * A hook implementation: PII redaction, a topic guard, analytics, a webhook… (DESIGN §3, §4).
 *
 * <p>A module is created per agent configuration by its {@link ModuleFactory} and shared by every turn of that
 * agent, concurrently: keep per-turn state in the {@link OutputFilter} it returns, not in fields.
 *
 * <p>The pipeline calls {@link #handle} for each hook in {@link ModuleDescriptor#hooks()}, in priority order, with
 * the module's timeout; a module that throws or times out is skipped (logged and counted) unless it fails closed.
 * For {@link Hook#BEFORE_AI} it sees the user message as earlier modules left it; for {@link Hook#AFTER_AI} the
 * answer as earlier modules (and output filters) left it.
 *
 * <pre>{@code
 * public final class ShoutingGuard implements Module {
 *     public ModuleDescriptor descriptor() {
 *         return ModuleDescriptor.of("shouting-guard", Hook.BEFORE_AI).withPriority(30);
 *     }
 *     public HookResult handle(HookContext context) {
 *         String message = context.conversation().currentMessage();
 *         return message.equals(message.toUpperCase())
 *                 ? HookResult.replaceUserMessage(message.toLowerCase()).withAudit("shouting", List.of("caps"))
 *                 : HookResult.proceed();
 *     }
 * }
 * }</pre>
 */
public interface Module {

    /** Id, priority, timeout, failure policy and the hooks to be called for. Must be constant. */
    ModuleDescriptor descriptor();

    /**
     * Runs one hook; {@code context.request().hook()} says which. Results of asynchronous hooks (session:start,
     * session:end, chat:on_message) may carry extractions; their modifications and blocks are ignored.
     */
    HookResult handle(HookContext context);

    /**
     * A filter for this turn's streamed answer, called once per turn before the model streams; the returned filter
     * sees every text chunk before the client does. Return {@link OutputFilter#NONE} (the default) for none.
     */
    default OutputFilter outputFilter(HookContext context) {
        return OutputFilter.NONE;
    }
}
