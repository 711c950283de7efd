package dev.baton.server.api.learning;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.domain.JsonFields;
import dev.baton.learning.Learner;
import dev.baton.learning.LearningModule;
import dev.baton.learning.assessment.NewGrade;
import dev.baton.learning.catalogue.CourseQuery;
import dev.baton.learning.engagement.NewQuestion;
import dev.baton.learning.tool.LearningJson;
import dev.baton.server.http.Caller;
import dev.baton.server.http.RequestBody;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code /v1/learning/courses}, {@code …/enrollments}, {@code …/grades} and {@code …/routes}: the same services the
 * platform's tools call, so a learner can do by hand exactly what the model can do for them. The services check
 * permissions, ownership and every rule; a refusal becomes its status in {@code ErrorResponses}.
 */
public final class LearningCourseRoutes {
    private final LearningModule learning;
    private final int maxBodyBytes;

    public LearningCourseRoutes(LearningModule learning, int maxBodyBytes) {
        this.learning = learning;
        this.maxBodyBytes = maxBodyBytes;
    }

    public void register(RoutesConfig routes) {
        routes.get("/v1/learning/courses", this::courses);
        routes.get(
                "/v1/learning/courses/{id}",
                ctx -> ctx.json(
                        one("course", LearningJson.course(learning.catalogue().course(Caller.of(ctx), id(ctx))))));
        routes.get(
                "/v1/learning/enrollments",
                ctx -> ctx.json(LearningJson.enrolments(learning.learning().enrolments(Caller.of(ctx)))));
        routes.post("/v1/learning/enrollments", this::enrol);
        routes.patch("/v1/learning/enrollments/{courseId}", this::progress);
        routes.get(
                "/v1/learning/grades",
                ctx -> ctx.json(
                        LearningJson.grades(learning.assessment().grades(Caller.of(ctx), ctx.queryParam("courseId")))));
        routes.post("/v1/learning/courses/{id}/grades", this::grade);
        routes.get("/v1/learning/courses/{id}/questions", this::questions);
        routes.post("/v1/learning/courses/{id}/questions", this::ask);
        routes.get(
                "/v1/learning/routes",
                ctx -> ctx.json(LearningJson.routes(learning.navigation().routes(Caller.of(ctx)))));
        routes.get("/v1/learning/routes/{name}", this::route);
    }

    private void courses(Context ctx) {
        Principal p = Caller.of(ctx);
        String query = ctx.queryParam("query");
        String category = ctx.queryParam("category");
        String level = ctx.queryParam("level");
        var found = query == null && category == null && level == null
                ? learning.catalogue().listCourses(p)
                : learning.catalogue().search(p, CourseQuery.of(query, category, level));
        ctx.json(LearningJson.courses(found));
    }

    private void enrol(Context ctx) {
        JsonFields body = LearningJson.fields(RequestBody.jsonObject(ctx, maxBodyBytes), Set.of("courseId"));
        var enrolment = learning.learning().enrol(Caller.of(ctx), body.text("courseId"));
        ctx.status(201).json(one("enrollment", LearningJson.enrolment(enrolment)));
    }

    private void progress(Context ctx) {
        JsonNode body = RequestBody.jsonObject(ctx, maxBodyBytes);
        LearningJson.fields(body, Set.of("progressPercent"));
        var enrolment = learning.learning()
                .updateProgress(
                        Caller.of(ctx), ctx.pathParam("courseId"), LearningJson.integer(body, "progressPercent"));
        ctx.json(one("enrollment", LearningJson.progress(LearningJson.MAPPER.createObjectNode(), enrolment)));
    }

    private void grade(Context ctx) {
        JsonNode body = RequestBody.jsonObject(ctx, maxBodyBytes);
        JsonFields fields = LearningJson.fields(body, Set.of("learnerId", "item", "points", "maxPoints"));
        NewGrade spec = new NewGrade(
                fields.text("learnerId"),
                fields.text("item"),
                LearningJson.integer(body, "points"),
                LearningJson.integer(body, "maxPoints"));
        var grade = learning.assessment().record(Caller.of(ctx), id(ctx), spec);
        ctx.status(201).json(one("grade", LearningJson.grade(grade)));
    }

    private void questions(Context ctx) {
        Principal p = Caller.of(ctx);
        ctx.json(LearningJson.questions(learning.engagement().questions(p, id(ctx)), Learner.of(p)));
    }

    private void ask(Context ctx) {
        Principal p = Caller.of(ctx);
        JsonFields body = LearningJson.fields(RequestBody.jsonObject(ctx, maxBodyBytes), Set.of("title", "body"));
        var question = learning.engagement().ask(p, id(ctx), new NewQuestion(body.text("title"), body.text("body")));
        ctx.status(201).json(one("question", LearningJson.question(question, Learner.of(p))));
    }

    private void route(Context ctx) {
        Map<String, String> params = new LinkedHashMap<>();
        ctx.queryParamMap().forEach((k, v) -> params.put(k, v.isEmpty() ? null : v.getFirst()));
        ctx.json(LearningJson.resolved(learning.navigation().resolve(Caller.of(ctx), ctx.pathParam("name"), params)));
    }

    private static String id(Context ctx) {
        return ctx.pathParam("id");
    }

    static ObjectNode one(String name, JsonNode value) {
        ObjectNode out = LearningJson.MAPPER.createObjectNode();
        out.set(name, value);
        return out;
    }
}
