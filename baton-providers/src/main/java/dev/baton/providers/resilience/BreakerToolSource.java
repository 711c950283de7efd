package dev.baton.providers.resilience;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolDefinition;
import dev.baton.core.tool.ToolException;
import dev.baton.core.tool.ToolSource;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A tool source behind a circuit breaker of its own: every call of one of its tools goes through the breaker.
 * A tool that fails unexpectedly (anything but a {@link ToolException}) or runs past its deadline counts as a
 * failure; a {@link ToolException} is the domain refusing one call (no such task, bad title) and says nothing
 * about the source's health, and a cancelled turn says nothing either. While the breaker is open the call fails
 * fast with the tool error {@code tool_unavailable}, which the model reads and can tell the user about.
 */
public final class BreakerToolSource implements ToolSource {
    /** Lets a call that finished right at its deadline report its own outcome before the watchdog does. */
    private static final Duration WATCHDOG_GRACE = Duration.ofMillis(50);

    private final ToolSource delegate;
    private final Breaker breaker;
    private final Clock clock;

    public BreakerToolSource(ToolSource delegate, BreakerSettings settings, Clock clock) {
        this(delegate, settings, clock, BreakerListener.NONE);
    }

    /** @param listener hears of the breaker now and of each change of its state (metrics) */
    public BreakerToolSource(ToolSource delegate, BreakerSettings settings, Clock clock, BreakerListener listener) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.breaker = Breaker.forToolSource(delegate.name(), settings, clock, listener);
    }

    /** Puts each source behind its own breaker. */
    public static List<ToolSource> guard(List<ToolSource> sources, BreakerSettings settings, Clock clock) {
        return guard(sources, settings, clock, BreakerListener.NONE);
    }

    /** Puts each source behind its own breaker, each announced to {@code listener}. */
    public static List<ToolSource> guard(
            List<ToolSource> sources, BreakerSettings settings, Clock clock, BreakerListener listener) {
        return sources.stream()
                .map(s -> (ToolSource) new BreakerToolSource(s, settings, clock, listener))
                .toList();
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public List<Tool> tools() {
        List<Tool> tools = delegate.tools();
        return tools == null
                ? List.of()
                : tools.stream().map(t -> (Tool) new GuardedTool(t)).toList();
    }

    @Override
    public boolean admits(String allowListEntry, ToolDefinition tool) {
        return delegate.admits(allowListEntry, tool);
    }

    public Breaker breaker() {
        return breaker;
    }

    private final class GuardedTool implements Tool {
        private final Tool tool;

        GuardedTool(Tool tool) {
            this.tool = tool;
        }

        @Override
        public ToolDefinition definition() {
            return tool.definition();
        }

        @Override
        public Optional<String> summary(JsonNode arguments, ToolContext context) {
            return tool.summary(arguments, context);
        }

        @Override
        public JsonNode execute(JsonNode arguments, ToolContext context) {
            if (!breaker.tryAcquire()) {
                throw unavailable();
            }
            long started = System.nanoTime();
            AtomicBoolean settled = new AtomicBoolean();
            // a tool blocked past its deadline may never return: the watchdog counts it when the executor gives up
            Duration untilDeadline =
                    Duration.between(clock.instant(), context.deadline()).plus(WATCHDOG_GRACE);
            ScheduledFuture<?> watchdog = Watchdogs.after(untilDeadline, () -> settle(settled, context, started, true));
            try {
                JsonNode result = tool.execute(arguments, context);
                settle(settled, context, started, clock.instant().isAfter(context.deadline()));
                return result;
            } catch (ToolException refused) {
                if (settled.compareAndSet(false, true)) {
                    breaker.release();
                }
                throw refused;
            } catch (RuntimeException e) {
                settle(settled, context, started, true);
                throw e;
            } finally {
                watchdog.cancel(false);
            }
        }

        /** Reports the call's verdict once, whichever of the call and its watchdog gets there first. */
        private void settle(AtomicBoolean settled, ToolContext context, long started, boolean failed) {
            if (!settled.compareAndSet(false, true)) {
                return;
            }
            long took = System.nanoTime() - started;
            if (context.cancellation().isCancelled()) {
                breaker.release();
            } else if (failed) {
                breaker.onFailure(took, new IllegalStateException(definition().name() + " failed or timed out"));
            } else {
                breaker.onSuccess(took);
            }
        }

        private ToolException unavailable() {
            long seconds = Math.max(1, breaker.remainingOpen().toSeconds());
            return new ToolException(
                    "tool_unavailable",
                    "The " + definition().name() + " tool is temporarily unavailable after repeated failures. "
                            + "Try again in about " + seconds + " s, or tell the user it cannot be done right now.");
        }
    }
}
