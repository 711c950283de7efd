package dev.baton.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The learning agent's bundled script: what its answers say. */
class LearningAgentScriptTest {
    private static final SimulatorScript BUNDLED = BundledScript.create();

    private static String text(Reply reply) {
        assertThat(reply).isInstanceOf(Reply.Text.class);
        return ((Reply.Text) reply).content();
    }

    private static Reply answer(ChatBody body) {
        return BUNDLED.answer(body.recorded()).reply();
    }

    @Test
    void how_am_i_doing_names_a_topic_prepared_twice_once_as_its_newest_job_stands() {
        var progress = ChatBody.create()
                .tools("searchTopics", "detectGranularity", "getUserProgress", "generateContent")
                .user("how am I doing?")
                .assistantCalls("c1", "getUserProgress", "{}")
                .toolResult(
                        "c1",
                        "{\"currentTopic\":\"Quantum physics\",\"enrollments\":[],\"content\":["
                                + "{\"topic\":\"Quantum physics\",\"status\":\"queued\"},"
                                + "{\"topic\":\"Quantum physics\",\"status\":\"completed\"},"
                                + "{\"topic\":\"Leadership\",\"status\":\"completed\"}]}");

        assertThat(text(answer(progress)))
                .isEqualTo("You're working on Quantum physics. The material on Quantum physics is being prepared."
                        + " The material on Leadership is ready.");
    }
}
