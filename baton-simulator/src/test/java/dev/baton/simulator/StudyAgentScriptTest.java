package dev.baton.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** The study agent's requests on the bundled simulator get study answers, never the task agent's help. */
class StudyAgentScriptTest {
    private static final SimulatorScript BUNDLED = BundledScript.create();

    private static ChatBody study() {
        return ChatBody.create()
                .system("You are a patient study companion.")
                .tools("get_assignment_info", "search_prior_sessions", "create_note", "get_current_time");
    }

    private static Reply answer(ChatBody body) {
        return BUNDLED.answer(body.recorded()).reply();
    }

    private static String text(Reply reply) {
        assertThat(reply).isInstanceOf(Reply.Text.class);
        return ((Reply.Text) reply).content();
    }

    private static Reply.ToolCall onlyCall(Reply reply) {
        assertThat(reply).isInstanceOf(Reply.ToolCalls.class);
        var calls = ((Reply.ToolCalls) reply).calls();
        assertThat(calls).hasSize(1);
        return calls.getFirst();
    }

    @Test
    void a_study_question_gets_a_guiding_question_not_the_task_help() {
        String answer = text(answer(study().user("help me understand photosynthesis")));

        assertThat(answer)
                .startsWith("Let's work through photosynthesis together.")
                .contains("what do you already know about photosynthesis?")
                .doesNotContain(TaskAgentScript.HELP);
    }

    @Test
    void a_request_for_graded_work_is_declined_with_an_offer_to_guide() {
        assertThat(text(answer(study().user("write my essay about school uniforms"))))
                .startsWith("I can't write graded work for you");
    }

    @Test
    void remember_that_saves_a_note_and_the_answer_names_what_the_tool_saved() throws Exception {
        var call = onlyCall(answer(study().user("remember that mitochondria make ATP")));
        assertThat(call.name()).isEqualTo("create_note");
        JsonNode arguments = ChatBody.JSON.readTree(call.argumentsJson());
        assertThat(arguments.path("content").asText()).isEqualTo("mitochondria make ATP");
        assertThat(arguments.path("title").asText()).isEqualTo("Mitochondria make ATP");

        String saved = text(answer(study().user("remember that mitochondria make ATP")
                .assistantCalls("c1", "create_note", call.argumentsJson())
                .toolResult("c1", "{\"note\":{\"id\":\"n1\",\"title\":\"Mitochondria make ATP\"}}")));
        assertThat(saved).isEqualTo("Saved your note “Mitochondria make ATP”.");
        String refused = text(answer(study().user("remember that mitochondria make ATP")
                .assistantCalls("c1", "create_note", call.argumentsJson())
                .toolResult("c1", "{\"error\":{\"code\":\"forbidden\",\"message\":\"Not allowed.\"}}")));
        assertThat(refused).isEqualTo("I couldn't do that: Not allowed.");
    }

    @Test
    void the_assignment_and_earlier_sessions_are_looked_up_with_their_tools() throws Exception {
        assertThat(onlyCall(answer(study().user("what is my assignment?"))).name())
                .isEqualTo("get_assignment_info");
        var search = onlyCall(answer(study().user("what did we say about cell walls?")));
        assertThat(search.name()).isEqualTo("search_prior_sessions");
        assertThat(ChatBody.JSON.readTree(search.argumentsJson()).path("query").asText())
                .isEqualTo("cell walls");

        String found = text(answer(study().user("what did we say about cell walls?")
                .assistantCalls("c1", "search_prior_sessions", search.argumentsJson())
                .toolResult("c1", "{\"results\":[{\"snippet\":\"cell walls are made of cellulose\"}],\"count\":1}")));
        assertThat(found)
                .isEqualTo(
                        "Here's what we said before: “cell walls are made of cellulose”. Shall we build on" + " that?");
    }

    @Test
    void anything_else_gets_the_study_companion_help() {
        assertThat(text(answer(study().user("hello")))).isEqualTo(StudyAgentScript.HELP);
    }
}
