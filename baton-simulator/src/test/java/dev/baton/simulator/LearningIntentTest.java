package dev.baton.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The learning design's edge cases, as the bundled learning-agent script reads them. */
class LearningIntentTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "learn something new",
                "let's try something else",
                "I want to learn something different",
                "pick something new",
                "show me other topics"
            })
    void meta_requests_are_restarts_not_topics(String message) {
        assertThat(LearningIntent.parse(message)).isInstanceOf(LearningIntent.Restart.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "it is", "sounds great", "that's correct", "perfect", "Yes please."})
    void affirmatives_confirm(String message) {
        assertThat(LearningIntent.parse(message)).isInstanceOf(LearningIntent.Confirm.class);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {"no, I meant physics|physics", "actually, astrophysics|astrophysics", "chemistry instead|chemistry"
            })
    void corrections_carry_the_new_topic(String message, String topic) {
        assertThat(LearningIntent.parse(message)).isEqualTo(new LearningIntent.Learn(topic, true));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "physics please|physics",
                "teach me quantum mechanics|quantum mechanics",
                "I want to learn chemistry|chemistry",
                "beginner maths|beginner maths",
                "quantam fisics|quantam fisics",
                "Schrödinger equation|Schrödinger equation"
            })
    void fillers_are_dropped_and_the_topic_kept_as_written(String message, String topic) {
        assertThat(LearningIntent.parse(message)).isEqualTo(new LearningIntent.Learn(topic, false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"self-harm", "tell me about suicide prevention"})
    void sensitive_topics_are_recognised(String message) {
        assertThat(LearningIntent.parse(message)).isInstanceOf(LearningIntent.Sensitive.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"teach me racist jokes", "you stupid bot"})
    void offensive_requests_are_recognised(String message) {
        assertThat(LearningIntent.parse(message)).isInstanceOf(LearningIntent.Offensive.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"no", "nope"})
    void a_plain_no_rejects(String message) {
        assertThat(LearningIntent.parse(message)).isInstanceOf(LearningIntent.Reject.class);
    }
}
