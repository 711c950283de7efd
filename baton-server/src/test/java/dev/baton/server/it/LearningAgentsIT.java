package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.BundledScript;
import dev.baton.simulator.RecordedRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The learning and learning-platform agents over real HTTP, answered by the bundled simulator script: a tool turn for
 * every learning tool, each learner's data their own, the agent's memory in its prompt across conversations, and a
 * generateContent job completed by the background worker through the normal model gateway.
 */
class LearningAgentsIT {
    @TempDir
    static Path dir;

    static TestServer t;

    @BeforeAll
    static void start() {
        t = LearningFixture.start(dir, BundledScript.create());
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    // the learning-platform agent: one turn per platform tool

    @Test
    void list_and_search_courses() {
        String token = TestServer.token("pia");

        JsonNode listed = chat(token, "learning-platform", null, "list courses");
        assertThat(tools(listed)).containsExactly("list_courses");
        assertThat(listed.path("answer").asText()).contains("Calculus I (calculus-1");
        JsonNode searched = chat(token, "learning-platform", null, "search courses about physics");
        assertThat(tools(searched)).containsExactly("search_courses");
        assertThat(searched.path("answer").asText()).contains("Quantum Physics for Beginners");
    }

    @Test
    void enrol_by_name_searches_first_then_my_courses_shows_it_and_no_one_elses() {
        String token = TestServer.token("enzo");

        JsonNode enrolled = chat(token, "learning-platform", null, "enroll me in linear algebra");
        assertThat(tools(enrolled)).containsExactly("search_courses", "enroll_in_course");
        assertThat(enrolled.path("answer").asText()).isEqualTo("You're enrolled in Linear Algebra.");
        JsonNode twice = chat(token, "learning-platform", null, "enroll me in linear-algebra");
        assertThat(twice.path("answer").asText()).contains("already enrolled");
        assertThat(twice.at("/toolCalls/0/state").asText()).isNotEqualTo("succeeded");

        assertThat(chat(token, "learning-platform", null, "my courses")
                        .path("answer")
                        .asText())
                .contains("Linear Algebra: 0% done");
        JsonNode other = chat(TestServer.token("olga"), "learning-platform", null, "my courses");
        assertThat(tools(other)).containsExactly("get_my_enrollments");
        assertThat(other.path("answer").asText()).isEqualTo("You're not enrolled in any course yet.");
    }

    @Test
    void grades_cart_questions_and_routes() {
        String token = TestServer.token("gwen");
        t.api.post("/v1/learning/enrollments", token, "{\"courseId\":\"calculus-1\"}");
        t.api.post(
                "/v1/learning/courses/calculus-1/grades",
                TestServer.token("prof", "teacher"),
                "{\"learnerId\":\"gwen\",\"item\":\"Quiz 1\",\"points\":9,\"maxPoints\":10}");

        JsonNode grades = chat(token, "learning-platform", null, "my grades in calculus-1");
        assertThat(tools(grades)).containsExactly("get_course_grades");
        assertThat(grades.path("answer").asText()).contains("Quiz 1: 9/10");
        JsonNode cart = chat(token, "learning-platform", null, "add the resource quantum-workbook to my cart");
        assertThat(tools(cart)).containsExactly("add_to_cart");
        assertThat(t.api.get("/v1/learning/cart", token)
                        .body()
                        .at("/items/0/itemId")
                        .asText())
                .isEqualTo("quantum-workbook");
        JsonNode asked = chat(token, "learning-platform", null, "ask in calculus-1: what is a limit?");
        assertThat(tools(asked)).containsExactly("ask_question");
        assertThat(t.api.get("/v1/learning/courses/calculus-1/questions", token)
                        .body()
                        .path("count")
                        .asInt())
                .isEqualTo(1);
        JsonNode route = chat(token, "learning-platform", null, "open my cart");
        assertThat(tools(route)).containsExactly("navigate_to_route");
        assertThat(route.path("answer").asText()).isEqualTo("You'll find it at /cart.");
    }

    @Test
    void book_a_listed_lab_slot() {
        String token = TestServer.token("bo");
        String start = t.api.get("/v1/learning/labs/physics-lab/slots", token)
                .body()
                .at("/slots/0/slotStart")
                .asText();

        JsonNode booked = chat(token, "learning-platform", null, "book the physics lab at " + start);

        assertThat(tools(booked)).containsExactly("book_lab");
        assertThat(booked.path("answer").asText()).isEqualTo("Booked: physics-lab at " + start + ".");
        assertThat(t.api.get("/v1/learning/bookings", token)
                        .body()
                        .path("count")
                        .asInt())
                .isEqualTo(1);
    }

    // the learning agent: its six tools, its memory and a content job

    @Test
    void a_misspelt_topic_is_confirmed_then_prepared_by_a_background_job() {
        String token = TestServer.token("quinn");

        JsonNode asked = chat(token, "learning", null, "I want to learn quantam fisics");
        assertThat(tools(asked)).containsExactly("detectGranularity", "searchTopics", "confirmWithUser");
        assertThat(asked.path("answer").asText()).isEqualTo("Did you mean “Quantum physics”?");
        String conversation = asked.path("conversationId").asText();

        JsonNode confirmed = chat(token, "learning", conversation, "it is");
        assertThat(tools(confirmed)).containsExactly("storeDecision", "generateContent");
        assertThat(confirmed.path("answer").asText()).isEqualTo("Thank you. I'm putting that together now.");
        String jobId = confirmed.at("/toolCalls/1/result/jobId").asText();

        await().atMost(Duration.ofSeconds(20))
                .until(() -> t.api.get("/v1/learning/content-jobs/" + jobId, token)
                        .body()
                        .path("status")
                        .asText()
                        .equals("completed"));
        JsonNode job = t.api.get("/v1/learning/content-jobs/" + jobId, token).body();
        assertThat(job.path("topic").asText()).isEqualTo("Quantum physics");
        assertThat(job.path("content").asText()).startsWith("# Quantum physics").contains("Baton LLM simulator");
        assertThat(t.api.get("/v1/learning/content-jobs/" + jobId, TestServer.token("nosy"))
                        .status())
                .isEqualTo(404);

        JsonNode progress = chat(token, "learning", conversation, "how am I doing?");
        assertThat(tools(progress)).containsExactly("getUserProgress");
        assertThat(progress.path("answer").asText())
                .contains("You're working on Quantum physics")
                .contains("The material on Quantum physics is ready");
    }

    @Test
    void a_subject_gets_a_guiding_question_and_a_module_its_topic() {
        String token = TestServer.token("sol");

        assertThat(chat(token, "learning", null, "physics please")
                        .path("answer")
                        .asText())
                .startsWith("“Physics” is a broad subject.");
        assertThat(chat(token, "learning", null, "Schrödinger equation")
                        .path("answer")
                        .asText())
                .isEqualTo(
                        "“Schrödinger equation” is part of “Quantum physics”. Shall we start with “Quantum physics”?");
    }

    @Test
    void a_meta_request_restarts_without_preparing_anything() {
        String token = TestServer.token("meta");

        JsonNode restart = chat(token, "learning", null, "learn something new");

        assertThat(tools(restart)).containsExactly("storeDecision");
        assertThat(restart.at("/toolCalls/0/arguments/decision").asText()).isEqualTo("restart");
        assertThat(restart.path("answer").asText()).endsWith("?");
        assertThat(t.api.get("/v1/learning/content-jobs", token)
                        .body()
                        .path("count")
                        .asInt())
                .isZero();
    }

    @Test
    void memory_reaches_the_prompt_so_a_new_conversation_can_answer_the_pending_question() {
        String token = TestServer.token("mira");
        chat(token, "learning", null, "ledarship");
        t.simulator.clearRequests();

        JsonNode confirmed = chat(token, "learning", null, "yes");

        assertThat(tools(confirmed)).containsExactly("storeDecision", "generateContent");
        assertThat(confirmed.at("/toolCalls/0/arguments/data/topic").asText()).isEqualTo("Leadership");
        RecordedRequest first = t.simulator.requests().getFirst();
        assertThat(first.body().toString()).contains("What you remember about this learner");
        assertThat(t.api.get("/v1/learning/memory", token)
                        .body()
                        .path("currentTopic")
                        .asText())
                .isEqualTo("Leadership");
    }

    private static JsonNode chat(String token, String agent, String conversation, String message) {
        var body = ApiClient.JSON.createObjectNode().put("message", message);
        if (conversation != null) body.put("conversationId", conversation);
        else body.put("agentId", agent);
        var r = t.api.post("/v1/chat", token, body.toString());
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body();
    }

    private static List<String> tools(JsonNode chat) {
        List<String> names = new ArrayList<>();
        chat.path("toolCalls").forEach(c -> names.add(c.path("name").asText()));
        return names;
    }
}
