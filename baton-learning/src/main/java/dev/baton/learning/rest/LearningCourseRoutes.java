package dev.baton.learning.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.domain.JsonFields;
import dev.baton.domain.rest.RestRequest;
import dev.baton.domain.rest.RestResponse;
import dev.baton.domain.rest.RouteGroup;
import dev.baton.domain.rest.Routes;
import dev.baton.learning.Learner;
import dev.baton.learning.LearningModule;
import dev.baton.learning.assessment.NewGrade;
import dev.baton.learning.catalogue.CourseQuery;
import dev.baton.learning.engagement.NewQuestion;
import dev.baton.learning.tool.LearningJson;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code /v1/learning/courses}, {@code …/enrollments}, {@code …/grades} and {@code …/routes}: the same services the
 * platform's tools call, so a learner can do by hand exactly what the model can do for them. The services check
 * permissions, ownership and every rule; a refusal becomes its status in {@code ErrorResponses}.
 */
public final class LearningCourseRoutes implements RouteGroup {
    private final LearningModule learning;

    public LearningCourseRoutes(LearningModule learning) {
        this.learning = learning;
    }

    @Override
    public void register(Routes routes) {
        routes.get("/v1/learning/courses", this::courses);
        routes.get(
                "/v1/learning/courses/{id}",
                req -> RestResponse.ok(
                        one("course", LearningJson.course(learning.catalogue().course(req.caller(), id(req))))));
        routes.get(
                "/v1/learning/enrollments",
                req -> RestResponse.ok(
                        LearningJson.enrolments(learning.learning().enrolments(req.caller()))));
        routes.post("/v1/learning/enrollments", this::enrol);
        routes.patch("/v1/learning/enrollments/{courseId}", this::progress);
        routes.get(
                "/v1/learning/grades",
                req -> RestResponse.ok(
                        LearningJson.grades(learning.assessment().grades(req.caller(), req.queryParam("courseId")))));
        routes.post("/v1/learning/courses/{id}/grades", this::grade);
        routes.get("/v1/learning/courses/{id}/questions", this::questions);
        routes.post("/v1/learning/courses/{id}/questions", this::ask);
        routes.get(
                "/v1/learning/routes",
                req -> RestResponse.ok(LearningJson.routes(learning.navigation().routes(req.caller()))));
        routes.get("/v1/learning/routes/{name}", this::route);
    }

    private RestResponse courses(RestRequest req) {
        Principal p = req.caller();
        String query = req.queryParam("query");
        String category = req.queryParam("category");
        String level = req.queryParam("level");
        var found = query == null && category == null && level == null
                ? learning.catalogue().listCourses(p)
                : learning.catalogue().search(p, CourseQuery.of(query, category, level));
        return RestResponse.ok(LearningJson.courses(found));
    }

    private RestResponse enrol(RestRequest req) {
        JsonFields body = LearningJson.fields(req.body(), Set.of("courseId"));
        var enrolment = learning.learning().enrol(req.caller(), body.text("courseId"));
        return RestResponse.created(one("enrollment", LearningJson.enrolment(enrolment)));
    }

    private RestResponse progress(RestRequest req) {
        JsonNode body = req.body();
        LearningJson.fields(body, Set.of("progressPercent"));
        var enrolment = learning.learning()
                .updateProgress(req.caller(), req.pathParam("courseId"), LearningJson.integer(body, "progressPercent"));
        return RestResponse.ok(
                one("enrollment", LearningJson.progress(LearningJson.MAPPER.createObjectNode(), enrolment)));
    }

    private RestResponse grade(RestRequest req) {
        JsonNode body = req.body();
        JsonFields fields = LearningJson.fields(body, Set.of("learnerId", "item", "points", "maxPoints"));
        NewGrade spec = new NewGrade(
                fields.text("learnerId"),
                fields.text("item"),
                LearningJson.integer(body, "points"),
                LearningJson.integer(body, "maxPoints"));
        var grade = learning.assessment().record(req.caller(), id(req), spec);
        return RestResponse.created(one("grade", LearningJson.grade(grade)));
    }

    private RestResponse questions(RestRequest req) {
        Principal p = req.caller();
        return RestResponse.ok(LearningJson.questions(learning.engagement().questions(p, id(req)), Learner.of(p)));
    }

    private RestResponse ask(RestRequest req) {
        Principal p = req.caller();
        JsonFields body = LearningJson.fields(req.body(), Set.of("title", "body"));
        var question = learning.engagement().ask(p, id(req), new NewQuestion(body.text("title"), body.text("body")));
        return RestResponse.created(one("question", LearningJson.question(question, Learner.of(p))));
    }

    private RestResponse route(RestRequest req) {
        Map<String, String> params = new LinkedHashMap<>(req.queryParams());
        return RestResponse.ok(
                LearningJson.resolved(learning.navigation().resolve(req.caller(), req.pathParam("name"), params)));
    }

    private static String id(RestRequest req) {
        return req.pathParam("id");
    }

    static ObjectNode one(String name, JsonNode value) {
        ObjectNode out = LearningJson.MAPPER.createObjectNode();
        out.set(name, value);
        return out;
    }
}
