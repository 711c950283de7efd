package dev.baton.learning.tool;

import static dev.baton.learning.tool.ToolCalls.fieldNames;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.tool.Tool;
import dev.baton.core.tool.ToolException;
import dev.baton.learning.LearningModule;
import dev.baton.learning.assessment.NewGrade;
import dev.baton.learning.support.Learners;
import dev.baton.learning.support.TestDatabases;
import dev.baton.testkit.time.SettableClock;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The nine platform tools over a real SQLite database: argument mapping, result shapes and refusals. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PlatformToolsIT {
    private static final Instant NOW = Instant.parse("2026-11-18T08:00:00Z");

    private final SettableClock clock = new SettableClock(NOW);
    private TestDatabases.Opened opened;
    private LearningModule module;
    private ToolCalls tools;
    private Principal alice;
    private Principal bob;

    @BeforeAll
    void open() throws Exception {
        opened = TestDatabases.sqlite();
        module = LearningModule.create(opened.database(), clock);
        module.seedCatalogue(LearningModule.demoCatalogue());
        tools = new ToolCalls(module.platformTools());
    }

    @AfterAll
    void close() throws Exception {
        opened.close();
    }

    @BeforeEach
    void newLearners() {
        alice = Learners.newLearner();
        bob = Learners.newLearner();
    }

    @Test
    void the_source_offers_exactly_the_nine_tools_the_platform_names() {
        assertThat(module.platformTools().name()).isEqualTo("learning-platform");
        assertThat(module.platformTools().tools())
                .extracting(t -> t.definition().name())
                .containsExactly(
                        "list_courses",
                        "get_my_enrollments",
                        "enroll_in_course",
                        "get_course_grades",
                        "search_courses",
                        "add_to_cart",
                        "book_lab",
                        "ask_question",
                        "navigate_to_route");
        for (Tool tool : module.platformTools().tools()) {
            assertThat(tool.definition().requiredPermissions()).isNotEmpty();
            assertThat(tool.definition()
                            .parametersSchema()
                            .path("additionalProperties")
                            .asBoolean(true))
                    .as(tool.definition().name())
                    .isFalse();
        }
    }

    @Test
    void list_courses_returns_courses_with_instructor_category_and_level() {
        JsonNode result = tools.call("list_courses", alice, "{}");

        assertThat(fieldNames(result)).containsExactly("courses", "count");
        assertThat(result.get("count").asInt()).isEqualTo(12);
        assertThat(fieldNames(result.get("courses").get(0)))
                .containsExactly("id", "title", "summary", "instructor", "category", "level", "open", "priceCents");
    }

    @Test
    void search_courses_maps_query_category_and_level() {
        JsonNode result = tools.call(
                "search_courses",
                alice,
                "{\"query\": \"physics\", \"category\": \"Physics\", \"level\": \"intermediate\"}");

        assertThat(result.get("count").asInt()).isEqualTo(1);
        assertThat(result.get("courses").get(0).get("id").asText()).isEqualTo("classical-mechanics");
        assertThat(tools.refusal("search_courses", alice, "{\"query\": \"x\", \"level\": \"guru\"}")
                        .code())
                .isEqualTo("invalid_argument");
    }

    @Test
    void enroll_then_get_my_enrollments_shows_the_course_with_progress() {
        JsonNode enrolled = tools.call("enroll_in_course", alice, "{\"course_id\": \"calculus-1\"}");

        assertThat(enrolled.get("enrollment").get("course").get("title").asText())
                .isEqualTo("Calculus I");
        assertThat(enrolled.get("enrollment").get("progressPercent").asInt()).isZero();
        JsonNode mine = tools.call("get_my_enrollments", alice, "{}");
        assertThat(mine.get("count").asInt()).isEqualTo(1);
        assertThat(mine.get("enrollments").get(0).get("courseId").asText()).isEqualTo("calculus-1");
        assertThat(tools.call("get_my_enrollments", bob, "{}").get("count").asInt())
                .isZero();
    }

    @Test
    void enrolling_twice_reaches_the_model_as_a_conflict_with_the_domains_message() {
        tools.call("enroll_in_course", alice, "{\"course_id\": \"calculus-1\"}");

        ToolException twice = tools.refusal("enroll_in_course", alice, "{\"course_id\": \"calculus-1\"}");

        assertThat(twice.code()).isEqualTo("conflict");
        assertThat(twice.getMessage()).contains("already enrolled in 'Calculus I'");
        assertThat(tools.refusal("enroll_in_course", alice, "{\"course_id\": \"nope\"}")
                        .code())
                .isEqualTo("not_found");
    }

    @Test
    void get_course_grades_returns_only_the_callers_grades() {
        Principal teacher = Learners.newInstructor();
        module.learning().enrol(alice, "spanish-a1");
        module.learning().enrol(bob, "spanish-a1");
        module.assessment().record(teacher, "spanish-a1", new NewGrade(alice.userId(), "Oral", 8, 10));
        module.assessment().record(teacher, "spanish-a1", new NewGrade(bob.userId(), "Oral", 3, 10));

        JsonNode mine = tools.call("get_course_grades", alice, "{\"course_id\": \"spanish-a1\"}");

        assertThat(mine.get("count").asInt()).isEqualTo(1);
        assertThat(mine.get("grades").get(0).get("points").asInt()).isEqualTo(8);
        assertThat(fieldNames(mine.get("grades").get(0)))
                .containsExactly("id", "courseId", "courseTitle", "item", "points", "maxPoints", "gradedAt");
        assertThat(tools.call("get_course_grades", alice, "{}").get("count").asInt())
                .isEqualTo(1);
    }

    @Test
    void add_to_cart_adds_once_and_another_learners_cart_stays_empty() {
        JsonNode added = tools.call("add_to_cart", alice, "{\"item_id\": \"chem-lab-kit\", \"type\": \"resource\"}");

        assertThat(added.get("item").get("title").asText()).isEqualTo("Home Chemistry Lab Kit");
        assertThat(tools.refusal("add_to_cart", alice, "{\"item_id\": \"chem-lab-kit\", \"type\": \"resource\"}")
                        .code())
                .isEqualTo("conflict");
        assertThat(module.commerce().cart(bob).items()).isEmpty();
    }

    @Test
    void book_lab_books_the_named_slot() {
        JsonNode booked = tools.call(
                "book_lab", alice, "{\"lab_id\": \"computer-lab\", \"slot_start\": \"2026-11-19T11:00:00Z\"}");

        assertThat(booked.get("booking").get("labId").asText()).isEqualTo("computer-lab");
        assertThat(booked.get("booking").get("slotStart").asText()).isEqualTo("2026-11-19T11:00:00Z");
        assertThat(tools.refusal("book_lab", alice, "{\"lab_id\": \"computer-lab\", \"slot_start\": \"soon\"}")
                        .code())
                .isEqualTo("invalid_argument");
    }

    @Test
    void ask_question_needs_an_enrolment_and_returns_the_question_as_mine() {
        String args = "{\"course_id\": \"world-history\", \"title\": \"Sources\", \"body\": \"Which books?\"}";
        assertThat(tools.refusal("ask_question", alice, args).code()).isEqualTo("permission_denied");
        module.learning().enrol(alice, "world-history");

        JsonNode asked = tools.call("ask_question", alice, args);

        assertThat(asked.get("question").get("title").asText()).isEqualTo("Sources");
        assertThat(asked.get("question").get("mine").asBoolean()).isTrue();
    }

    @Test
    void navigate_to_route_fills_in_parameters_and_knows_its_routes() {
        JsonNode route = tools.call(
                "navigate_to_route",
                alice,
                "{\"route_name\": \"lab_booking\", \"params\": {\"lab_id\": \"physics-lab\"}}");

        assertThat(route.get("path").asText()).isEqualTo("/labs/physics-lab/book");
        assertThat(tools.call("navigate_to_route", alice, "{\"route_name\": \"cart\"}")
                        .get("path")
                        .asText())
                .isEqualTo("/cart");
        assertThat(tools.refusal("navigate_to_route", alice, "{\"route_name\": \"lab_booking\"}")
                        .code())
                .isEqualTo("invalid_argument");
        assertThat(tools.tool("navigate_to_route")
                        .definition()
                        .parametersSchema()
                        .at("/properties/route_name/enum"))
                .hasSize(13);
    }

    @Test
    void an_argument_the_tool_does_not_know_is_malformed_not_ignored() {
        ToolException smuggled = tools.refusal("get_my_enrollments", alice, "{\"user_id\": \"" + bob.userId() + "\"}");

        assertThat(smuggled.code()).isEqualTo("invalid_request");
        assertThat(smuggled.getMessage()).contains("unknown field 'user_id'");
    }
}
