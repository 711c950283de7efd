package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.baton.server.api.OpenApiRoutes;
import dev.baton.server.http.HttpRoute;
import dev.baton.simulator.BundledScript;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenAPI document served at {@code /openapi.json} against the server that serves it: every route the server
 * answers is documented and every documented operation is a route; every example matches its schema; the document
 * parses as OpenAPI 3.1; and what the server really answers on a few main routes matches the documented schemas.
 */
class OpenApiDocumentIT {

    /**
     * Path prefixes of routes the document does not describe yet: doors being built beside it. Add a door's prefix
     * here until its routes are in {@code openapi/baton.yaml}, and take it out once they are.
     */
    static final List<String> NOT_YET_DOCUMENTED = List.of();

    @TempDir
    static Path dir;

    static TestServer t;
    static OpenApiDocument document;

    @BeforeAll
    static void start() {
        // learners with the task and learning permissions, and the bundled script: real tool calls and approvals
        t = LearningFixture.start(dir, BundledScript.create());
        var served = t.api.get("/openapi.json", null);
        assertThat(served.status()).isEqualTo(200);
        document = new OpenApiDocument(served.body());
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    @Test
    void every_route_the_server_answers_is_documented() {
        Set<String> documented = document.routes(false);
        List<String> missing = t.server.routes().stream()
                .filter(r -> !notYetDocumented(r) && !webAppFile(r))
                .map(HttpRoute::toString)
                .filter(r -> !documented.contains(r))
                .toList();
        assertThat(missing)
                .as("routes the server answers that openapi/baton.yaml lacks")
                .isEmpty();
        // the comparison ran over the real routing table, not an empty one
        assertThat(t.server.routes()).contains(new HttpRoute("POST", "/v1/sessions/{id}/messages"));
    }

    @Test
    void every_documented_operation_is_a_route_of_the_server() {
        Set<String> served = new TreeSet<>();
        t.server.routes().forEach(r -> served.add(r.toString()));
        Set<String> documented = document.routes(true);
        assertThat(documented).hasSizeGreaterThan(80);
        assertThat(documented.stream().filter(r -> !served.contains(r)).toList())
                .as("documented operations the server does not answer")
                .isEmpty();
    }

    @Test
    void every_example_matches_its_schema() {
        List<String> failures = new ArrayList<>();
        List<String> checked = new ArrayList<>();
        document.forEachExample((where, schema, example) -> {
            checked.add(where);
            var errors = document.validate(schema, example.toString());
            if (!errors.isEmpty()) failures.add(where + ": " + errors);
        });
        assertThat(checked).as("examples found").hasSizeGreaterThan(40);
        assertThat(failures).isEmpty();
    }

    @Test
    void an_example_that_breaks_its_schema_is_caught() {
        // the check above would pass on a validator that accepts anything: this one must not be accepted
        JsonNode errorSchema = ApiClient.JSON.createObjectNode().put("$ref", "#/components/schemas/Error");
        var errors = document.validate(errorSchema, "{\"error\":{\"code\":\"not_found\"}}");
        assertThat(errors).isNotEmpty();
    }

    @Test
    void the_document_is_valid_openapi_3_1() {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        options.setValidateInternalRefs(true);
        SwaggerParseResult parsed =
                new OpenAPIV3Parser().readContents(document.tree().toString(), null, options);
        assertThat(parsed.getMessages()).isEmpty();
        assertThat(parsed.getOpenAPI().getOpenapi()).isEqualTo("3.1.0");
        assertThat(parsed.getOpenAPI().getInfo().getTitle()).isNotBlank();
        assertThat(parsed.getOpenAPI().getComponents().getSecuritySchemes()).containsKey("bearerAuth");

        // operation ids are unique, and every operation that needs a token documents the 401 it gets without one
        Set<String> ids = new LinkedHashSet<>();
        List<String> problems = new ArrayList<>();
        document.forEachOperation((path, method, operation) -> {
            String where = method.toUpperCase() + " " + path;
            if (operation.has("operationId")
                    && !ids.add(operation.get("operationId").asText()))
                problems.add(where + ": operationId used twice");
            boolean isPublic =
                    operation.has("security") && operation.get("security").isEmpty();
            if (!isPublic && !operation.path("responses").has("401")) problems.add(where + ": no 401 documented");
        });
        assertThat(problems).isEmpty();
    }

    @Test
    void the_errors_share_one_documented_body() {
        JsonNode error = document.at("/components/schemas/Error");
        assertThat(error.at("/properties/error/required"))
                .extracting(JsonNode::asText)
                .containsExactlyInAnyOrder("code", "message", "requestId");
        // and the server's real errors match it: no token, and another user's session
        validateLive("/components/schemas/Error", t.api.get("/v1/sessions", null), 401);
        validateLive(
                "/components/schemas/Error", t.api.get("/v1/sessions/nobody-s-session", TestServer.token("ana")), 404);
    }

    @Test
    void the_main_answers_of_the_server_match_their_documented_schemas() {
        String token = TestServer.token("olga");
        validateLive(OpenApiDocument.responseSchema("/healthz", "get", "200"), t.api.get("/healthz", null), 200);
        validateLive(OpenApiDocument.responseSchema("/readyz", "get", "200"), t.api.get("/readyz", null), 200);
        validateLive(OpenApiDocument.responseSchema("/v1/agents", "get", "200"), t.api.get("/v1/agents", token), 200);
        validateLive(OpenApiDocument.responseSchema("/v1/tools", "get", "200"), t.api.get("/v1/tools", token), 200);
        validateLive(
                "/components/responses/OneTask/content/application~1json/schema",
                t.api.post("/v1/tasks", token, "{\"title\":\"file taxes\",\"dueDate\":\"2030-04-15\"}"),
                201);
        validateLive(OpenApiDocument.responseSchema("/v1/tasks", "get", "200"), t.api.get("/v1/tasks", token), 200);
        validateLive(
                OpenApiDocument.responseSchema("/v1/sessions", "post", "201"),
                t.api.post("/v1/sessions", token, "{\"agentId\":\"tasks\"}"),
                201);
        String session = t.api.startSession(token, "tasks");
        validateLive(
                "/components/schemas/MessageAnswer",
                t.api.post("/v1/sessions/" + session + "/messages", token, "{\"content\":\"hello\"}"),
                200);
        validateLive(
                OpenApiDocument.responseSchema("/v1/sessions/{id}/messages", "get", "200"),
                t.api.get("/v1/sessions/" + session + "/messages", token),
                200);
        validateLive(
                OpenApiDocument.responseSchema("/v1/sessions", "get", "200"), t.api.get("/v1/sessions", token), 200);
        validateLive(
                "/components/schemas/ChatAnswer",
                t.api.post("/v1/chat", token, "{\"message\":\"hi\",\"agentId\":\"tasks\"}"),
                200);
        validateLive(
                OpenApiDocument.responseSchema("/api/{user_id}/chat", "post", "200"),
                t.api.post("/api/olga/chat", token, "{\"message\":\"list my tasks\"}"),
                200);
    }

    @Test
    void the_designs_answers_match_their_documented_schemas() {
        String token = TestServer.token("pia");
        validateLive(
                "/components/responses/AiLayerAnswer/content/application~1json/schema",
                t.api.post("/v1/ai/chat", token, "{\"prompt\":\"list courses\"}"),
                200);
        validateLive(
                OpenApiDocument.responseSchema("/api/agent/chat", "post", "200"),
                t.api.post("/api/agent/chat", token, "{\"message\":\"hello\"}"),
                200);
        validateLive(
                OpenApiDocument.responseSchema("/api/agent/memory/{userId}", "get", "200"),
                t.api.get("/api/agent/memory/pia", token),
                200);
        var started = t.api.post("/sessions", token, "{\"toolId\":\"tasks\"}");
        validateLive(OpenApiDocument.responseSchema("/sessions", "post", "201"), started, 201);
        String id = started.body().path("id").asText();
        validateLive(
                OpenApiDocument.responseSchema("/sessions", "get", "200"),
                t.api.get("/sessions?toolId=tasks", token),
                200);
        validateLive(
                OpenApiDocument.responseSchema("/sessions/{id}", "get", "200"),
                t.api.get("/sessions/" + id, token),
                200);
        validateLive(
                "/components/responses/Audit/content/application~1json/schema",
                t.api.get("/admin/sessions/" + id + "/audit", TestServer.token("root", "admin")),
                200);
        validateLive(
                OpenApiDocument.responseSchema("/sessions/{id}/cancel", "post", "200"),
                t.api.post("/sessions/" + id + "/cancel", token, ""),
                200);
        validateLive(
                OpenApiDocument.responseSchema("/v1/learning/courses/{id}", "get", "200"),
                t.api.get("/v1/learning/courses/calculus-1", token),
                200);
        validateLive(
                OpenApiDocument.responseSchema("/v1/learning/content-jobs", "post", "202"),
                t.api.post("/v1/learning/content-jobs", token, "{\"topic\":\"derivatives\"}"),
                202);
    }

    @Test
    void the_learning_domain_s_answers_match_their_documented_schemas() {
        String token = TestServer.token("lea");
        String learning = "/v1/learning";
        validateLive(
                OpenApiDocument.responseSchema(learning + "/courses", "get", "200"),
                t.api.get(learning + "/courses", token),
                200);
        validateLive(
                OpenApiDocument.responseSchema(learning + "/enrollments", "post", "201"),
                t.api.post(learning + "/enrollments", token, "{\"courseId\":\"calculus-1\"}"),
                201);
        validateLive(
                OpenApiDocument.responseSchema(learning + "/enrollments", "get", "200"),
                t.api.get(learning + "/enrollments", token),
                200);
        validateLive(
                OpenApiDocument.responseSchema(learning + "/enrollments/{courseId}", "patch", "200"),
                t.api.patch(learning + "/enrollments/calculus-1", token, "{\"progressPercent\":40}"),
                200);
        validateLive(
                OpenApiDocument.responseSchema(learning + "/grades", "get", "200"),
                t.api.get(learning + "/grades", token),
                200);
        validateLive(
                OpenApiDocument.responseSchema(learning + "/courses/{id}/questions", "post", "201"),
                t.api.post(
                        learning + "/courses/calculus-1/questions",
                        token,
                        "{\"title\":\"Chain rule\",\"body\":\"Why?\"}"),
                201);
        validateLive(
                OpenApiDocument.responseSchema(learning + "/courses/{id}/questions", "get", "200"),
                t.api.get(learning + "/courses/calculus-1/questions", token),
                200);
        validateLive(
                OpenApiDocument.responseSchema(learning + "/routes", "get", "200"),
                t.api.get(learning + "/routes", token),
                200);
        validateLive(
                OpenApiDocument.responseSchema(learning + "/cart", "get", "200"),
                t.api.get(learning + "/cart", token),
                200);
        var labs = t.api.get(learning + "/labs", token);
        validateLive(OpenApiDocument.responseSchema(learning + "/labs", "get", "200"), labs, 200);
        String lab = labs.body().path("labs").path(0).path("id").asText();
        var slots = t.api.get(learning + "/labs/" + lab + "/slots", token);
        validateLive(OpenApiDocument.responseSchema(learning + "/labs/{id}/slots", "get", "200"), slots, 200);
        validateLive(
                OpenApiDocument.responseSchema(learning + "/bookings", "post", "201"),
                t.api.post(
                        learning + "/bookings",
                        token,
                        ApiClient.JSON
                                .createObjectNode()
                                .put("labId", lab)
                                .put(
                                        "slotStart",
                                        slots.body()
                                                .path("slots")
                                                .path(0)
                                                .path("slotStart")
                                                .asText())
                                .toString()),
                201);
        validateLive(
                OpenApiDocument.responseSchema(learning + "/bookings", "get", "200"),
                t.api.get(learning + "/bookings", token),
                200);
        validateLive(
                OpenApiDocument.responseSchema(learning + "/content-jobs", "get", "200"),
                t.api.get(learning + "/content-jobs", token),
                200);
    }

    @Test
    void every_event_the_streams_send_is_documented_with_its_data() {
        String token = TestServer.token("ivo");
        List<String> seen = new ArrayList<>();
        String session = t.api.startSession(token, "tasks");
        String messages = "/v1/sessions/{id}/messages";
        seen.addAll(checkStream(messages, "post", t.api.stream(session, token, "add a task to buy milk tomorrow")));
        // a destructive call is held: approval_required, then done awaiting_approval
        seen.addAll(checkStream(messages, "post", t.api.stream(session, token, "delete buy milk")));
        var paused = t.api.get("/v1/sessions/" + session, token);
        validateLive(OpenApiDocument.responseSchema("/v1/sessions/{id}", "get", "200"), paused, 200);
        String callId =
                paused.body().path("pendingApprovals").path(0).path("callId").asText();
        validateLive(
                "/components/responses/TurnAnswer/content/application~1json/schema",
                t.api.post("/v1/sessions/" + session + "/approvals/" + callId, token, "{\"decision\":\"approve\"}"),
                200);
        validateLive(
                "/components/responses/Audit/content/application~1json/schema",
                t.api.get("/v1/admin/sessions/" + session + "/audit", TestServer.token("root", "admin")),
                200);

        seen.addAll(checkStream(
                "/chat/stream",
                "post",
                t.api.openStream("/chat/stream", token, "{\"input\":\"add a task to buy eggs tomorrow\"}")));
        String runtime = t.api.post("/sessions", token, "{\"toolId\":\"tasks\"}")
                .body()
                .path("id")
                .asText();
        String runtimeMessages = "/sessions/" + runtime + "/messages";
        seen.addAll(checkStream(
                "/sessions/{id}/messages",
                "post",
                t.api.openStream(runtimeMessages, token, "{\"content\":\"add a task to buy bread\"}")));

        assertThat(seen)
                .contains(
                        messages + " turn.started",
                        messages + " tool_call",
                        messages + " tool_result",
                        messages + " approval_required",
                        messages + " done",
                        "/chat/stream tool_call",
                        "/chat/stream response_delta",
                        "/chat/stream done",
                        "/sessions/{id}/messages tool_call",
                        "/sessions/{id}/messages tool_result",
                        "/sessions/{id}/messages done");
    }

    @Test
    void every_event_stream_in_the_document_names_its_events() {
        List<String> streams = new ArrayList<>();
        document.forEachOperation((path, method, operation) -> {
            JsonNode eventStream =
                    document.resolve(operation.at("/responses/200")).at("/content/text~1event-stream/schema");
            if (!eventStream.isMissingNode()) {
                streams.add(method + " " + path);
                JsonNode stream = document.resolve(eventStream);
                // a stream of data-only lines (OpenAI's chunks, A2A's JSON-RPC responses) has fewer kinds of data,
                // and so has a stream of notifications (GET /v1/events: ready, message)
                int least = stream.path("x-baton-data-only").asBoolean()
                                || stream.path("x-baton-notifications").asBoolean()
                        ? 2
                        : 5;
                assertThat(stream.path("x-baton-events").size())
                        .as(method + " " + path)
                        .isGreaterThanOrEqualTo(least);
            }
        });
        assertThat(streams).hasSizeGreaterThanOrEqualTo(6);
    }

    @Test
    void the_document_is_served_as_json_without_a_token_and_revalidated_by_its_etag() throws Exception {
        JsonNode source;
        try (InputStream in = OpenApiRoutes.class.getResourceAsStream(OpenApiRoutes.RESOURCE)) {
            source = new YAMLMapper().readTree(in);
        }
        assertThat(document.tree()).isEqualTo(source);

        HttpClient http = HttpClient.newHttpClient();
        URI uri = URI.create("http://127.0.0.1:" + t.server.port() + "/openapi.json");
        HttpResponse<String> first =
                http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(first.headers().firstValue("Content-Type"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
        assertThat(first.headers().firstValue("Cache-Control")).hasValue("no-cache");
        String etag = first.headers().firstValue("ETag").orElseThrow();
        HttpResponse<String> again = http.send(
                HttpRequest.newBuilder(uri).header("If-None-Match", etag).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(again.statusCode()).isEqualTo(304);
        assertThat(again.body()).isEmpty();
        HttpResponse<String> stale = http.send(
                HttpRequest.newBuilder(uri).header("If-None-Match", "\"other\"").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(stale.statusCode()).isEqualTo(200);
    }

    // --- the server's answers, checked against the document ------------------------------------------------

    private static void validateLive(String schemaPointer, ApiClient.Response response, int status) {
        assertThat(response.status()).as(response.raw()).isEqualTo(status);
        JsonNode schema = document.at(schemaPointer);
        assertThat(schema.isMissingNode()).as("documented: " + schemaPointer).isFalse();
        var errors = document.validate(schema, response.raw());
        assertThat(errors).as(schemaPointer + " against " + response.raw()).isEmpty();
    }

    /**
     * Reads the stream to its end and checks each event against the {@code x-baton-events} of the route's documented
     * {@code text/event-stream}: the event's name is listed, and its data matches the schema listed for it.
     *
     * @return "path event" of each event read
     */
    private static List<String> checkStream(String path, String method, ApiClient.SseStream stream) {
        List<String> seen = new ArrayList<>();
        try (stream) {
            assertThat(stream.status).isEqualTo(200);
            JsonNode schema = document.resolve(document.resolve(
                            document.tree().get("paths").get(path).get(method).at("/responses/200"))
                    .at("/content/text~1event-stream/schema"));
            JsonNode events = schema.get("x-baton-events");
            assertThat(events).as("events of " + method + " " + path).isNotNull();
            for (SseEvent event : stream.all()) {
                seen.add(path + " " + event.event());
                assertThat(events.has(event.event()))
                        .as(path + " sends " + event.event() + ", which its document does not name")
                        .isTrue();
                var errors = document.validate(
                        events.get(event.event()), event.data().toString());
                assertThat(errors)
                        .as(path + " " + event.event() + " " + event.data())
                        .isEmpty();
            }
        }
        assertThat(seen).isNotEmpty();
        return seen;
    }

    // --- the server's routes -------------------------------------------------------------------------------------

    private static boolean notYetDocumented(HttpRoute route) {
        return NOT_YET_DOCUMENTED.stream().anyMatch(route.path()::startsWith);
    }

    /** The web app's own files and libraries: documented once, as {@code GET /}. */
    private static boolean webAppFile(HttpRoute route) {
        return route.method().equals("GET")
                && (route.path().endsWith(".html")
                        || route.path().endsWith(".css")
                        || route.path().endsWith(".js"));
    }
}
