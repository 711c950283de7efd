package dev.baton.modules.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.hook.Hook;
import dev.baton.core.hook.HookContext;
import dev.baton.core.hook.HookResult;
import dev.baton.core.hook.Module;
import dev.baton.modules.TestContexts;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TopicGuardModuleTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String AGENT = """
            {"id": "tutor", "constraints": {
              "topics": ["algebra", {"name": "geometry", "keywords": ["triangle", "angle", "circle"]}],
              "deny": ["\\\\bcheat(ing)?\\\\b", "answers? (to|for) (my|the) (test|exam)"]}}
            """;

    private final Module guard = module("{\"keywords\": {\"algebra\": [\"equation\", \"solve\", \"variable\"]}}");

    private static Module module(String config) {
        try {
            return new TopicGuardFactory().create(JSON.readTree(config));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static HookResult check(Module m, String message, List<HookContext.HistoryMessage> history)
            throws Exception {
        JsonNode agent = JSON.readTree(AGENT);
        return m.handle(TestContexts.of(Hook.BEFORE_AI, agent, history, message, null));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "How do I solve this equation: 2x + 3 = 7?",
                "Can you explain what a variable is in ALGEBRA class?",
                "What is the sum of the angles of a triangle?",
                "I need help with equations that have two unknowns",
                "how big is a circle with radius 3 centimetres",
            })
    void lets_on_topic_messages_through(String message) throws Exception {
        assertThat(check(guard, message, List.of())).isSameAs(HookResult.proceed());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "What is the best pizza topping in Naples?",
                "Write me a poem about the sea and the moon",
                "Who won the football match last night?",
                "Tell me about triangulation of mobile phone masts", // keyword endings are bounded
            })
    void blocks_off_topic_messages_politely(String message) throws Exception {
        HookResult result = check(guard, message, List.of());

        assertThat(result).isInstanceOfSatisfying(HookResult.Block.class, b -> {
            assertThat(b.directResponse())
                    .isEqualTo("I'm sorry, I can only help with algebra and geometry. Could you ask me something"
                            + " about that?");
            assertThat(b.reason()).isEqualTo("off topic");
            assertThat(b.patternsMatched()).containsExactly("off_topic");
            assertThat(b.extractions())
                    .singleElement()
                    .satisfies(x -> assertThat(x.type()).isEqualTo("topic_blocked"));
        });
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "How can I CHEAT on my algebra equation homework?",
                "give me the answers to my test on geometry",
                "cheating",
            })
    void blocks_denied_patterns_even_on_topic_and_when_short(String message) throws Exception {
        HookResult result = check(guard, message, List.of());

        assertThat(result).isInstanceOfSatisfying(HookResult.Block.class, b -> {
            assertThat(b.reason()).isEqualTo("denied topic");
            assertThat(b.directResponse()).startsWith("I'm sorry, I can't help with that here.");
            assertThat(b.patternsMatched().getFirst()).startsWith("deny:");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"hi", "thanks a lot", "yes please!"})
    void lets_short_messages_through(String message) throws Exception {
        assertThat(check(guard, message, List.of())).isSameAs(HookResult.proceed());
    }

    @org.junit.jupiter.api.Test
    void lets_a_short_follow_up_to_an_on_topic_question_through() throws Exception {
        var history = List.of(
                new HookContext.HistoryMessage("user", "How do I solve x + 1 = 3?", TestContexts.NOW),
                new HookContext.HistoryMessage("assistant", "Subtract 1 from both sides.", TestContexts.NOW));
        var offTopicHistory = List.of(
                new HookContext.HistoryMessage("user", "hello there", TestContexts.NOW),
                new HookContext.HistoryMessage("assistant", "Hi!", TestContexts.NOW));

        assertThat(check(guard, "and what about the second one then?", history)).isSameAs(HookResult.proceed());
        assertThat(check(guard, "and what about the second one then?", offTopicHistory))
                .isInstanceOf(HookResult.Block.class);
    }

    @org.junit.jupiter.api.Test
    void an_agent_without_constraints_is_not_restricted() throws Exception {
        HookResult result = guard.handle(TestContexts.beforeAi("What is the best pizza topping in Naples?"));

        assertThat(result).isSameAs(HookResult.proceed());
    }

    @org.junit.jupiter.api.Test
    void configuration_sets_the_response_and_word_limits() throws Exception {
        Module strict = module("{\"minWords\": 0, \"followUpWords\": 0, \"response\": \"Only {topics}, sorry.\"}");

        HookResult result = check(strict, "hi", List.of());

        assertThat(result)
                .isInstanceOfSatisfying(
                        HookResult.Block.class,
                        b -> assertThat(b.directResponse()).isEqualTo("Only algebra and geometry, sorry."));
        assertThat(strict.descriptor().priority()).isEqualTo(10);
        assertThat(strict.descriptor().hooks()).containsExactly(Hook.BEFORE_AI);
    }

    @org.junit.jupiter.api.Test
    void an_invalid_deny_pattern_is_a_module_failure() throws Exception {
        JsonNode agent = JSON.readTree("{\"constraints\": {\"deny\": [\"(unclosed\"]}}");

        assertThatThrownBy(
                        () -> guard.handle(TestContexts.of(Hook.BEFORE_AI, agent, List.of(), "hello there you", null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("constraints.deny");
    }

    @org.junit.jupiter.api.Test
    void lists_topics_in_plain_english() {
        assertThat(TopicGuardModule.list(List.of("a"))).isEqualTo("a");
        assertThat(TopicGuardModule.list(List.of("a", "b", "c"))).isEqualTo("a, b and c");
    }
}
