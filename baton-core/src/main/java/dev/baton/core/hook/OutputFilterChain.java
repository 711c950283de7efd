package dev.baton.core.hook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.text.TextPieces;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A turn's output filters, chained in priority order: each chunk of the answer passes through every filter before
 * it reaches the client. Confined to the turn's thread.
 *
 * <p>A filter that throws is dropped for the rest of the turn (logged and counted; text it was holding back is
 * lost), unless its module fails closed: then the chain withholds everything from then on and
 * {@link #safeResponse()} says what to answer instead.
 */
public final class OutputFilterChain {

    /** A chain that passes everything through. */
    public static OutputFilterChain none() {
        return new OutputFilterChain(List.of(), null, new ModuleFailures());
    }

    /**
     * What a chain must carry across a pause between two model calls, as plain data.
     *
     * @param stages one entry per filter, in chain order
     * @param withheldBy the fail-closed module whose failure withholds the answer; null when none did
     * @param safeResponse what to answer instead when the answer is withheld; null otherwise
     * @param withheld the original text of the withheld answer so far (for its audit note)
     */
    public record State(List<StageState> stages, String withheldBy, String safeResponse, String withheld) {
        public static final State EMPTY = new State(List.of(), null, null, "");

        public State {
            stages = List.copyOf(stages);
            withheld = Objects.requireNonNullElse(withheld, "");
        }
    }

    /**
     * One filter's part of a {@link State}.
     *
     * @param module the id of the filter's module
     * @param input everything the filter was given so far (the original of its audit notes; replayed into a new
     *     filter that exports no state)
     * @param dropped whether the filter failed and is skipped for the rest of the turn
     * @param filterState what {@link OutputFilter#exportState()} gave; null when the filter exports nothing
     */
    public record StageState(String module, String input, boolean dropped, JsonNode filterState) {
        public StageState {
            Objects.requireNonNull(module, "module");
            input = Objects.requireNonNullElse(input, "");
        }
    }

    /** One module's filter and the text it was given. */
    static final class Stage {
        final ModuleDescriptor module;
        final OutputFilter filter;
        /** Shares the long deltas with the model's reply and the turn's answer rather than copying them. */
        final TextPieces input = new TextPieces();

        boolean dropped;
        HookResult.Continue result;

        Stage(ModuleDescriptor module, OutputFilter filter) {
            this.module = module;
            this.filter = filter;
        }
    }

    private final List<Stage> stages;
    private final HookContext context;
    private final ModuleFailures failures;
    private String safeResponse;
    private String withheldBy;
    /** What the failed fail-closed filter was given and what came after it: the original of the withheld answer. */
    private final TextPieces withheld = new TextPieces();

    OutputFilterChain(List<Stage> stages, HookContext context, ModuleFailures failures) {
        this.stages = List.copyOf(stages);
        this.context = context;
        this.failures = failures;
    }

    /** A chain that withholds everything because a fail-closed module could not create its filter. */
    static OutputFilterChain withholding(ModuleDescriptor module, String safeResponse) {
        OutputFilterChain chain = new OutputFilterChain(List.of(), null, new ModuleFailures());
        chain.safeResponse = safeResponse;
        chain.withheldBy = module.id();
        return chain;
    }

    /** Whether there is nothing to filter (the answer streams as it comes). */
    public boolean isEmpty() {
        return stages.isEmpty() && safeResponse == null;
    }

    /** A text delta from the model → what the client may see now (possibly empty). */
    public String onChunk(String chunk) {
        if (safeResponse != null) {
            withheld.append(chunk);
            return "";
        }
        String text = chunk;
        for (Stage stage : stages) {
            if (safeResponse != null) {
                return "";
            }
            if (stage.dropped || text.isEmpty()) {
                continue;
            }
            stage.input.append(text);
            try {
                text = nonNull(stage.filter.onChunk(text));
            } catch (RuntimeException e) {
                fail(stage, e);
            }
        }
        return safeResponse != null ? "" : text;
    }

    /** The model call's text is complete → everything the filters still held back, filtered. */
    public String flush() {
        String text = "";
        for (Stage stage : stages) {
            if (safeResponse != null) {
                return "";
            }
            if (stage.dropped) {
                continue;
            }
            try {
                String out = "";
                if (!text.isEmpty()) {
                    stage.input.append(text);
                    out = nonNull(stage.filter.onChunk(text));
                }
                text = out + nonNull(stage.filter.flush());
            } catch (RuntimeException e) {
                fail(stage, e);
            }
        }
        return safeResponse != null ? "" : text;
    }

    /** The response to answer with instead, when a fail-closed filter failed; the rest was withheld. */
    public Optional<String> safeResponse() {
        return Optional.ofNullable(safeResponse);
    }

    /** The module whose failure made the chain withhold the answer; null when none did. */
    public String withheldBy() {
        return withheldBy;
    }

    /**
     * The filters' audit notes (original = the unfiltered text each was given), once the answer is complete; when a
     * fail-closed filter withheld the answer, a note saying so with everything it withheld.
     */
    public List<ModuleAudit> audit() {
        List<ModuleAudit> notes = new ArrayList<>();
        if (withheldBy != null) {
            notes.add(new ModuleAudit(
                    withheldBy, new HookResult.Audit(withheld.toString(), "output filter failed closed", List.of())));
        }
        for (Stage stage : stages) {
            results(stage)
                    .audit()
                    .forEach(
                            a -> notes.add(new ModuleAudit(stage.module.id(), a.withOriginal(stage.input.toString()))));
        }
        return notes;
    }

    /** The filters' extractions, once the answer is complete. */
    public List<ModuleExtraction> extractions() {
        List<ModuleExtraction> found = new ArrayList<>();
        for (Stage stage : stages) {
            results(stage).extractions().forEach(x -> found.add(new ModuleExtraction(stage.module.id(), x)));
        }
        return found;
    }

    /**
     * The chain's state between two model calls (after {@link #flush()}). A filter whose export fails is dropped, as
     * if it had failed on a chunk.
     */
    public State snapshot() {
        List<StageState> states = new ArrayList<>(stages.size());
        for (Stage stage : stages) {
            JsonNode filterState = null;
            if (!stage.dropped) {
                try {
                    filterState = stage.filter.exportState();
                } catch (RuntimeException e) {
                    fail(stage, e);
                }
            }
            states.add(new StageState(
                    stage.module.id(), stage.input.toString(), stage.dropped, stage.dropped ? null : filterState));
        }
        return new State(states, withheldBy, safeResponse, withheld.toString());
    }

    /**
     * Brings a new chain — the same agent's filters for the same turn, before any text passed it — to where a
     * {@link #snapshot()} left another. Filters are matched by module id in chain order; a filter the state does not
     * know (its module was configured since) starts afresh, and state for a module no longer configured is ignored.
     * A filter that exported no state is given its recorded input again, and its output is discarded.
     */
    public void restore(State state) {
        Objects.requireNonNull(state, "state");
        Map<String, Deque<StageState>> byModule = new HashMap<>();
        for (StageState saved : state.stages()) {
            byModule.computeIfAbsent(saved.module(), id -> new ArrayDeque<>()).add(saved);
        }
        for (Stage stage : stages) {
            Deque<StageState> saved = byModule.get(stage.module.id());
            if (saved != null && !saved.isEmpty()) {
                restore(stage, saved.poll());
            }
        }
        if (state.withheldBy() != null) {
            withheldBy = state.withheldBy();
            safeResponse = state.safeResponse() == null ? ModulePipeline.SAFE_RESPONSE : state.safeResponse();
            withheld.clear();
            withheld.append(state.withheld());
        }
    }

    private void restore(Stage stage, StageState saved) {
        stage.input.clear();
        stage.input.append(saved.input());
        if (saved.dropped()) {
            stage.dropped = true;
            return;
        }
        try {
            if (saved.filterState() != null) {
                stage.filter.importState(saved.filterState());
            } else if (!saved.input().isEmpty()) {
                stage.filter.onChunk(saved.input());
                stage.filter.flush();
            }
        } catch (RuntimeException e) {
            fail(stage, e);
        }
    }

    /** The filter's result, asked for once. */
    private HookResult.Continue results(Stage stage) {
        if (stage.result == null) {
            stage.result = HookResult.proceed();
            if (!stage.dropped) {
                try {
                    HookResult.Continue result = stage.filter.result();
                    stage.result = result == null ? HookResult.proceed() : result;
                } catch (RuntimeException e) {
                    ModuleCall.failed(stage.module, context, ModuleFailures.Kind.THREW, e, failures);
                }
            }
        }
        return stage.result;
    }

    private void fail(Stage stage, RuntimeException e) {
        ModuleCall.failed(stage.module, context, ModuleFailures.Kind.THREW, e, failures);
        stage.dropped = true;
        if (stage.module.failClosed()) {
            withheld.append(stage.input.toString());
            safeResponse = ModulePipeline.safeResponse(stage.module);
            withheldBy = stage.module.id();
        }
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }
}
