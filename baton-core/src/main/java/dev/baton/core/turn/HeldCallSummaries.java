package dev.baton.core.turn;

import dev.baton.core.model.ToolCallRequest;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolCallScope;
import dev.baton.core.tool.ToolContext;
import dev.baton.core.tool.ToolJson;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one line that says what a held call would do ({@link Tool#summary}), asked once when the call is held, as the
 * turn's caller and within the turn's tool timeout, so every prompt that shows the call (the event, the stored pending
 * approval) says the same thing. A tool that takes longer gives none: it runs on a thread of its own, interrupted
 * then, so a slow lookup never holds the turn past the time a tool call may take.
 */
final class HeldCallSummaries {
    private static final Logger log = LoggerFactory.getLogger(HeldCallSummaries.class);
    /** A summary is one line for a prompt; a longer one is cut here. */
    static final int MAX_LENGTH = 300;

    private final Clock clock;

    HeldCallSummaries(Clock clock) {
        this.clock = clock;
    }

    /** The tool's summary of {@code call} on one line; null when it has none or could not give one. */
    String summarise(Tool tool, ToolCallRequest call, ToolCallScope scope) {
        Duration timeout = scope.timeLeft() == null || scope.timeLeft().compareTo(scope.defaultTimeout()) > 0
                ? scope.defaultTimeout()
                : scope.timeLeft();
        ToolContext context = new ToolContext(
                scope.principal(),
                scope.sessionId(),
                clock.instant().plus(timeout),
                scope.cancellation(),
                scope.agent().id());
        CompletableFuture<Optional<String>> asked = new CompletableFuture<>();
        Thread thread = Thread.ofVirtual().name("summary-" + call.name()).start(() -> {
            try {
                asked.complete(tool.summary(ToolJson.argumentsForDisplay(call.argumentsJson()), context));
            } catch (Throwable e) {
                asked.completeExceptionally(e);
            }
        });
        try {
            Optional<String> summary = asked.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return summary == null
                    ? null
                    : summary.map(HeldCallSummaries::oneLine)
                            .filter(s -> !s.isEmpty())
                            .orElse(null);
        } catch (TimeoutException e) {
            thread.interrupt();
            log.warn(
                    "tool {} took longer than {} to summarise a held call; it is shown without one",
                    call.name(),
                    timeout);
            return null;
        } catch (ExecutionException e) {
            // a summary is a nicety: the prompt still shows the call's name and arguments
            log.warn(
                    "tool {} could not summarise a held call: {}",
                    call.name(),
                    e.getCause().toString());
            return null;
        } catch (InterruptedException e) {
            thread.interrupt();
            Thread.currentThread().interrupt();
            return null;
        }
    }

    static String oneLine(String summary) {
        String line = summary.replaceAll("\\s+", " ").strip();
        return line.length() > MAX_LENGTH ? line.substring(0, MAX_LENGTH - 1) + "…" : line;
    }
}
