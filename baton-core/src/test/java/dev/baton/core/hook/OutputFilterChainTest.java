package dev.baton.core.hook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.audit.AuditStore;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class OutputFilterChainTest {
    static final Pattern EMAIL = Pattern.compile("[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)+");
    static final Pattern CARD = Pattern.compile("\\b\\d(?:[ -]?\\d){12,18}\\b");

    /** Redacts e-mail addresses and card-like numbers, holding back 64 characters. */
    static OutputFilter redactor() {
        return new RedactingOutputFilter(
                text -> {
                    List<RedactingOutputFilter.Redaction> found = new ArrayList<>();
                    add(found, EMAIL.matcher(text), "[EMAIL]", "email");
                    add(found, CARD.matcher(text), "[CARD]", "card");
                    found.sort(java.util.Comparator.comparingInt(RedactingOutputFilter.Redaction::start));
                    return found;
                },
                64,
                patterns -> HookResult.proceed().withAudit("pii redacted from the answer", patterns));
    }

    static void add(List<RedactingOutputFilter.Redaction> found, Matcher m, String replacement, String name) {
        while (m.find()) found.add(new RedactingOutputFilter.Redaction(m.start(), m.end(), replacement, name));
    }

    static Module filtering(String id, int priority, boolean failClosed, java.util.function.Supplier<OutputFilter> f) {
        return new TestModules.Lambda(
                new ModuleDescriptor(id, priority, null, failClosed, Set.of(), null), c -> HookResult.proceed(), f);
    }

    static OutputFilterChain chain(Module... modules) {
        return new ModulePipeline(
                        ModuleSource.of(List.of(modules)),
                        AuditStore.NONE,
                        Clock.fixed(TestModules.NOW, ZoneOffset.UTC))
                .outputFilters(TestModules.turn("hi"));
    }

    /** Streams the chunks through the chain as a turn would, returning every piece released, flush last. */
    static List<String> stream(OutputFilterChain chain, String... chunks) {
        List<String> released = new ArrayList<>();
        for (String c : chunks) released.add(chain.onChunk(c));
        released.add(chain.flush());
        return released;
    }

    @Test
    void an_email_split_across_two_chunks_never_reaches_the_client() {
        OutputFilterChain chain = chain(filtering("pii", 5, false, OutputFilterChainTest::redactor));

        List<String> released = stream(chain, "Sure, write to alice@exa", "mple.com and I will answer.");

        assertThat(String.join("", released)).isEqualTo("Sure, write to [EMAIL] and I will answer.");
        assertThat(released).noneMatch(piece -> piece.contains("alice") || piece.contains("mple.com"));
    }

    @Test
    void a_card_number_streamed_one_character_at_a_time_is_still_caught() {
        OutputFilterChain chain = chain(filtering("pii", 5, false, OutputFilterChainTest::redactor));
        String preamble = "Thanks for waiting, here is what I found about your recent order and payment. ";
        String answer = preamble + "Your card 4111 1111 1111 1111 was charged.";

        List<String> released = stream(chain, answer.split(""));

        assertThat(String.join("", released)).isEqualTo(preamble + "Your card [CARD] was charged.");
        assertThat(released).noneMatch(piece -> piece.matches("(?s).*\\d.*"));
        // text before the card streamed before the answer ended
        assertThat(released.subList(0, released.size() - 1)).anyMatch(piece -> !piece.isEmpty());
        // the audit note gets the unfiltered answer as its original
        assertThat(chain.audit()).singleElement().satisfies(a -> {
            assertThat(a.module()).isEqualTo("pii");
            assertThat(a.audit().originalContent()).isEqualTo(answer);
            assertThat(a.audit().patternsMatched()).containsExactly("card");
        });
    }

    @Test
    void text_far_from_any_pattern_streams_before_the_end() {
        OutputFilterChain chain = chain(filtering("pii", 5, false, OutputFilterChainTest::redactor));
        String words = "word ".repeat(40);

        String first = chain.onChunk(words);

        assertThat(first).isNotEmpty().hasSizeLessThanOrEqualTo(words.length() - 64);
        assertThat(first + chain.flush()).isEqualTo(words);
        assertThat(chain.audit()).isEmpty();
    }

    @Test
    void filters_chain_in_priority_order_each_seeing_the_previous_output() {
        OutputFilterChain chain = chain(
                filtering("upper", 60, false, () -> mapping(String::toUpperCase)),
                filtering("pii", 5, false, OutputFilterChainTest::redactor));

        assertThat(String.join("", stream(chain, "mail bob@example.org", " now")))
                .isEqualTo("MAIL [EMAIL] NOW");
    }

    @Test
    void a_filter_that_throws_is_dropped_and_counted_and_the_rest_streams_on() {
        OutputFilterChain chain = chain(filtering(
                "broken",
                10,
                false,
                () -> mapping(s -> {
                    if (s.contains("x")) throw new IllegalStateException("boom");
                    return s;
                })));

        List<String> released = stream(chain, "abc ", "x marks ", "the spot");

        assertThat(String.join("", released)).isEqualTo("abc x marks the spot");
        assertThat(chain.safeResponse()).isEmpty();
    }

    @Test
    void a_fail_closed_filter_that_throws_withholds_the_rest_and_names_a_safe_response() {
        OutputFilterChain chain = chain(filtering(
                "strict",
                10,
                true,
                () -> mapping(s -> {
                    if (s.contains("x")) throw new IllegalStateException("boom");
                    return s;
                })));

        List<String> released = stream(chain, "abc ", "x marks ", "the spot");

        assertThat(released).containsExactly("abc ", "", "", "");
        assertThat(chain.safeResponse()).contains(ModulePipeline.SAFE_RESPONSE);
        assertThat(chain.withheldBy()).isEqualTo("strict");
        assertThat(chain.audit())
                .singleElement()
                .satisfies(a -> assertThat(a.audit().originalContent()).isEqualTo("abc x marks the spot"));
    }

    @Test
    void no_filters_means_an_empty_chain_that_passes_text_through() {
        OutputFilterChain chain =
                chain(TestModules.module("plain", 50, Set.of(Hook.AFTER_AI), c -> HookResult.proceed()));

        assertThat(chain.isEmpty()).isTrue();
        assertThat(stream(chain, "a", "b")).containsExactly("a", "b", "");
    }

    /** A stateless filter applying {@code f} to each chunk. */
    static OutputFilter mapping(java.util.function.UnaryOperator<String> f) {
        return new OutputFilter() {
            @Override
            public String onChunk(String chunk) {
                return f.apply(chunk);
            }

            @Override
            public String flush() {
                return "";
            }
        };
    }
}
