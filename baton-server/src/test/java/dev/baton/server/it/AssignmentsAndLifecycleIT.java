package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.runtime.session.EndReason;
import dev.baton.simulator.RecordedRequest;
import dev.baton.testkit.time.SettableClock;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Assignments, the configuration cascade and the session lifecycle over HTTP, with the simulator as the model and
 * a clock the test moves (so no test waits for time to pass).
 */
class AssignmentsAndLifecycleIT {

    @TempDir
    static Path dir;

    static SettableClock clock;
    static TestServer t;
    static StudyFixture.Recorder events = new StudyFixture.Recorder();

    @BeforeAll
    static void start() {
        clock = new SettableClock(StudyFixture.START);
        t = StudyFixture.start(dir, TestServer.sqliteUrl(dir), clock);
        t.server.runtime().sessionEvents().add(events);
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    static ApiClient.Response startSession(String token, String json) {
        return t.api.post("/v1/sessions", token, json);
    }

    static ApiClient.Response send(String token, String session, String content) {
        return t.api.post(
                "/v1/sessions/" + session + "/messages",
                token,
                ApiClient.JSON.createObjectNode().put("content", content).toString());
    }

    @Test
    void an_assignment_of_another_class_is_403_and_an_unknown_one_404() {
        assertThat(startSession(StudyFixture.token("nina", "bio-200"), "{\"assignmentId\":\"essay\"}")
                        .status())
                .isEqualTo(403);
        assertThat(startSession(StudyFixture.token("nina"), "{\"assignmentId\":\"essay\"}")
                        .status())
                .isEqualTo(403);
        var unknown = startSession(StudyFixture.token("nina", "eng-101"), "{\"assignmentId\":\"nope\"}");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.body().path("error").path("code").asText()).isEqualTo("not_found");
        // the assignment fixes the agent: another agent is refused
        assertThat(startSession(
                                StudyFixture.token("nina", "eng-101"),
                                "{\"agentId\":\"plain\",\"assignmentId\":\"essay\"}")
                        .status())
                .isEqualTo(422);
    }

    @Test
    void an_assignment_not_open_yet_or_already_closed_is_403() {
        String token = StudyFixture.token("omar", "eng-101");
        var later = startSession(token, "{\"assignmentId\":\"later\"}");
        assertThat(later.status()).isEqualTo(403);
        assertThat(later.body().path("error").path("message").asText()).contains("opens at");
        assertThat(startSession(token, "{\"assignmentId\":\"over\"}").status()).isEqualTo(403);
        var open = startSession(token, "{\"assignmentId\":\"essay\"}");
        assertThat(open.status()).isEqualTo(201);
        assertThat(open.body().path("agentId").asText()).isEqualTo("tutor");
        assertThat(open.body().path("assignmentId").asText()).isEqualTo("essay");
    }

    @Test
    void assignment_instructions_and_agent_constraints_reach_the_system_prompt() {
        String token = StudyFixture.token("pia", "eng-101");
        String withAssignment = startSession(token, "{\"assignmentId\":\"essay\"}")
                .body()
                .path("id")
                .asText();
        String without = t.api.startSession(token, "tutor");

        String prompt = systemPromptOf(token, withAssignment, "hello from the essay session");
        assertThat(prompt)
                .contains("## Core Behavior\nYou are a writing tutor.")
                .contains("## Assignment Context\nThe user is working on the assignment \"Persuasive essay\" for class"
                        + " eng-101.")
                .contains("Help the student outline a persuasive essay about school uniforms.")
                .contains("## Constraints\n- Stay on these topics: essay writing, rhetoric.\n"
                        + "- Never write the essay for the student.");
        assertThat(prompt.indexOf("## Assignment Context")).isLessThan(prompt.indexOf("## Constraints"));

        String plainPrompt = systemPromptOf(token, without, "hello from the free session");
        assertThat(plainPrompt).doesNotContain("## Assignment Context").contains("## Constraints");
    }

    private static String systemPromptOf(String token, String session, String content) {
        assertThat(send(token, session, content).status()).isEqualTo(200);
        RecordedRequest request = t.simulator.requests().stream()
                .filter(r -> content.equals(r.lastUserMessage()))
                .findFirst()
                .orElseThrow();
        JsonNode system = request.messages().getFirst();
        assertThat(system.path("role").asText()).isEqualTo("system");
        return system.path("content").asText();
    }

    @Test
    void max_messages_cascades_org_then_agent_then_assignment_and_the_last_turn_completes_the_session() {
        String token = StudyFixture.token("quinn", "eng-101");
        // org: 4 messages; the tutor agent: 3; the essay assignment: 2
        assertThat(messagesUntilCompleted(token, t.api.startSession(token, "plain")))
                .isEqualTo(4);
        assertThat(messagesUntilCompleted(token, t.api.startSession(token, "tutor")))
                .isEqualTo(3);
        String essay = startSession(token, "{\"assignmentId\":\"essay\"}")
                .body()
                .path("id")
                .asText();
        assertThat(messagesUntilCompleted(token, essay)).isEqualTo(2);

        // the answer of the last turn is kept; the session then refuses more with 409
        var messages =
                t.api.get("/v1/sessions/" + essay + "/messages", token).body().path("messages");
        assertThat(messages).hasSize(4);
        assertThat(messages.get(3).path("role").asText()).isEqualTo("assistant");
        var refused = send(token, essay, "one more?");
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.body().path("error").path("code").asText()).isEqualTo("session_completed");
        assertThat(events.of(essay))
                .extracting(StudyFixture.Recorder.Event::kind, StudyFixture.Recorder.Event::reason)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("started", null),
                        org.assertj.core.groups.Tuple.tuple("ended", EndReason.MAX_MESSAGES));
    }

    /** Sends messages until the session is completed; returns how many turns it took. */
    private static int messagesUntilCompleted(String token, String session) {
        for (int n = 1; n <= 10; n++) {
            assertThat(send(token, session, "message " + n).status()).isEqualTo(200);
            if (t.api.get("/v1/sessions/" + session, token)
                    .body()
                    .path("state")
                    .asText()
                    .equals("completed")) {
                return n;
            }
        }
        throw new AssertionError("session " + session + " never completed");
    }

    @Test
    void a_session_past_its_maximum_duration_is_completed_at_the_next_message_with_409() {
        String token = StudyFixture.token("rosa", "eng-101");
        String session = startSession(token, "{\"assignmentId\":\"quick\"}")
                .body()
                .path("id")
                .asText();
        assertThat(send(token, session, "first").status()).isEqualTo(200);

        clock.advance(Duration.ofMinutes(31));
        var refused = send(token, session, "second");

        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.body().path("error").path("code").asText()).isEqualTo("session_completed");
        JsonNode s = t.api.get("/v1/sessions/" + session, token).body();
        assertThat(s.path("state").asText()).isEqualTo("completed");
        assertThat(s.path("messageCount").asInt()).isEqualTo(2); // the refused message was not stored
        assertThat(events.of(session))
                .extracting(StudyFixture.Recorder.Event::reason)
                .containsExactly(null, EndReason.MAX_SESSION_DURATION);
    }

    @Test
    void the_inactivity_sweep_completes_sessions_idle_past_their_own_timeout_and_reports_each() {
        String token = StudyFixture.token("sam", "eng-101");
        String tutor = t.api.startSession(token, "tutor"); // 1h (agent level)
        String plain = t.api.startSession(token, "plain"); // 2h (org level)
        assertThat(send(token, tutor, "hi").status()).isEqualTo(200);
        assertThat(send(token, plain, "hi").status()).isEqualTo(200);

        clock.advance(Duration.ofMinutes(61));
        t.server.runtime().sessions().lifecycle().sweep(100);
        assertThat(state(token, tutor)).isEqualTo("completed");
        assertThat(state(token, plain)).isEqualTo("active");
        assertThat(send(token, plain, "still here").status()).isEqualTo(200); // activity resets its idle time

        clock.advance(Duration.ofMinutes(61));
        t.server.runtime().sessions().lifecycle().sweep(100);
        assertThat(state(token, plain)).isEqualTo("active");
        clock.advance(Duration.ofMinutes(60));
        t.server.runtime().sessions().lifecycle().sweep(100);
        assertThat(state(token, plain)).isEqualTo("completed");

        assertThat(send(token, tutor, "anyone?").status()).isEqualTo(409);
        assertThat(events.of(tutor))
                .extracting(StudyFixture.Recorder.Event::reason)
                .containsExactly(null, EndReason.INACTIVITY);
        assertThat(events.of(plain))
                .extracting(StudyFixture.Recorder.Event::reason)
                .containsExactly(null, EndReason.INACTIVITY);
    }

    @Test
    void starting_and_completing_by_the_user_are_reported_once_with_the_principal() {
        String token = StudyFixture.token("tara", "eng-101");
        String session = t.api.startSession(token, "tutor");
        assertThat(t.api.post("/v1/sessions/" + session + "/complete", token, "{}")
                        .status())
                .isEqualTo(200);
        assertThat(t.api.post("/v1/sessions/" + session + "/complete", token, "{}")
                        .status())
                .isEqualTo(409);

        assertThat(events.of(session))
                .extracting(
                        StudyFixture.Recorder.Event::kind,
                        StudyFixture.Recorder.Event::userId,
                        StudyFixture.Recorder.Event::reason)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("started", "tara", null),
                        org.assertj.core.groups.Tuple.tuple("ended", "tara", EndReason.USER));
    }

    @Test
    void resume_finds_the_newest_active_session_of_an_agent() {
        String token = StudyFixture.token("uma", "eng-101");
        String older = t.api.startSession(token, "tutor");
        clock.advance(Duration.ofSeconds(1));
        String newer = t.api.startSession(token, "tutor");
        t.api.post("/v1/sessions/" + older + "/complete", token, "{}");

        JsonNode active = t.api.get("/v1/sessions?agentId=tutor&state=active", token)
                .body()
                .path("sessions");
        assertThat(active).extracting(s -> s.path("id").asText()).containsExactly(newer);
    }

    static String state(String token, String session) {
        return t.api.get("/v1/sessions/" + session, token).body().path("state").asText();
    }
}
