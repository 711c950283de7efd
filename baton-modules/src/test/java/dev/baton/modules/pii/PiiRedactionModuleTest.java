package dev.baton.modules.pii;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.hook.Hook;
import dev.baton.core.hook.HookResult;
import dev.baton.core.hook.Module;
import dev.baton.core.hook.OutputFilter;
import dev.baton.modules.TestContexts;
import org.junit.jupiter.api.Test;

class PiiRedactionModuleTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Module module(String config) throws Exception {
        return new PiiRedactionFactory().create(JSON.readTree(config));
    }

    @Test
    void redacts_the_user_message_and_records_kinds_and_counts_but_not_the_values() throws Exception {
        Module pii = module("{}");
        String message = "I am ada@example.com, card 4111 1111 1111 1111, backup ada2@example.com";

        HookResult result = pii.handle(TestContexts.beforeAi(message));

        assertThat(result).isInstanceOf(HookResult.Continue.class);
        HookResult.Continue c = (HookResult.Continue) result;
        assertThat(c.userMessage()).isEqualTo("I am [EMAIL], card [CARD], backup [EMAIL]");
        assertThat(c.audit()).singleElement().satisfies(a -> {
            assertThat(a.originalContent()).isEqualTo(message);
            assertThat(a.reason()).isEqualTo("pii redacted");
            assertThat(a.patternsMatched()).containsExactly("email", "card");
        });
        assertThat(c.extractions()).singleElement().satisfies(x -> {
            assertThat(x.type()).isEqualTo("pii_detected");
            assertThat(x.data().toString())
                    .isEqualTo("{\"location\":\"user_message\",\"types\":[\"email\",\"card\"],"
                            + "\"counts\":{\"email\":2,\"card\":1}}");
            assertThat(x.data().toString()).doesNotContain("ada").doesNotContain("4111");
        });
    }

    @Test
    void leaves_a_clean_message_alone_and_records_nothing() throws Exception {
        HookResult result = module("{}").handle(TestContexts.beforeAi("What is 2 + 2 on 2024-01-15?"));

        assertThat(result).isSameAs(HookResult.proceed());
    }

    @Test
    void redacts_the_answer_after_the_model_when_asked_to() throws Exception {
        Module pii = module("{\"afterAi\": true}");

        HookResult result = pii.handle(TestContexts.afterAi("hi", "Call +1 415 555 2671."));

        assertThat(pii.descriptor().handles(Hook.AFTER_AI)).isTrue();
        assertThat(((HookResult.Continue) result).response()).isEqualTo("Call [PHONE].");
        assertThat(((HookResult.Continue) result)
                        .extractions()
                        .getFirst()
                        .data()
                        .path("location")
                        .asText())
                .isEqualTo("response");
    }

    @Test
    void filters_the_streamed_answer_and_reports_what_it_redacted() throws Exception {
        Module pii = module("{}");
        OutputFilter filter = pii.outputFilter(TestContexts.beforeAi("hi"));

        String streamed = filter.onChunk("Your IBAN is DE89 3704 0044 ")
                + filter.onChunk("0532 0130 00 and that is all.")
                + filter.flush();

        assertThat(streamed).isEqualTo("Your IBAN is [IBAN] and that is all.");
        HookResult.Continue report = filter.result();
        assertThat(report.audit()).singleElement().satisfies(a -> {
            assertThat(a.originalContent()).isNull(); // the pipeline fills in the unfiltered answer
            assertThat(a.patternsMatched()).containsExactly("iban");
        });
        assertThat(report.extractions().getFirst().data().toString())
                .isEqualTo("{\"location\":\"response\",\"types\":[\"iban\"],\"counts\":{\"iban\":1}}");
    }

    @Test
    void defaults_to_the_safety_band_on_before_ai_with_an_output_filter() throws Exception {
        Module pii = module("{}");

        assertThat(pii.descriptor().id()).isEqualTo("pii-redaction");
        assertThat(pii.descriptor().priority()).isEqualTo(5);
        assertThat(pii.descriptor().hooks()).containsExactly(Hook.BEFORE_AI);
        assertThat(pii.outputFilter(TestContexts.beforeAi("hi"))).isNotSameAs(OutputFilter.NONE);
    }

    @Test
    void configuration_selects_types_and_hooks() throws Exception {
        Module pii = module("{\"types\": [\"email\"], \"input\": false, \"output\": false}");

        assertThat(pii.descriptor().hooks()).isEmpty();
        assertThat(pii.outputFilter(TestContexts.beforeAi("hi"))).isSameAs(OutputFilter.NONE);
        HookResult r = module("{\"types\": \"email\"}").handle(TestContexts.beforeAi("a@example.com 123-45-6789"));
        assertThat(((HookResult.Continue) r).userMessage()).isEqualTo("[EMAIL] 123-45-6789");
    }

    @Test
    void rejects_unknown_types_and_keys() {
        assertThatThrownBy(() -> module("{\"types\": [\"passport\"]}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("passport");
        assertThatThrownBy(() -> module("{\"typo\": true}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("typo");
        assertThatThrownBy(() -> module("{\"input\": \"maybe\"}")).isInstanceOf(IllegalArgumentException.class);
    }
}
