package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ConfigLoader;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.simulator.Fault;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.time.SettableClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /metrics} over real HTTP: turns, tool calls, model calls, tokens and cost, HTTP requests, refusals,
 * module failures, the running-turn gauge and circuit breakers, each asserted by how exactly its series moved in
 * the Prometheus text a scraper reads; and the endpoint turned off (404) or behind a token (401).
 */
class MetricsIT {
    static final String MESSAGES_ROUTE = "/v1/sessions/{id}/messages";

    @TempDir
    static Path dir;

    static final SettableClock clock = new SettableClock(Instant.parse("2025-07-01T09:00:00Z"));
    static LlmSimulator simulator;
    /** Metrics open, prices, a small per-user rate limit, and agents with modules. */
    static TestServer t;

    @BeforeAll
    static void start() throws IOException {
        simulator = LlmSimulator.start(SimulatorScript.builder()
                .whenUserSays(
                        "add milk",
                        Reply.toolCall("add_task", "{\"title\":\"milk\"}").withUsage(1000, 100))
                .whenToolResult("add_task", Reply.text("Added.").withUsage(1200, 50))
                .always(Reply.text("Hello there.").withUsage(10, 5))
                .build());
        t = server("main", """
                prices:
                  models:
                    "simulator:*": { input: 2, output: 8 }
                rateLimits:
                  perUser: { perMinute: 3 }
                """, Map.of(), simulator);
    }

    @AfterAll
    static void stop() {
        if (t != null) t.close();
        simulator.close();
    }

    /** A server over its own SQLite file with these baton.yaml sections, the "lenient" and "guarded" agents. */
    static TestServer server(String name, String yaml, Map<String, String> env, LlmSimulator sim) {
        try {
            Path agents = Files.createDirectories(dir.resolve(name + "-agents"));
            ModulesContract.agent(agents, "lenient", "modules: [it-crash]");
            ModulesContract.agent(agents, "guarded", """
                    modules:
                      - id: it-block-word
                        config: { word: forbidden, response: "Not here." }
                    """);
            JsonNode raw = ConfigLoader.yamlMapper().readTree(yaml);
            BatonConfig config = new BatonConfig(
                    0,
                    "jdbc:sqlite:" + dir.resolve(name + ".db"),
                    TestServer.SECRET,
                    new ModelSettings("simulator:default", null, null, Map.of()),
                    TurnLimits.DEFAULTS,
                    TestServer.ROLES,
                    List.of(agents),
                    BatonConfig.DEFAULT_MAX_BODY_BYTES,
                    raw,
                    env);
            return TestServer.start(config, sim, false, clock);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static PrometheusScrape scrape(TestServer server) {
        ApiClient.Response r = server.api.get("/metrics", null);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return PrometheusScrape.parse(r.raw());
    }

    /** How much a series moved between two scrapes. */
    static double moved(PrometheusScrape before, PrometheusScrape after, String name, String... labels) {
        return after.value(name, labels) - before.value(name, labels);
    }

    static ApiClient.Response send(TestServer server, String session, String token, String content) {
        return RateLimitIT.send(server, session, token, content);
    }

    @Test
    void a_tool_turn_moves_turn_tool_model_token_cost_and_http_series_by_exactly_its_own_numbers() {
        String token = TestServer.token("metrics-tools");
        String session = t.api.startSession(token, "tasks");
        PrometheusScrape before = scrape(t);

        ApiClient.Response answer = send(t, session, token, "add milk");

        assertThat(answer.status()).isEqualTo(200);
        PrometheusScrape after = scrape(t);
        assertThat(moved(before, after, "baton_turns_total", "agent", "tasks", "outcome", "ok"))
                .isEqualTo(1);
        assertThat(moved(before, after, "baton_turn_duration_seconds_count", "agent", "tasks", "outcome", "ok"))
                .isEqualTo(1);
        assertThat(moved(before, after, "baton_tool_calls_total", "tool", "add_task", "state", "succeeded"))
                .isEqualTo(1);
        assertThat(moved(
                        before,
                        after,
                        "baton_tool_call_duration_seconds_count",
                        "tool",
                        "add_task",
                        "state",
                        "succeeded"))
                .isEqualTo(1);
        String[] simulatorDefault = {"provider", "simulator", "model", "default"};
        assertThat(moved(before, after, "baton_model_call_duration_seconds_count", with(simulatorDefault, "ok")))
                .as("the tool call and the answer: two model calls")
                .isEqualTo(2);
        assertThat(moved(before, after, "baton_model_tokens_total", with2(simulatorDefault, "direction", "input")))
                .isEqualTo(2200);
        assertThat(moved(before, after, "baton_model_tokens_total", with2(simulatorDefault, "direction", "output")))
                .isEqualTo(150);
        // (1000 * 2 + 100 * 8) / 1e6 + (1200 * 2 + 50 * 8) / 1e6, as in the done event and ai_usage
        assertThat(moved(before, after, "baton_model_cost_usd_total", simulatorDefault))
                .isCloseTo(answer.body().path("usage").path("costUsd").asDouble(), within(1e-12))
                .isCloseTo(0.0056, within(1e-12));
        assertThat(moved(
                        before,
                        after,
                        "http_server_requests_seconds_count",
                        "method",
                        "POST",
                        "route",
                        MESSAGES_ROUTE,
                        "status",
                        "200"))
                .isEqualTo(1);
        assertThat(after.value("baton_turns_running")).isZero();
        // labels are templates and names: never a session or a user
        String text = t.api.get("/metrics", null).raw();
        assertThat(text).doesNotContain(session).doesNotContain("metrics-tools");
    }

    @Test
    void a_failing_turn_and_a_provider_429_count_under_the_error_codes_the_client_got() {
        String token = TestServer.token("metrics-failures");
        String session = t.api.startSession(token, "tasks");
        PrometheusScrape before = scrape(t);

        simulator.enqueueFault(Fault.http500());
        ApiClient.Response failed = send(t, session, token, "hello");
        simulator.enqueueFault(Fault.rateLimited(7));
        ApiClient.Response limited = send(t, session, token, "hello again");

        assertThat(failed.status()).isEqualTo(502);
        assertThat(failed.body().path("error").path("code").asText()).isEqualTo("model_unavailable");
        assertThat(limited.status()).isEqualTo(429);
        assertThat(limited.body().path("error").path("code").asText()).isEqualTo("rate_limited");
        PrometheusScrape after = scrape(t);
        assertThat(moved(before, after, "baton_turns_total", "agent", "tasks", "outcome", "model_unavailable"))
                .isEqualTo(1);
        assertThat(moved(before, after, "baton_turns_total", "agent", "tasks", "outcome", "rate_limited"))
                .isEqualTo(1);
        assertThat(moved(before, after, "baton_turns_total", "agent", "tasks", "outcome", "ok"))
                .isZero();
        String[] simulatorDefault = {"provider", "simulator", "model", "default"};
        assertThat(moved(
                        before,
                        after,
                        "baton_model_call_duration_seconds_count",
                        with(simulatorDefault, "unavailable")))
                .isEqualTo(1);
        assertThat(moved(
                        before,
                        after,
                        "baton_model_call_duration_seconds_count",
                        with(simulatorDefault, "rate_limited")))
                .isEqualTo(1);
        assertThat(moved(before, after, "baton_model_tokens_total", with2(simulatorDefault, "direction", "input")))
                .as("a failed call reports no tokens")
                .isZero();
        assertThat(moved(
                        before,
                        after,
                        "http_server_requests_seconds_count",
                        "method",
                        "POST",
                        "route",
                        MESSAGES_ROUTE,
                        "status",
                        "502"))
                .isEqualTo(1);
        assertThat(moved(
                        before,
                        after,
                        "http_server_requests_seconds_count",
                        "method",
                        "POST",
                        "route",
                        MESSAGES_ROUTE,
                        "status",
                        "429"))
                .isEqualTo(1);
        assertThat(moved(before, after, "baton_limit_refusals_total", "kind", "rate_limited"))
                .as("the provider's 429 is not one of Baton's own refusals")
                .isZero();
    }

    @Test
    void a_message_over_the_rate_limit_counts_as_a_refusal_and_never_as_a_turn() {
        String token = TestServer.token("metrics-limited");
        String session = t.api.startSession(token, "tasks");
        for (int i = 1; i <= 3; i++) {
            assertThat(send(t, session, token, "hi " + i).status()).isEqualTo(200);
        }
        PrometheusScrape before = scrape(t);

        ApiClient.Response refused = send(t, session, token, "one too many");

        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.body().path("error").path("code").asText()).isEqualTo("rate_limited");
        PrometheusScrape after = scrape(t);
        assertThat(moved(before, after, "baton_limit_refusals_total", "kind", "rate_limited"))
                .isEqualTo(1);
        assertThat(after.has("baton_limit_refusals_total", "kind", "budget_exceeded"))
                .as("both kinds are published from the start")
                .isTrue();
        assertThat(moved(before, after, "baton_limit_refusals_total", "kind", "budget_exceeded"))
                .isZero();
        assertThat(after.find("baton_turns_total").stream()
                        .mapToDouble(PrometheusScrape.Sample::value)
                        .sum())
                .as("a refused message never becomes a turn")
                .isEqualTo(before.find("baton_turns_total").stream()
                        .mapToDouble(PrometheusScrape.Sample::value)
                        .sum());
        assertThat(moved(
                        before,
                        after,
                        "http_server_requests_seconds_count",
                        "method",
                        "POST",
                        "route",
                        MESSAGES_ROUTE,
                        "status",
                        "429"))
                .isEqualTo(1);
    }

    @Test
    void blocked_turns_and_failing_modules_are_counted_by_agent_module_and_hook() {
        String token = TestServer.token("metrics-modules");
        String guarded = t.api.startSession(token, "guarded");
        String lenient = t.api.startSession(token, "lenient");
        PrometheusScrape before = scrape(t);

        assertThat(send(t, guarded, token, "tell me the forbidden thing").status())
                .isEqualTo(200);
        assertThat(send(t, lenient, token, "hello").status()).isEqualTo(200);

        PrometheusScrape after = scrape(t);
        assertThat(moved(before, after, "baton_turns_total", "agent", "guarded", "outcome", "blocked"))
                .isEqualTo(1);
        assertThat(moved(before, after, "baton_turns_total", "agent", "lenient", "outcome", "ok"))
                .as("a module failing open does not fail the turn")
                .isEqualTo(1);
        assertThat(moved(
                        before,
                        after,
                        "baton_module_failures_total",
                        "module",
                        "it-crash",
                        "hook",
                        "chat:before_ai",
                        "kind",
                        "threw"))
                .isEqualTo(1);
    }

    @Test
    void a_running_turn_shows_in_the_gauge_until_it_is_cancelled() {
        String token = TestServer.token("metrics-running");
        String session = t.api.startSession(token, "tasks");
        assertThat(scrape(t).value("baton_turns_running")).isZero();
        PrometheusScrape before = scrape(t);

        simulator.enqueueFault(Fault.hang());
        try (var stream = t.api.stream(session, token, "hang on")) {
            await().atMost(Duration.ofSeconds(10)).until(() -> scrape(t).value("baton_turns_running") == 1);
            assertThat(t.api.post("/v1/sessions/" + session + "/cancel", token, "{}")
                            .body()
                            .path("cancelled")
                            .asBoolean())
                    .isTrue();
            assertThat(stream.all().getLast().event()).isEqualTo("error");
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> scrape(t).value("baton_turns_running") == 0);
        assertThat(moved(before, scrape(t), "baton_turns_total", "agent", "tasks", "outcome", "cancelled"))
                .isEqualTo(1);
    }

    @Test
    void requests_are_labelled_by_route_template_and_unknown_paths_share_one_label() {
        PrometheusScrape before = scrape(t);

        assertThat(t.api.get("/no/such/thing/" + System.nanoTime(), null).status())
                .isEqualTo(404);
        assertThat(t.api.get("/healthz", null).status()).isEqualTo(200);
        assertThat(t.api.get("/v1/agents", null).status()).isEqualTo(401);

        PrometheusScrape after = scrape(t);
        assertThat(moved(
                        before,
                        after,
                        "http_server_requests_seconds_count",
                        "method",
                        "GET",
                        "route",
                        "/v1/*",
                        "status",
                        "401"))
                .as("a request authentication refused before routing has the filter's pattern")
                .isEqualTo(1);
        assertThat(moved(
                        before,
                        after,
                        "http_server_requests_seconds_count",
                        "method",
                        "GET",
                        "route",
                        "unmatched",
                        "status",
                        "404"))
                .isEqualTo(1);
        assertThat(moved(
                        before,
                        after,
                        "http_server_requests_seconds_count",
                        "method",
                        "GET",
                        "route",
                        "/healthz",
                        "status",
                        "200"))
                .isEqualTo(1);
        assertThat(after.labelValues("http_server_requests_seconds_count", "route"))
                .allSatisfy(route -> assertThat(route).doesNotContain("/no/such"));
        assertThat(after.find(
                        "http_server_requests_seconds_bucket", "method", "GET", "route", "/healthz", "status", "200"))
                .as("a latency histogram")
                .extracting(s -> s.labels().get("le"))
                .contains("0.005", "1.0", "+Inf");
    }

    @Test
    void the_scrape_is_prometheus_text_with_typed_families_and_jvm_meters() {
        ApiClient.Response r = t.api.get("/metrics", null);

        assertThat(r.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/plain; version=0.0.4");
        PrometheusScrape s = PrometheusScrape.parse(r.raw());
        assertThat(s.type("baton_turns_total")).isEqualTo("counter");
        assertThat(s.type("baton_turn_duration_seconds")).isEqualTo("histogram");
        assertThat(s.type("http_server_requests_seconds")).isEqualTo("histogram");
        assertThat(s.type("baton_turns_running")).isEqualTo("gauge");
        assertThat(s.has("jvm_memory_used_bytes", "area", "heap")).isTrue();
        assertThat(s.has("jvm_gc_pause_seconds_count") || s.has("jvm_gc_memory_allocated_bytes_total"))
                .isTrue();
        assertThat(s.value("process_uptime_seconds")).isPositive();
        assertThat(s.has("process_cpu_usage")).isTrue();
        assertThat(s.has("jvm_threads_live_threads")).isTrue();
        if (Runtime.version().feature() >= 24) {
            assertThat(s.value("jvm_threads_virtual_parallelism")).isPositive();
        }
    }

    @Test
    void circuit_breakers_publish_their_state_and_count_their_transitions() {
        try (LlmSimulator sim = LlmSimulator.start(SimulatorScript.replyingWith("fine"));
                TestServer b = server("breaker", """
                        resilience:
                          modelBreaker: { failures: 1, openFor: 30s }
                        """, Map.of(), sim)) {
            String token = TestServer.token("metrics-breaker");
            String session = b.api.startSession(token, "tasks");
            assertThat(send(b, session, token, "first").status()).isEqualTo(200);
            String[] provider = {"kind", "provider", "name", "simulator"};
            PrometheusScrape closed = scrape(b);
            assertThat(closed.value("baton_circuit_breaker_state", with2(provider, "state", "closed")))
                    .isEqualTo(1);
            assertThat(closed.value("baton_circuit_breaker_state", with2(provider, "state", "open")))
                    .isZero();
            assertThat(closed.value(
                            "baton_circuit_breaker_state", "kind", "tool_source", "name", "tasks", "state", "closed"))
                    .as("tool sources have breakers too")
                    .isEqualTo(1);

            sim.enqueueFault(Fault.http500());
            assertThat(send(b, session, token, "breaks").status()).isEqualTo(502);

            PrometheusScrape open = scrape(b);
            assertThat(open.value("baton_circuit_breaker_state", with2(provider, "state", "open")))
                    .isEqualTo(1);
            assertThat(open.value("baton_circuit_breaker_state", with2(provider, "state", "closed")))
                    .isZero();
            assertThat(open.value("baton_circuit_breaker_transitions_total", transition(provider, "closed", "open")))
                    .isEqualTo(1);

            clock.advance(Duration.ofSeconds(31));
            assertThat(send(b, session, token, "again").status()).isEqualTo(200);

            PrometheusScrape recovered = scrape(b);
            assertThat(recovered.value("baton_circuit_breaker_state", with2(provider, "state", "closed")))
                    .isEqualTo(1);
            assertThat(recovered.value(
                            "baton_circuit_breaker_transitions_total", transition(provider, "open", "half_open")))
                    .isEqualTo(1);
            assertThat(recovered.value(
                            "baton_circuit_breaker_transitions_total", transition(provider, "half_open", "closed")))
                    .isEqualTo(1);
        }
    }

    @Test
    void metrics_turned_off_are_not_found_and_a_token_protects_them() {
        try (TestServer off = server("off", "metrics: { enabled: false }", Map.of(), simulator);
                TestServer locked = server(
                        "locked",
                        "metrics: { token: from-yaml }",
                        Map.of("BATON_METRICS_TOKEN", "scrape-secret"),
                        simulator)) {
            assertThat(off.api.get("/metrics", null).status()).isEqualTo(404);
            assertThat(off.api.get("/healthz", null).status())
                    .as("the rest is unaffected")
                    .isEqualTo(200);

            ApiClient.Response none = locked.api.get("/metrics", null);
            assertThat(none.status()).isEqualTo(401);
            assertThat(none.headers().firstValue("WWW-Authenticate"))
                    .hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
            assertThat(none.body().path("error").path("code").asText()).isEqualTo("unauthorized");
            assertThat(none.raw()).doesNotContain("baton_");
            assertThat(locked.api.get("/metrics", "from-yaml").status())
                    .as("the environment overrides baton.yaml")
                    .isEqualTo(401);
            assertThat(locked.api.get("/metrics", TestServer.token("someone")).status())
                    .as("a user's JWT is not the metrics token")
                    .isEqualTo(401);

            ApiClient.Response ok = locked.api.get("/metrics", "scrape-secret");
            assertThat(ok.status()).isEqualTo(200);
            assertThat(PrometheusScrape.parse(ok.raw()).has("baton_turns_running"))
                    .isTrue();
        }
    }

    @Test
    void modules_sessions_and_turn_cost_have_series_of_their_own() {
        String token = TestServer.token("metrics-activity");
        PrometheusScrape before = scrape(t);
        String guarded = t.api.startSession(token, "guarded");
        String plain = t.api.startSession(token, "tasks");

        assertThat(send(t, guarded, token, "tell me the forbidden thing").status())
                .isEqualTo(200);
        assertThat(send(t, guarded, token, "hello").status()).isEqualTo(200);
        assertThat(send(t, plain, token, "add milk").status()).isEqualTo(200);

        PrometheusScrape after = scrape(t);
        String[] blockWord = {"module", "it-block-word", "hook", "chat:before_ai"};
        assertThat(moved(before, after, "baton_module_hook_duration_seconds_count", blockWord))
                .isEqualTo(2);
        assertThat(after.value("baton_module_hook_duration_seconds_sum", blockWord))
                .isPositive();
        assertThat(moved(before, after, "baton_module_blocks_total", blockWord)).isEqualTo(1);
        assertThat(moved(before, after, "baton_sessions_started_total", "agent", "guarded"))
                .isEqualTo(1);
        assertThat(moved(before, after, "baton_sessions_started_total", "agent", "tasks"))
                .isEqualTo(1);
        // the tool turn's two calls: 2,200 input tokens at $2/M and 150 output tokens at $8/M
        assertThat(moved(before, after, "baton_turn_cost_usd_total", "agent", "tasks"))
                .isCloseTo(0.0056, within(1e-9));
    }

    @Test
    void the_grafana_dashboard_and_the_alert_rules_read_only_series_baton_serves() {
        // a turn of each kind the panels show: a tool turn (model, tools, cost), a block, a module failure
        String token = TestServer.token("metrics-dashboard");
        send(t, t.api.startSession(token, "tasks"), token, "add milk");
        send(t, t.api.startSession(token, "guarded"), token, "tell me the forbidden thing");
        send(t, t.api.startSession(token, "lenient"), token, "hello");
        java.util.Set<String> served = scrape(t).names();

        JsonNode dashboard = ObservabilityAssets.dashboard();
        assertThat(dashboard.path("title").asText()).isEqualTo("Baton");
        List<String> queries = ObservabilityAssets.dashboardQueries(dashboard);
        assertThat(queries).hasSizeGreaterThanOrEqualTo(10);
        java.util.Set<String> dashboardSeries = ObservabilityAssets.seriesIn(queries);
        assertThat(dashboardSeries)
                .contains(
                        "baton_turn_duration_seconds_bucket",
                        "baton_module_hook_duration_seconds_sum",
                        "baton_module_blocks_total",
                        "baton_model_call_duration_seconds_count",
                        "baton_circuit_breaker_state",
                        "baton_turns_total",
                        "baton_turn_cost_usd_total",
                        "baton_sessions_started_total",
                        "baton_limit_refusals_total");
        assertThat(served).as("what /metrics serves").containsAll(dashboardSeries);

        JsonNode rules = ObservabilityAssets.alertRules();
        List<String> expressions = ObservabilityAssets.alertExpressions(rules);
        assertThat(expressions)
                .hasSizeGreaterThanOrEqualTo(3)
                .allSatisfy(e -> assertThat(e).isNotBlank());
        rules.path("groups")
                .forEach(g -> g.path("rules").forEach(r -> {
                    assertThat(r.path("alert").asText()).isNotBlank();
                    assertThat(r.path("for").asText()).matches("\\d+[smh]");
                }));
        java.util.Set<String> alertSeries = ObservabilityAssets.seriesIn(expressions);
        assertThat(alertSeries)
                .contains(
                        "baton_turn_duration_seconds_bucket",
                        "baton_turn_cost_usd_total",
                        "baton_sessions_started_total",
                        "baton_turns_total");
        // the experiment series exist on a server with experiments: ExperimentsIT checks those
        assertThat(alertSeries.stream().filter(name -> !name.startsWith("baton_experiment_")))
                .isNotEmpty()
                .allSatisfy(name -> assertThat(served).contains(name));
    }

    private static String[] with(String[] labels, String outcome) {
        return with2(labels, "outcome", outcome);
    }

    private static String[] with2(String[] labels, String name, String value) {
        String[] all = java.util.Arrays.copyOf(labels, labels.length + 2);
        all[labels.length] = name;
        all[labels.length + 1] = value;
        return all;
    }

    private static String[] transition(String[] breaker, String from, String to) {
        return with2(with2(breaker, "from", from), "to", to);
    }
}
