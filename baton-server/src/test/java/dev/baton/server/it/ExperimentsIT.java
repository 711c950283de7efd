package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Pacing;
import dev.baton.simulator.Reply;
import dev.baton.simulator.Rule;
import dev.baton.simulator.SimulatorScript;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * An experiment over real HTTP: agent {@code helper} (model simulator:steady, answering at once) against
 * {@code helper-v2} (model simulator:slow, whose every answer waits 400 ms for its first token). Users are split
 * sticky between the arms; once the slow arm has enough turns its p95 latency breaks the 300 ms trigger, the rollback
 * job sets its weight to 0, and new sessions go to the control while existing ones finish on their arm.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ExperimentsIT {
    static final String ID = "helper-v2-rollout";
    static final Set<String> CHAT =
            Set.of("tasks:read:self", "tasks:write:self", "sessions:read:self", "sessions:write:self");

    @TempDir
    static Path dir;

    static LlmSimulator simulator;
    static TestServer t;
    static String admin;
    /** user → the agent their first session got. */
    static final Map<String, String> armOf = new HashMap<>();
    /** A session on the slow arm, started before the rollback. */
    static String treatedSession;

    static String treatedUser;

    @BeforeAll
    static void start() throws IOException {
        Rule slow = Rule.of(
                        "slow-arm",
                        request -> request.model().contains("slow")
                                ? Optional.of(Reply.text("slow answer"))
                                : Optional.empty())
                .withPacing(Pacing.INSTANT.withFirstTokenLatency(Duration.ofMillis(400)));
        simulator = LlmSimulator.start(SimulatorScript.builder()
                .rule(slow)
                .always(Reply.text("steady answer"))
                .build());
        Path agents = Files.createDirectories(dir.resolve("agents"));
        Files.writeString(agents.resolve("helper.yaml"), "id: helper\nmodel: simulator:steady\nsystemPrompt: Help.\n");
        Files.writeString(
                agents.resolve("helper-v2.yaml"),
                "id: helper-v2\nmodel: simulator:slow\nsystemPrompt: Help briefly.\n");
        JsonNode raw = ConfigLoader.yamlMapper().readTree("""
                experiments:
                  evaluateEvery: 200ms
                  refreshEvery: 0s
                  definitions:
                    helper-v2-rollout:
                      baseAgent: helper
                      arms:
                        - { name: control, agent: helper, weight: 50 }
                        - { name: treatment, agent: helper-v2, weight: 50 }
                      rollback: { window: 1h, minSample: 4, minUsers: 2, maxP95Latency: 300ms }
                flags:
                  agent_orchestrator_v1: true
                """);
        BatonConfig config = new BatonConfig(
                0,
                TestServer.sqliteUrl(dir),
                TestServer.SECRET,
                new ModelSettings("simulator:default", null, null, Map.of()),
                TurnLimits.DEFAULTS,
                Map.of("student", CHAT, "admin", union(CHAT, Set.of("admin:experiments", "admin:flags"))),
                List.of(agents),
                BatonConfig.DEFAULT_MAX_BODY_BYTES,
                raw,
                Map.of("FF_FROM_ENV", "25%"));
        t = TestServer.start(config, simulator, false, Clock.systemUTC());
        admin = LimitsFixture.token("ops", "default", "admin", Instant.now());
    }

    @AfterAll
    static void stop() {
        if (t != null) t.close();
        if (simulator != null) simulator.close();
    }

    static String student(String user) {
        return LimitsFixture.token(user, "default", "student", Instant.now());
    }

    @Test
    @Order(1)
    void the_configured_experiment_is_listed_for_admins_only() {
        ApiClient.Response list = t.api.get("/v1/admin/experiments", admin);

        assertThat(list.status()).isEqualTo(200);
        assertThat(list.body().path("experiments")).singleElement().satisfies(e -> {
            assertThat(e.path("id").asText()).isEqualTo(ID);
            assertThat(e.path("arms").findValuesAsText("weight")).containsExactly("50", "50");
            assertThat(e.path("treating").asBoolean()).isTrue();
        });
        assertThat(t.api.get("/v1/admin/experiments", student("nosy")).status()).isEqualTo(403);
        assertThat(t.api.get("/v1/admin/experiments/nope", admin).status()).isEqualTo(404);
    }

    @Test
    @Order(2)
    void users_are_split_between_the_arms_and_stay_in_theirs() {
        for (int u = 0; u < 30; u++) {
            String user = "user-" + u;
            String first = agentOf(t.api.startSession(student(user), "helper"), user);
            String second = agentOf(t.api.startSession(student(user), "helper"), user);
            assertThat(second).as(user + " stays in one arm").isEqualTo(first);
            armOf.put(user, first);
        }
        // 30 users at 50/50: both arms empty-handed would take a chance of 2^-29
        assertThat(armOf.values()).contains("helper", "helper-v2").containsOnly("helper", "helper-v2");
    }

    @Test
    @Order(3)
    void the_slow_arm_is_rolled_back_once_its_p95_breaks_the_trigger_and_new_sessions_go_to_the_control() {
        List<String> treated = armOf.entrySet().stream()
                .filter(e -> e.getValue().equals("helper-v2"))
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
        List<String> controlled = armOf.entrySet().stream()
                .filter(e -> e.getValue().equals("helper"))
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
        treatedUser = treated.getFirst();
        treatedSession = t.api.startSession(student(treatedUser), "helper");
        for (String user : controlled.subList(0, Math.min(3, controlled.size()))) {
            String session = t.api.startSession(student(user), "helper");
            assertThat(send(session, user).path("answer").asText()).isEqualTo("steady answer");
        }
        // four slow turns: the minimum sample
        for (int i = 0; i < 4; i++) {
            String user = treated.get(i % treated.size());
            String session = t.api.startSession(student(user), "helper");
            assertThat(send(session, user).path("answer").asText()).isEqualTo("slow answer");
        }

        JsonNode report = await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> t.api.get("/v1/admin/experiments/" + ID, admin).body(), r -> weight(r, "treatment") == 0);

        assertThat(weight(report, "control")).isEqualTo(50);
        JsonNode slowArm = metricsOf(report, "treatment");
        assertThat(slowArm.path("turns").asLong()).isGreaterThanOrEqualTo(4);
        assertThat(slowArm.path("p95LatencyMs").asLong()).isGreaterThanOrEqualTo(400);
        assertThat(metricsOf(report, "control").path("turns").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(report.path("audit").get(0).path("action").asText()).isEqualTo("rolled_back");
        assertThat(report.path("audit").get(0).path("actor").asText()).isEqualTo("system");
        assertThat(report.path("audit").get(0).path("detail").path("triggers").path("treatment"))
                .anySatisfy(f -> assertThat(f.path("trigger").asText()).isEqualTo("p95_latency"));
        // the evidence the decision rested on: the slow turns of at least two users
        JsonNode evidence =
                report.path("audit").get(0).path("detail").path("evidence").path("treatment");
        assertThat(evidence.path("turns").asLong()).isGreaterThanOrEqualTo(4);
        assertThat(evidence.path("users").asLong()).isGreaterThanOrEqualTo(2);
        assertThat(evidence.path("p95LatencyMs").asLong()).isGreaterThanOrEqualTo(400);
        PrometheusScrape scrape =
                PrometheusScrape.parse(t.api.get("/metrics", null).raw());
        assertThat(scrape.value(
                        "baton_experiment_rollbacks_total",
                        "experiment",
                        ID,
                        "arm",
                        "treatment",
                        "trigger",
                        "p95_latency"))
                .isEqualTo(1.0);
        assertThat(scrape.has("baton_experiment_turns_total", "experiment", ID, "arm", "treatment", "outcome", "ok"))
                .isTrue();

        // new sessions of a treated user go to the control now
        assertThat(agentOf(t.api.startSession(student(treatedUser), "helper"), treatedUser))
                .isEqualTo("helper");
        // the session started before the rollback finishes on its arm
        assertThat(agentOf(treatedSession, treatedUser)).isEqualTo("helper-v2");
        assertThat(send(treatedSession, treatedUser).path("answer").asText()).isEqualTo("slow answer");
    }

    @Test
    @Order(4)
    void an_operator_moves_weights_step_by_step_and_every_step_is_audited() {
        ApiClient.Response ten = t.api.patch(
                "/v1/admin/experiments/" + ID,
                admin,
                "{\"weights\":{\"control\":90,\"treatment\":10},\"reason\":\"week 1\"}");
        assertThat(ten.status()).isEqualTo(200);
        assertThat(ten.body().path("version").asLong()).isGreaterThan(2);

        JsonNode report = t.api.get("/v1/admin/experiments/" + ID, admin).body();
        assertThat(weight(report, "treatment")).isEqualTo(10);
        JsonNode step = report.path("audit").get(0);
        assertThat(step.path("action").asText()).isEqualTo("weights_changed");
        assertThat(step.path("actor").asText()).isEqualTo("ops");
        assertThat(step.path("detail").path("from").path("treatment").asInt()).isZero();
        assertThat(step.path("detail").path("to").path("treatment").asInt()).isEqualTo(10);
        assertThat(step.path("detail").path("reason").asText()).isEqualTo("week 1");
    }

    @Test
    @Order(5)
    void an_eval_run_below_the_accuracy_limit_shows_on_its_arm_and_rolls_it_back() {
        ApiClient.Response run = t.api.post(
                "/v1/admin/experiments/" + ID + "/arms/treatment/evals",
                admin,
                "{\"suite\":\"learning-edge-cases\",\"scenarios\":33,\"passed\":27}");
        assertThat(run.status()).isEqualTo(201);
        assertThat(run.body().path("passRate").asDouble()).isBetween(0.81, 0.82);

        JsonNode report = await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> t.api.get("/v1/admin/experiments/" + ID, admin).body(), r -> weight(r, "treatment") == 0);

        assertThat(metricsOf(report, "treatment").path("evalPassRate").asDouble())
                .isBetween(0.81, 0.82);
        assertThat(metricsOf(report, "control").path("evalPassRate").isNull()).isTrue();
        assertThat(PrometheusScrape.parse(t.api.get("/metrics", null).raw())
                        .value("baton_experiment_eval_pass_rate", "experiment", ID, "arm", "treatment"))
                .isBetween(0.81, 0.82);
        JsonNode rollback = null;
        for (JsonNode entry : report.path("audit"))
            if (rollback == null && entry.path("action").asText().equals("rolled_back")) rollback = entry;
        assertThat(rollback)
                .as("the newest rollback in %s", report.path("audit"))
                .isNotNull();
        assertThat(rollback.path("detail").path("triggers").path("treatment"))
                .anySatisfy(f -> assertThat(f.path("trigger").asText()).isEqualTo("eval_pass_rate"));
    }

    @Test
    @Order(6)
    void bad_requests_get_precise_statuses() {
        String path = "/v1/admin/experiments/" + ID;
        assertThat(t.api.patch(path, admin, "{\"weights\":{\"tretment\":10}}").status())
                .isEqualTo(422);
        assertThat(t.api.patch(path, admin, "{\"weights\":{\"treatment\":-1}}").status())
                .isEqualTo(422);
        assertThat(t.api.patch(path, admin, "{\"weights\":{\"treatment\":\"ten\"}}")
                        .status())
                .isEqualTo(400);
        assertThat(t.api.patch(path, admin, "{\"weights\":{}}").status()).isEqualTo(400);
        assertThat(t.api.patch(path, student("nosy"), "{\"weights\":{\"treatment\":10}}")
                        .status())
                .isEqualTo(403);
        assertThat(t.api.patch("/v1/admin/experiments/nope", admin, "{\"weights\":{\"a\":1}}")
                        .status())
                .isEqualTo(404);
        assertThat(t.api.get(path + "?window=soon", admin).status()).isEqualTo(400);
        assertThat(t.api.post(path + "/arms/treatment/evals", admin, "{\"scenarios\":3,\"passed\":4}")
                        .status())
                .isEqualTo(422);
        assertThat(t.api.post(path + "/arms/nope/evals", admin, "{\"scenarios\":3,\"passed\":1}")
                        .status())
                .isEqualTo(404);
        // creating: an unknown key, an unknown agent, a taken base agent
        assertThat(t.api.post("/v1/admin/experiments", admin, "{\"id\":\"x\",\"baseAgent\":\"helper\",\"arm\":[]}")
                        .status())
                .isEqualTo(400);
        assertThat(t.api.post(
                                "/v1/admin/experiments",
                                admin,
                                "{\"id\":\"x\",\"baseAgent\":\"tasks\",\"arms\":[{\"name\":\"a\",\"agent\":\"tasks\"},"
                                        + "{\"name\":\"b\",\"agent\":\"tasks-v9\"}]}")
                        .status())
                .isEqualTo(422);
        assertThat(t.api.post(
                                "/v1/admin/experiments",
                                admin,
                                "{\"id\":\"again\",\"baseAgent\":\"helper\",\"arms\":[{\"name\":\"a\",\"agent\":\"helper\"},"
                                        + "{\"name\":\"b\",\"agent\":\"helper-v2\"}]}")
                        .status())
                .isEqualTo(422);
    }

    @Test
    @Order(7)
    void an_experiment_created_over_the_api_routes_new_sessions() {
        ApiClient.Response created = t.api.post(
                "/v1/admin/experiments",
                admin,
                "{\"id\":\"tasks-all-in\",\"baseAgent\":\"tasks\",\"arms\":[{\"name\":\"old\",\"agent\":\"tasks\",\"weight\":0},"
                        + "{\"name\":\"new\",\"agent\":\"helper\",\"weight\":1}]}");
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.body().path("control").asText()).isEqualTo("old");

        assertThat(agentOf(t.api.startSession(student("zed"), "tasks"), "zed")).isEqualTo("helper");
    }

    @Test
    @Order(9)
    void the_learning_designs_api_keeps_one_conversation_on_the_arm_it_started_on() {
        ApiClient.Response created = t.api.post(
                "/v1/admin/experiments",
                admin,
                "{\"id\":\"learning-agent\",\"baseAgent\":\"learning\",\"arms\":[{\"name\":\"classic\","
                        + "\"agent\":\"learning\",\"weight\":0},{\"name\":\"agent\",\"agent\":\"helper\",\"weight\":1}]}");
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        String learner = student("learner");

        ApiClient.Response first = t.api.post("/api/agent/chat", learner, "{\"message\":\"hi\"}");
        ApiClient.Response second = t.api.post("/api/agent/chat", learner, "{\"message\":\"again\"}");

        assertThat(first.status()).as(first.raw()).isEqualTo(200);
        assertThat(first.body().path("message").asText()).isEqualTo("steady answer");
        assertThat(second.body().path("conversationId").asText())
                .isEqualTo(first.body().path("conversationId").asText());
        assertThat(agentOf(first.body().path("conversationId").asText(), "learner"))
                .isEqualTo("helper");
    }

    @Test
    @Order(8)
    void flags_come_from_the_file_and_ff_variables_and_change_at_runtime() {
        JsonNode flags = t.api.get("/v1/admin/flags", admin).body().path("flags");
        assertThat(flags.findValuesAsText("name")).contains("agent_orchestrator_v1", "from_env");

        ApiClient.Response set = t.api.put("/v1/admin/flags/from_env", admin, "{\"percentage\":75}");
        assertThat(set.status()).isEqualTo(200);
        assertThat(set.body().path("source").asText()).isEqualTo("runtime");
        assertThat(t.api.put("/v1/admin/flags/from_env", admin, "{\"percentage\":150}")
                        .status())
                .isEqualTo(422);
        assertThat(t.api.put("/v1/admin/flags/from_env", admin, "{\"on\":\"yes\"}")
                        .status())
                .isEqualTo(400);
        assertThat(t.api.put("/v1/admin/flags/Bad-Name", admin, "{\"on\":true}").status())
                .isEqualTo(400);
        assertThat(t.api.put("/v1/admin/flags/from_env", student("nosy"), "{\"on\":true}")
                        .status())
                .isEqualTo(403);
        ApiClient.Response cleared = t.api.delete("/v1/admin/flags/from_env", admin);
        assertThat(cleared.body().path("percentage").asInt()).isEqualTo(25);
        assertThat(cleared.body().path("source").asText()).isEqualTo("env");
        assertThat(t.api.delete("/v1/admin/flags/from_env", admin).status()).isEqualTo(404);
    }

    @Test
    @Order(10)
    void baton_eval_attaches_its_pass_rate_to_an_arm_of_a_running_server() throws Exception {
        Path work = Files.createDirectories(dir.resolve("eval"));
        // one scenario the task script passes, one it cannot: a pass rate of 50%
        Files.writeString(work.resolve("suite.yaml"), EvalProcessIT.HALF_PASSING);
        String url = "http://127.0.0.1:" + t.server.port();

        BatonProcess.Run run = eval(work, "--threshold", "0.5", "--attach", ID + "/control", "--url", url);

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("recorded on experiment " + ID + ", arm control: pass rate 50.0%");
        JsonNode report = t.api.get("/v1/admin/experiments/" + ID, admin).body();
        assertThat(metricsOf(report, "control").path("evalPassRate").asDouble()).isEqualTo(0.5);
        assertThat(report.path("audit").get(0).path("action").asText()).isEqualTo("eval_recorded");
        assertThat(report.path("audit").get(0).path("actor").asText()).isEqualTo("ops");
        // the accuracy alert reads the gauge the recorded run sets
        java.util.Set<String> experimentSeries =
                ObservabilityAssets.seriesIn(ObservabilityAssets.alertExpressions(ObservabilityAssets.alertRules()))
                        .stream()
                        .filter(name -> name.startsWith("baton_experiment_"))
                        .collect(java.util.stream.Collectors.toSet());
        assertThat(experimentSeries).contains("baton_experiment_eval_pass_rate");
        assertThat(PrometheusScrape.parse(t.api.get("/metrics", null).raw()).names())
                .containsAll(experimentSeries);

        BatonProcess.Run unknownArm = BatonProcess.run(
                work,
                Map.of("BATON_TOKEN", admin),
                "",
                "eval",
                "--suite",
                "suite.yaml",
                "--threshold",
                "0.5",
                "--attach",
                ID + "/nope",
                "--url",
                url);
        assertThat(unknownArm.exitCode()).isEqualTo(8);
        assertThat(unknownArm.output()).contains("HTTP 404");
        assertThat(unknownArm.hasStackTrace()).isFalse();

        BatonProcess.Run malformed = eval(work, "--attach", ID);
        assertThat(malformed.exitCode()).isEqualTo(2);
        assertThat(malformed.output()).contains("--attach takes EXPERIMENT/ARM");
    }

    /** {@code baton eval --suite suite.yaml ARGS} in {@code work}, with the admin's token in $BATON_TOKEN. */
    private static BatonProcess.Run eval(Path work, String... args) throws Exception {
        List<String> all = new java.util.ArrayList<>(List.of("eval", "--suite", "suite.yaml"));
        all.addAll(List.of(args));
        return BatonProcess.run(work, Map.of("BATON_TOKEN", admin), "", all.toArray(String[]::new));
    }

    private static JsonNode send(String session, String user) {
        ApiClient.Response r =
                t.api.post("/v1/sessions/" + session + "/messages", student(user), "{\"content\":\"hello\"}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body();
    }

    private static String agentOf(String session, String user) {
        return t.api.get("/v1/sessions/" + session, student(user))
                .body()
                .path("agentId")
                .asText();
    }

    private static int weight(JsonNode experiment, String arm) {
        for (JsonNode a : experiment.path("arms"))
            if (a.path("name").asText().equals(arm)) return a.path("weight").asInt();
        throw new AssertionError("no arm " + arm + " in " + experiment);
    }

    private static JsonNode metricsOf(JsonNode report, String arm) {
        for (JsonNode m : report.path("metrics")) if (m.path("arm").asText().equals(arm)) return m;
        throw new AssertionError("no metrics of " + arm + " in " + report);
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        var all = new java.util.HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }
}
