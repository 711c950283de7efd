package dev.baton.core.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.model.ToolCallRequest;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Remembers the answers to the tool calls of one turn, so an identical call (same tool, canonically equal
 * arguments) is answered again without running the tool: a model stuck in a loop cannot repeat a write, and the
 * loop costs nothing. The contents are plain data ({@link #snapshot()}, {@link #restore(List)}) so a paused turn
 * can carry them to another instance.
 */
public final class CallCache {

    /** One remembered answer. Exactly one of {@code result} and {@code error} is set. */
    public record Entry(
            String toolName, String canonicalArguments, ToolCallState state, JsonNode result, ToolError error) {
        public Entry {
            Objects.requireNonNull(toolName, "toolName");
            Objects.requireNonNull(canonicalArguments, "canonicalArguments");
            Objects.requireNonNull(state, "state");
            if ((result == null) == (error == null)) {
                throw new IllegalArgumentException("exactly one of result and error must be set");
            }
        }
    }

    private final Map<String, Entry> entries = new LinkedHashMap<>();

    public CallCache() {}

    /** A cache holding what an earlier part of the same turn remembered. */
    public static CallCache restore(List<Entry> entries) {
        CallCache cache = new CallCache();
        entries.forEach(e -> cache.entries.put(key(e.toolName(), e.canonicalArguments()), e));
        return cache;
    }

    public synchronized Optional<Entry> find(String toolName, String canonicalArguments) {
        return Optional.ofNullable(entries.get(key(toolName, canonicalArguments)));
    }

    /**
     * Remembers an executed call's outcome. Timeouts and cancellations are not remembered: running the call again
     * may well succeed, and the per-turn limits still bound how often that happens.
     */
    public synchronized void remember(String canonicalArguments, ToolCallOutcome outcome) {
        if (outcome.state() == ToolCallState.TIMED_OUT
                || outcome.state() == ToolCallState.CANCELLED
                || outcome.state() == ToolCallState.DEDUPLICATED) {
            return;
        }
        String name = outcome.request().name();
        entries.putIfAbsent(
                key(name, canonicalArguments),
                new Entry(name, canonicalArguments, outcome.state(), outcome.result(), outcome.error()));
    }

    /** The contents, oldest first, as plain data. */
    public synchronized List<Entry> snapshot() {
        return List.copyOf(entries.values());
    }

    /** The answer to a repeated call: the remembered result or error, marked DEDUPLICATED. */
    public static ToolCallOutcome answer(Entry entry, ToolCallRequest request, Instant now) {
        return new ToolCallOutcome(request, ToolCallState.DEDUPLICATED, entry.result(), entry.error(), now, now, 0);
    }

    private static String key(String toolName, String canonicalArguments) {
        return toolName + '\u0000' + canonicalArguments;
    }
}
