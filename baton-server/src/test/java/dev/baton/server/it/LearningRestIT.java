package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.simulator.SimulatorScript;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /v1/learning/...} over real HTTP: the same services the platform's tools call, each refusal with its precise
 * status and error body, and every learner's data their own.
 */
class LearningRestIT {
    @TempDir
    static Path dir;

    static TestServer t;

    @BeforeAll
    static void start() {
        t = LearningFixture.start(dir, SimulatorScript.replyingWith("unused"));
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    @Test
    void the_demo_catalogue_is_seeded_and_searchable() {
        String token = TestServer.token("lena");

        var all = t.api.get("/v1/learning/courses", token);
        assertThat(all.status()).isEqualTo(200);
        assertThat(all.body().path("count").asInt()).isEqualTo(12);
        var physics = t.api.get("/v1/learning/courses?category=Physics&level=beginner", token);
        assertThat(physics.body().path("courses"))
                .extracting(c -> c.path("id").asText())
                .containsExactly("astrophysics-intro", "quantum-physics-101");
        assertThat(t.api.get("/v1/learning/courses/calculus-1", token)
                        .body()
                        .at("/course/instructor")
                        .asText())
                .isEqualTo("Prof. Samuel Osei");
    }

    @Test
    void bad_filters_and_unknown_courses_get_precise_statuses() {
        String token = TestServer.token("lena");

        var level = t.api.get("/v1/learning/courses?level=expert", token);
        assertThat(level.status()).isEqualTo(422);
        assertThat(level.body().at("/error/code").asText()).isEqualTo("invalid_value");
        assertThat(level.body().at("/error/message").asText()).contains("beginner, intermediate, advanced");
        var missing = t.api.get("/v1/learning/courses/no-such-course", token);
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.body().at("/error/code").asText()).isEqualTo("not_found");
        assertThat(missing.body().at("/error/requestId").asText()).isNotBlank();
    }

    @Test
    void enrolling_twice_is_409_and_the_enrolment_is_only_the_learners() {
        String anna = TestServer.token("anna");

        var first = t.api.post("/v1/learning/enrollments", anna, "{\"courseId\":\"spanish-a1\"}");
        assertThat(first.status()).isEqualTo(201);
        assertThat(first.body().at("/enrollment/course/title").asText()).isEqualTo("Spanish A1");
        var again = t.api.post("/v1/learning/enrollments", anna, "{\"courseId\":\"spanish-a1\"}");
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.body().at("/error/code").asText()).isEqualTo("conflict");
        assertThat(again.body().at("/error/message").asText()).contains("already enrolled");

        assertThat(t.api.get("/v1/learning/enrollments", anna)
                        .body()
                        .path("count")
                        .asInt())
                .isEqualTo(1);
        assertThat(t.api.get("/v1/learning/enrollments", TestServer.token("ben"))
                        .body()
                        .path("count")
                        .asInt())
                .isZero();
    }

    @Test
    void malformed_bodies_are_400_and_bad_values_422() {
        String token = TestServer.token("mo");

        var noCourse = t.api.post("/v1/learning/enrollments", token, "{}");
        assertThat(noCourse.status()).isEqualTo(400);
        assertThat(noCourse.body().at("/error/message").asText()).contains("courseId must be a string");
        var smuggled = t.api.post("/v1/learning/enrollments", token, "{\"courseId\":\"calculus-1\",\"userId\":\"x\"}");
        assertThat(smuggled.status()).isEqualTo(400);
        assertThat(smuggled.body().at("/error/message").asText()).contains("unknown field 'userId'");
        var notJson = t.api.post("/v1/learning/enrollments", token, "{courseId:");
        assertThat(notJson.status()).isEqualTo(400);

        t.api.post("/v1/learning/enrollments", token, "{\"courseId\":\"calculus-1\"}");
        var text = t.api.patch("/v1/learning/enrollments/calculus-1", token, "{\"progressPercent\":\"half\"}");
        assertThat(text.status()).isEqualTo(400);
        assertThat(text.body().at("/error/message").asText()).contains("whole number");
        var tooMuch = t.api.patch("/v1/learning/enrollments/calculus-1", token, "{\"progressPercent\":101}");
        assertThat(tooMuch.status()).isEqualTo(422);
        var done = t.api.patch("/v1/learning/enrollments/calculus-1", token, "{\"progressPercent\":100}");
        assertThat(done.status()).isEqualTo(200);
        assertThat(done.body().at("/enrollment/status").asText()).isEqualTo("completed");
    }

    @Test
    void only_a_teacher_grades_and_each_learner_reads_only_their_grades() {
        String gina = TestServer.token("gina");
        String hal = TestServer.token("hal");
        String teacher = TestServer.token("prof", "teacher");
        t.api.post("/v1/learning/enrollments", gina, "{\"courseId\":\"linear-algebra\"}");
        t.api.post("/v1/learning/enrollments", hal, "{\"courseId\":\"linear-algebra\"}");
        String grade = "{\"learnerId\":\"gina\",\"item\":\"Exam\",\"points\":17,\"maxPoints\":20}";

        var byStudent = t.api.post("/v1/learning/courses/linear-algebra/grades", hal, grade);
        assertThat(byStudent.status()).isEqualTo(403);
        assertThat(byStudent.body().at("/error/code").asText()).isEqualTo("forbidden");
        assertThat(t.api.post("/v1/learning/courses/linear-algebra/grades", teacher, grade)
                        .status())
                .isEqualTo(201);
        var notEnrolled = t.api.post(
                "/v1/learning/courses/linear-algebra/grades",
                teacher,
                "{\"learnerId\":\"nobody\",\"item\":\"Exam\",\"points\":1,\"maxPoints\":2}");
        assertThat(notEnrolled.status()).isEqualTo(404);

        assertThat(t.api.get("/v1/learning/grades?courseId=linear-algebra", gina)
                        .body()
                        .at("/grades/0/points")
                        .asInt())
                .isEqualTo(17);
        assertThat(t.api.get("/v1/learning/grades", hal).body().path("count").asInt())
                .isZero();
    }

    @Test
    void the_cart_refuses_duplicates_and_bad_types() {
        String token = TestServer.token("cara");

        assertThat(t.api.post("/v1/learning/cart", token, "{\"itemId\":\"python-cheatsheet\",\"type\":\"resource\"}")
                        .status())
                .isEqualTo(201);
        assertThat(t.api.post("/v1/learning/cart", token, "{\"itemId\":\"python-cheatsheet\",\"type\":\"resource\"}")
                        .status())
                .isEqualTo(409);
        assertThat(t.api.post("/v1/learning/cart", token, "{\"itemId\":\"x\",\"type\":\"gift\"}")
                        .status())
                .isEqualTo(422);
        assertThat(t.api.get("/v1/learning/cart", TestServer.token("dan"))
                        .body()
                        .path("count")
                        .asInt())
                .isZero();
        assertThat(t.api.delete("/v1/learning/cart/resource/python-cheatsheet", token)
                        .status())
                .isEqualTo(204);
        assertThat(t.api.delete("/v1/learning/cart/resource/python-cheatsheet", token)
                        .status())
                .isEqualTo(404);
    }

    @Test
    void a_listed_slot_can_be_booked_once() {
        String token = TestServer.token("bea");
        String start = t.api.get("/v1/learning/labs/chemistry-lab/slots", token)
                .body()
                .at("/slots/0/slotStart")
                .asText();
        String body = "{\"labId\":\"chemistry-lab\",\"slotStart\":\"" + start + "\"}";

        var booked = t.api.post("/v1/learning/bookings", token, body);
        assertThat(booked.status()).isEqualTo(201);
        assertThat(booked.body().at("/booking/slotStart").asText()).isEqualTo(start);
        assertThat(t.api.post("/v1/learning/bookings", token, body).status()).isEqualTo(409);
        assertThat(t.api.get("/v1/learning/bookings", token)
                        .body()
                        .path("count")
                        .asInt())
                .isEqualTo(1);
        var badStart =
                t.api.post("/v1/learning/bookings", token, "{\"labId\":\"chemistry-lab\",\"slotStart\":\"noon\"}");
        assertThat(badStart.status()).isEqualTo(422);
    }

    @Test
    void course_questions_are_for_enrolled_learners_only() {
        String token = TestServer.token("quinn");
        String question = "{\"title\":\"Pace\",\"body\":\"How many hours a week?\"}";

        var outsider = t.api.post("/v1/learning/courses/world-history/questions", token, question);
        assertThat(outsider.status()).isEqualTo(403);
        assertThat(outsider.body().at("/error/message").asText()).contains("Enrol first");
        t.api.post("/v1/learning/enrollments", token, "{\"courseId\":\"world-history\"}");
        assertThat(t.api.post("/v1/learning/courses/world-history/questions", token, question)
                        .status())
                .isEqualTo(201);
        assertThat(t.api.get("/v1/learning/courses/world-history/questions", token)
                        .body()
                        .at("/questions/0/mine")
                        .asBoolean())
                .isTrue();
    }

    @Test
    void routes_resolve_and_an_unknown_route_is_422() {
        String token = TestServer.token("rui");

        assertThat(t.api.get("/v1/learning/routes/course_detail?course_id=calculus-1", token)
                        .body()
                        .path("path")
                        .asText())
                .isEqualTo("/courses/calculus-1");
        assertThat(t.api.get("/v1/learning/routes/moon", token).status()).isEqualTo(422);
        assertThat(t.api.get("/v1/learning/routes", token).body().path("count").asInt())
                .isEqualTo(13);
    }

    @Test
    void no_token_is_401_and_no_learning_permission_is_403() {
        assertThat(t.api.get("/v1/learning/courses", null).status()).isEqualTo(401);
        var guest = t.api.get("/v1/learning/enrollments", TestServer.token("gus", "guest"));
        assertThat(guest.status()).isEqualTo(403);
        assertThat(guest.body().at("/error/message").asText()).contains("learning:read:self");
    }
}
