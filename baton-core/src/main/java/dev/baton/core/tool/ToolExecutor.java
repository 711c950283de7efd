package dev.baton.core.tool;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.model.ToolCallRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the tool calls of one model response for a principal. Every call is checked before it runs (the tool
 * exists and the agent may use it, the arguments are JSON that matches the tool's schema, the caller holds the
 * tool's permissions); independent calls then run concurrently on virtual threads, each under its own timeout.
 * Whatever goes wrong comes back as an outcome the model can read, never as an exception.
 */
public final class ToolExecutor {
    private static final Logger log = LoggerFactory.getLogger(ToolExecutor.class);
    private static final int MAX_ECHOED_CHARS = 200;

    private final ToolCatalog catalog;
    private final Clock clock;
    private final ArgumentSchemas schemas = new ArgumentSchemas();

    public ToolExecutor(ToolCatalog catalog, Clock clock) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Runs the calls and returns their outcomes in the order the model made them. Blocks until every call has
     * finished, timed out or been cancelled.
     *
     * @param cache answers repeated calls of the same turn; updated with the outcomes of the calls that ran
     */
    public List<ToolCallOutcome> execute(List<ToolCallRequest> calls, ToolCallScope scope, CallCache cache) {
        List<Slot> slots = new ArrayList<>(calls.size());
        for (ToolCallRequest call : calls) {
            slots.add(prepare(call, scope, cache, slots));
        }
        List<ToolRun> runs =
                slots.stream().filter(s -> s.run != null).map(s -> s.run).toList();
        if (!runs.isEmpty()) {
            ToolRun.runAll(runs, scope.cancellation());
        }
        List<ToolCallOutcome> outcomes = new ArrayList<>(slots.size());
        for (Slot slot : slots) {
            ToolCallOutcome outcome = outcomeOf(slot, outcomes);
            if (slot.run != null) {
                cache.remember(slot.canonicalArguments, outcome);
            }
            log.debug("tool {} finished: {} in {} ms", outcome.request().name(), outcome.state(), outcome.durationMs());
            outcomes.add(outcome);
        }
        return List.copyOf(outcomes);
    }

    /**
     * Whether {@link #execute} would run the call now: the tool exists for the agent, the caller may use it, the
     * arguments match its schema, and no identical call of this turn is remembered. A call that would be refused or
     * answered from the cache needs nobody's approval.
     */
    public boolean wouldRun(ToolCallRequest call, ToolCallScope scope, CallCache cache) {
        return prepare(call, scope, cache, List.of()).run != null;
    }

    /**
     * Why the call would be refused before it runs (unknown tool, arguments that are not JSON or do not match the
     * schema, a permission the caller lacks); empty when it would run. Nothing is run or remembered.
     */
    public Optional<ToolError> refusal(ToolCallRequest call, ToolCallScope scope) {
        Slot slot = prepare(call, scope, new CallCache(), List.of());
        return slot.outcome == null ? Optional.empty() : Optional.ofNullable(slot.outcome.error());
    }

    private ToolCallOutcome outcomeOf(Slot slot, List<ToolCallOutcome> earlier) {
        if (slot.outcome != null) {
            return slot.outcome;
        }
        if (slot.run != null) {
            return slot.run.outcome();
        }
        // a repeat of an earlier call in this same response: answer with that call's outcome
        ToolCallOutcome first = earlier.get(slot.duplicateOf);
        Instant now = clock.instant();
        return new ToolCallOutcome(slot.call, ToolCallState.DEDUPLICATED, first.result(), first.error(), now, now, 0);
    }

    private Slot prepare(ToolCallRequest call, ToolCallScope scope, CallCache cache, List<Slot> earlier) {
        Instant now = clock.instant();
        if (scope.cancellation().isCancelled()) {
            return Slot.done(call, ToolCallOutcome.rejected(call, ToolCallState.CANCELLED, ToolRun.CANCELLED, now));
        }
        Optional<Tool> found = catalog.find(scope.agent(), call.name());
        if (found.isEmpty()) {
            return Slot.done(
                    call,
                    ToolCallOutcome.rejected(
                            call,
                            ToolCallState.FAILED,
                            new ToolError("unknown_tool", "unknown tool: " + truncate(call.name())),
                            now));
        }
        Tool tool = found.get();
        ToolDefinition def = tool.definition();
        JsonNode arguments;
        try {
            arguments = ToolJson.parse(call.argumentsJson());
        } catch (JsonProcessingException e) {
            return Slot.done(
                    call,
                    ToolCallOutcome.rejected(
                            call,
                            ToolCallState.INVALID_ARGUMENTS,
                            new ToolError(
                                    "invalid_arguments",
                                    "arguments are not valid JSON: " + truncate(e.getOriginalMessage())),
                            now));
        }
        String canonical = ToolJson.canonical(arguments);
        Optional<CallCache.Entry> remembered = cache.find(def.name(), canonical);
        if (remembered.isPresent()) {
            return Slot.done(call, CallCache.answer(remembered.get(), call, now));
        }
        for (int i = 0; i < earlier.size(); i++) {
            Slot other = earlier.get(i);
            if (other.run != null
                    && other.call.name().equals(call.name())
                    && canonical.equals(other.canonicalArguments)) {
                return Slot.duplicate(call, i);
            }
        }
        // permissions before the schema: a caller who may not use the tool learns nothing about its arguments
        if (!def.usableBy(scope.principal())) {
            log.info(
                    "tool {} denied for user {}: missing permissions or roles",
                    def.name(),
                    scope.principal().userId());
            return Slot.done(
                    call,
                    ToolCallOutcome.rejected(
                            call,
                            ToolCallState.DENIED,
                            new ToolError("permission_denied", "You do not have permission to use " + def.name() + "."),
                            now));
        }
        List<String> problems;
        try {
            problems = schemas.validate(def.parametersSchema(), arguments);
        } catch (RuntimeException e) {
            log.warn("tool {} has a schema that cannot be compiled: {}", def.name(), e.toString());
            return Slot.done(
                    call,
                    ToolCallOutcome.rejected(
                            call,
                            ToolCallState.FAILED,
                            new ToolError(
                                    "tool_misconfigured", "The tool " + def.name() + " is not available right now."),
                            now));
        }
        if (!problems.isEmpty()) {
            return Slot.done(
                    call,
                    ToolCallOutcome.rejected(
                            call,
                            ToolCallState.INVALID_ARGUMENTS,
                            new ToolError(
                                    "invalid_arguments",
                                    "arguments do not match the schema: " + String.join("; ", problems)),
                            now));
        }
        Duration timeout = def.timeout() != null && def.timeout().isPositive() ? def.timeout() : scope.defaultTimeout();
        // a tool's own (longer) timeout must not outlast the request it runs for
        if (scope.timeLeft() != null && timeout.compareTo(scope.timeLeft()) > 0) {
            timeout = scope.timeLeft();
        }
        return Slot.run(call, canonical, new ToolRun(tool, call, arguments, canonical, scope, timeout, clock));
    }

    private static String truncate(String s) {
        if (s == null) {
            return "";
        }
        return s.length() <= MAX_ECHOED_CHARS ? s : s.substring(0, MAX_ECHOED_CHARS) + "…";
    }

    /** What prepare decided for one call: an outcome already, a run, or "same as call #i of this response". */
    private record Slot(
            ToolCallRequest call, ToolCallOutcome outcome, ToolRun run, String canonicalArguments, int duplicateOf) {
        static Slot done(ToolCallRequest call, ToolCallOutcome outcome) {
            return new Slot(call, outcome, null, null, -1);
        }

        static Slot run(ToolCallRequest call, String canonical, ToolRun run) {
            return new Slot(call, null, run, canonical, -1);
        }

        static Slot duplicate(ToolCallRequest call, int index) {
            return new Slot(call, null, null, null, index);
        }
    }
}
