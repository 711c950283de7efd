package dev.baton.core.hook;

import dev.baton.core.trace.TurnTracing;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs one module on one hook with the module's timeout, and logs and counts a failure. */
final class ModuleCall {
    private static final Logger log = LoggerFactory.getLogger(ModuleCall.class);

    /** How a call went. */
    sealed interface Attempt {
        record Ok(HookResult result) implements Attempt {}

        record Failed(ModuleFailures.Kind kind) implements Attempt {}
    }

    private ModuleCall() {}

    /**
     * Calls {@code module.handle(context)} on a virtual thread of its own and waits at most the module's timeout.
     * A module that overruns is interrupted and left behind; its late result is ignored.
     */
    static Attempt run(Module module, HookContext context, ModuleFailures failures, ModuleActivity activity) {
        long started = System.nanoTime();
        try {
            return run(module, context, failures);
        } finally {
            activity.ran(module.descriptor().id(), context.request().hook(), System.nanoTime() - started);
        }
    }

    private static Attempt run(Module module, HookContext context, ModuleFailures failures) {
        ModuleDescriptor d = module.descriptor();
        CompletableFuture<HookResult> result = new CompletableFuture<>();
        Thread worker = Thread.ofVirtual().name("module-" + d.id()).start(TurnTracing.propagate(() -> {
            try {
                result.complete(Objects.requireNonNull(module.handle(context), "the module returned null"));
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }));
        try {
            return new Attempt.Ok(result.get(d.timeout().toNanos(), TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            worker.interrupt();
            return failed(d, context, ModuleFailures.Kind.TIMED_OUT, null, failures);
        } catch (ExecutionException e) {
            return failed(d, context, ModuleFailures.Kind.THREW, e.getCause(), failures);
        } catch (InterruptedException e) {
            // the turn itself is being torn down; treat the module as failed and keep the flag for the caller
            Thread.currentThread().interrupt();
            worker.interrupt();
            return failed(d, context, ModuleFailures.Kind.THREW, e, failures);
        }
    }

    /** Logs and counts a failure that happened outside {@link #run} (an output filter). */
    static Attempt.Failed failed(
            ModuleDescriptor d,
            HookContext context,
            ModuleFailures.Kind kind,
            Throwable cause,
            ModuleFailures failures) {
        failures.record(d.id(), context.request().hook(), kind);
        // the exception's message may quote the conversation, so only its type is logged at WARN
        log.warn(
                "module {} {} on {} (request {}, session {}, timeout {}): {}",
                d.id(),
                kind == ModuleFailures.Kind.TIMED_OUT ? "timed out" : "failed",
                context.request().hook(),
                context.request().requestId(),
                context.session().id(),
                d.timeout(),
                cause == null
                        ? (d.failClosed() ? "failing closed" : "skipped")
                        : cause.getClass().getName() + (d.failClosed() ? ", failing closed" : ", skipped"));
        if (cause != null) {
            log.debug(
                    "module {} failure on {} (request {})",
                    d.id(),
                    context.request().hook(),
                    context.request().requestId(),
                    cause);
        }
        return new Attempt.Failed(kind);
    }
}
