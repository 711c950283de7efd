package dev.baton.core.hook;

import static dev.baton.core.hook.OutputFilterChainTest.chain;
import static dev.baton.core.hook.OutputFilterChainTest.filtering;
import static dev.baton.core.hook.OutputFilterChainTest.mapping;
import static dev.baton.core.hook.OutputFilterChainTest.stream;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A chain's state taken between two model calls and restored into a new chain, as a paused turn would. */
class OutputFilterChainStateTest {
    private static final String BEFORE = "Write to alice@example.com, please. ";
    private static final String AFTER = "Or pay with 4111 1111 1111 1111 today.";

    /** Counts the characters it was given and reports the count; keeps that count without exporting it. */
    static final class CountingFilter implements OutputFilter {
        int seen;

        @Override
        public String onChunk(String chunk) {
            seen += chunk.length();
            return chunk;
        }

        @Override
        public String flush() {
            return "";
        }

        @Override
        public HookResult.Continue result() {
            return HookResult.proceed().withAudit("saw " + seen + " characters", List.of());
        }
    }

    private static Module pii() {
        return filtering("pii", 5, false, OutputFilterChainTest::redactor);
    }

    @Test
    void a_restored_chain_redacts_and_reports_as_if_the_turn_had_never_paused() {
        OutputFilterChain uninterrupted = chain(pii());
        String expected =
                String.join("", stream(uninterrupted, BEFORE)) + String.join("", stream(uninterrupted, AFTER));

        OutputFilterChain first = chain(pii());
        String released = String.join("", stream(first, BEFORE));
        OutputFilterChain.State state = first.snapshot();
        OutputFilterChain resumed = chain(pii());
        resumed.restore(state);
        released += String.join("", stream(resumed, AFTER));

        assertThat(released).isEqualTo(expected).doesNotContain("alice").contains("[EMAIL]", "[CARD]");
        assertThat(state.stages()).singleElement().satisfies(s -> {
            assertThat(s.module()).isEqualTo("pii");
            assertThat(s.filterState().get("matched")).hasSize(1);
        });
        assertThat(resumed.audit()).isEqualTo(uninterrupted.audit());
        assertThat(resumed.audit()).singleElement().satisfies(a -> {
            assertThat(a.audit().patternsMatched()).containsExactly("email", "card");
            assertThat(a.audit().originalContent()).isEqualTo(BEFORE + AFTER);
        });
    }

    @Test
    void a_filter_that_exports_no_state_is_given_its_earlier_input_again_and_its_output_is_discarded() {
        OutputFilterChain first = chain(filtering("count", 50, false, CountingFilter::new));
        stream(first, BEFORE);
        OutputFilterChain.State state = first.snapshot();

        OutputFilterChain resumed = chain(filtering("count", 50, false, CountingFilter::new));
        resumed.restore(state);
        List<String> released = stream(resumed, AFTER);

        assertThat(state.stages().getFirst().filterState()).isNull();
        assertThat(String.join("", released)).isEqualTo(AFTER);
        assertThat(resumed.audit())
                .singleElement()
                .satisfies(a -> assertThat(a.audit().reason())
                        .isEqualTo("saw " + (BEFORE.length() + AFTER.length()) + " characters"));
    }

    @Test
    void a_dropped_filter_stays_dropped_and_a_withheld_answer_stays_withheld() {
        Module broken = filtering(
                "broken",
                10,
                false,
                () -> mapping(s -> {
                    throw new IllegalStateException("boom");
                }));
        Module strict = filtering(
                "strict",
                20,
                true,
                () -> mapping(s -> {
                    if (s.contains("secret")) throw new IllegalStateException("boom");
                    return s;
                }));
        OutputFilterChain first = chain(broken, strict);
        stream(first, "a secret plan");
        OutputFilterChain.State state = first.snapshot();

        OutputFilterChain resumed = chain(broken, strict);
        resumed.restore(state);

        assertThat(state.stages())
                .extracting(OutputFilterChain.StageState::dropped)
                .containsExactly(true, true);
        assertThat(stream(resumed, " goes on")).containsOnly("");
        assertThat(resumed.withheldBy()).isEqualTo("strict");
        assertThat(resumed.safeResponse()).contains(ModulePipeline.SAFE_RESPONSE);
        assertThat(resumed.audit())
                .filteredOn(a -> a.module().equals("strict"))
                .singleElement()
                .satisfies(a -> assertThat(a.audit().originalContent()).isEqualTo("a secret plan goes on"));
    }

    @Test
    void state_for_a_module_no_longer_configured_is_ignored_and_a_new_one_starts_afresh() {
        OutputFilterChain first = chain(pii());
        stream(first, BEFORE);
        OutputFilterChain.State state = first.snapshot();

        OutputFilterChain resumed = chain(filtering("count", 50, false, CountingFilter::new));
        resumed.restore(state);
        stream(resumed, AFTER);

        assertThat(resumed.audit())
                .singleElement()
                .satisfies(a -> assertThat(a.audit().reason()).isEqualTo("saw " + AFTER.length() + " characters"));
    }
}
