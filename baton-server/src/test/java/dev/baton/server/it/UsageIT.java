package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import dev.baton.store.jdbc.Database;
import dev.baton.testkit.time.SettableClock;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prices turn token usage into cost, in the {@code done} event and in {@code ai_usage}; admins read it back aggregated
 * from {@code GET /v1/admin/usage}. Prices: 2 USD per million input, 0.5 per million cached input and 8 per million
 * output tokens.
 */
class UsageIT {
    @TempDir
    static Path dir;

    static final SettableClock clock = new SettableClock(Instant.parse("2025-05-20T12:00:00Z"));
    static LlmSimulator simulator;
    static TestServer t;

    @BeforeAll
    static void start() {
        SimulatorScript script = SimulatorScript.builder()
                // one tool round trip: two model calls in one turn, each with its own usage
                .whenUserSays(
                        "add milk",
                        Reply.toolCall("add_task", "{\"title\":\"milk\"}").withUsage(1000, 100))
                .whenToolResult("add_task", Reply.text("Added.").withUsage(1200, 50))
                // 1500 of the 2000 prompt tokens read from the provider's prompt cache
                .whenUserSays("from the cache", Reply.text("Cached.").withUsage(2000, 100, 1500))
                .always(Reply.text("Hello there.").withUsage(1500, 500))
                .build();
        simulator = LlmSimulator.start(script);
        t = TestServer.start(
                LimitsFixture.config("jdbc:sqlite:" + dir.resolve("usage.db"), """
                        prices:
                          models:
                            "simulator:*": { input: 2, output: 8, cachedInput: 0.5 }
                        """, Map.of()), simulator, false, clock);
    }

    @AfterAll
    static void stop() {
        if (t != null) t.close();
        simulator.close();
    }

    @Test
    void the_done_event_and_ai_usage_carry_the_priced_cost() throws Exception {
        String token = LimitsFixture.token("priced", "t-priced", "student", Instant.now());
        String session = t.api.startSession(token, "tasks");

        List<SseEvent> events;
        try (var stream = t.api.stream(session, token, "hello")) {
            events = stream.all();
        }

        JsonNode done = events.getLast().data();
        assertThat(done.path("type").asText()).isEqualTo("done");
        assertThat(done.path("usage").path("inputTokens").asLong()).isEqualTo(1500);
        assertThat(done.path("usage").path("outputTokens").asLong()).isEqualTo(500);
        // 1500 * 2 / 1e6 + 500 * 8 / 1e6
        assertThat(done.path("usage").path("costUsd").decimalValue()).isEqualByComparingTo("0.007");

        List<Map<String, Object>> rows = usageRows("priced");
        assertThat(rows).singleElement().satisfies(row -> {
            assertThat(row).containsEntry("provider", "simulator").containsEntry("model", "default");
            assertThat(row).containsEntry("input_tokens", 1500L).containsEntry("output_tokens", 500L);
            assertThat(new BigDecimal((String) row.get("cost_usd"))).isEqualByComparingTo("0.007");
            assertThat(row).containsEntry("agent_id", "tasks").containsEntry("tenant_id", "t-priced");
            assertThat((Long) row.get("latency_ms")).isGreaterThanOrEqualTo(0L);
            assertThat(row.get("message_id")).isEqualTo(done.path("messageId").asText());
        });
    }

    @Test
    void cached_input_tokens_reach_done_ai_usage_and_the_report_and_are_billed_at_the_cached_price() throws Exception {
        String tenant = "t-cached";
        String token = LimitsFixture.token("cacher", tenant, "student", Instant.now());
        String session = t.api.startSession(token, "tasks");

        List<SseEvent> events;
        try (var stream = t.api.stream(session, token, "answer from the cache")) {
            events = stream.all();
        }

        JsonNode usage = events.getLast().data().path("usage");
        assertThat(usage.path("inputTokens").asLong()).isEqualTo(2000);
        assertThat(usage.path("cachedInputTokens").asLong()).isEqualTo(1500);
        assertThat(usage.path("outputTokens").asLong()).isEqualTo(100);
        // (500 * 2 + 1500 * 0.5 + 100 * 8) / 1e6
        assertThat(usage.path("costUsd").decimalValue()).isEqualByComparingTo("0.00255");
        assertThat(usageRows("cacher")).singleElement().satisfies(row -> {
            assertThat(row).containsEntry("input_tokens", 2000L).containsEntry("cached_input_tokens", 1500L);
            assertThat(new BigDecimal((String) row.get("cost_usd"))).isEqualByComparingTo("0.00255");
        });

        String admin = LimitsFixture.token("cache-admin", tenant, "admin", Instant.now());
        JsonNode report = ok(t.api.get("/v1/admin/usage?from=2025-05-01&to=2025-05-31&groupBy=user", admin));
        assertThat(report.path("groups").get(0).path("cachedInputTokens").asLong())
                .isEqualTo(1500);
        assertThat(report.path("total").path("inputTokens").asLong()).isEqualTo(2000);
        assertThat(report.path("total").path("cachedInputTokens").asLong()).isEqualTo(1500);
    }

    @Test
    void the_usage_of_an_uncached_call_reports_no_cached_tokens() throws Exception {
        String token = LimitsFixture.token("uncached", "t-uncached", "student", Instant.now());

        ApiClient.Response answer = RateLimitIT.send(t, t.api.startSession(token, "tasks"), token, "hello");

        assertThat(answer.body().path("usage").path("cachedInputTokens").asLong())
                .isZero();
        assertThat(answer.body().path("usage").has("cachedInputTokens")).isTrue();
        assertThat(usageRows("uncached"))
                .singleElement()
                .satisfies(row -> assertThat(row).containsEntry("cached_input_tokens", 0L));
    }

    @Test
    void a_turn_with_several_model_calls_sums_them_in_done_and_keeps_one_row_each() throws Exception {
        String token = LimitsFixture.token("tooluser", "t-tools", "student", Instant.now());
        String session = t.api.startSession(token, "tasks");

        ApiClient.Response answer = RateLimitIT.send(t, session, token, "add milk");

        assertThat(answer.status()).isEqualTo(200);
        JsonNode usage = answer.body().path("usage");
        assertThat(usage.path("inputTokens").asLong()).isEqualTo(2200);
        assertThat(usage.path("outputTokens").asLong()).isEqualTo(150);
        // (1000 * 2 + 100 * 8) / 1e6 + (1200 * 2 + 50 * 8) / 1e6 = 0.0028 + 0.0028
        assertThat(usage.path("costUsd").decimalValue()).isEqualByComparingTo("0.0056");
        assertThat(usageRows("tooluser"))
                .extracting(r -> new BigDecimal((String) r.get("cost_usd"))
                        .stripTrailingZeros()
                        .toPlainString())
                .containsExactlyInAnyOrder("0.0028", "0.0028");
    }

    @Test
    void admins_read_tokens_and_cost_grouped_by_user_agent_model_and_day() {
        String tenant = "t-report";
        String alice = LimitsFixture.token("rep-alice", tenant, "student", Instant.now());
        String bob = LimitsFixture.token("rep-bob", tenant, "student", Instant.now());
        String aliceSession = t.api.startSession(alice, "tasks");
        RateLimitIT.send(t, aliceSession, alice, "hi");
        RateLimitIT.send(t, aliceSession, alice, "hi again");
        clock.advance(java.time.Duration.ofDays(1));
        RateLimitIT.send(t, t.api.startSession(bob, "tasks"), bob, "hello");
        String admin = LimitsFixture.token("rep-admin", tenant, "admin", Instant.now());

        JsonNode byUser = ok(t.api.get("/v1/admin/usage?from=2025-05-01&to=2025-05-31&groupBy=user", admin));
        assertThat(byUser.path("groupBy").toString()).isEqualTo("[\"user\"]");
        assertThat(byUser.path("groups")).hasSize(2);
        JsonNode aliceRow = byUser.path("groups").get(0);
        assertThat(aliceRow.path("user").asText()).isEqualTo("rep-alice");
        assertThat(aliceRow.path("calls").asLong()).isEqualTo(2);
        assertThat(aliceRow.path("inputTokens").asLong()).isEqualTo(3000);
        assertThat(aliceRow.path("outputTokens").asLong()).isEqualTo(1000);
        assertThat(aliceRow.path("costUsd").decimalValue()).isEqualByComparingTo("0.014");
        assertThat(byUser.path("total").path("costUsd").decimalValue()).isEqualByComparingTo("0.021");

        JsonNode byDay = ok(t.api.get("/v1/admin/usage?from=2025-05-01&to=2025-05-31&groupBy=day", admin));
        assertThat(byDay.path("groups").findValuesAsText("day")).containsExactly("2025-05-20", "2025-05-21");

        JsonNode byAgentAndModel =
                ok(t.api.get("/v1/admin/usage?from=2025-05-01&to=2025-05-31&groupBy=agent,model", admin));
        assertThat(byAgentAndModel.path("groups")).singleElement().satisfies(g -> {
            assertThat(g.path("agent").asText()).isEqualTo("tasks");
            assertThat(g.path("model").asText()).isEqualTo("simulator:default");
            assertThat(g.path("calls").asLong()).isEqualTo(3);
        });

        // a period of one day only
        JsonNode firstDay =
                ok(t.api.get("/v1/admin/usage?from=2025-05-20T00:00:00Z&to=2025-05-21T00:00:00Z&groupBy=user", admin));
        assertThat(firstDay.path("groups").findValuesAsText("user")).containsExactly("rep-alice");

        // an admin of another tenant sees none of it
        String stranger = LimitsFixture.token("rep-admin", "t-elsewhere", "admin", Instant.now());
        assertThat(ok(t.api.get("/v1/admin/usage?from=2025-05-01&to=2025-05-31&groupBy=user", stranger))
                        .path("groups"))
                .isEmpty();
    }

    @Test
    void usage_is_for_admins_with_admin_usage_only() {
        String student = LimitsFixture.token("nosy", "t-report", "student", Instant.now());
        String auditor = LimitsFixture.token("auditor", "t-report", "auditor", Instant.now());

        ApiClient.Response asStudent = t.api.get("/v1/admin/usage", student);
        ApiClient.Response asAuditor = t.api.get("/v1/admin/usage?groupBy=user", auditor);

        assertThat(asStudent.status()).isEqualTo(403);
        assertThat(asStudent.body().path("error").path("code").asText()).isEqualTo("forbidden");
        assertThat(asAuditor.status()).isEqualTo(403);
        assertThat(t.api.get("/v1/admin/usage", null).status()).isEqualTo(401);
    }

    @Test
    void bad_report_parameters_are_400() {
        String admin = LimitsFixture.token("rep-admin", "t-report", "admin", Instant.now());

        assertThat(t.api.get("/v1/admin/usage?groupBy=colour", admin).status()).isEqualTo(400);
        assertThat(t.api.get("/v1/admin/usage?from=yesterday", admin).status()).isEqualTo(400);
        assertThat(t.api.get("/v1/admin/usage?from=2025-05-02&to=2025-05-01", admin)
                        .status())
                .isEqualTo(400);
    }

    private static JsonNode ok(ApiClient.Response r) {
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body();
    }

    /** The user's ai_usage rows, read straight from the server's database. */
    private static List<Map<String, Object>> usageRows(String user) throws Exception {
        try (Database db = Database.open(t.databaseUrl)) {
            return db.withConnection(c -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT provider, model, input_tokens, output_tokens,"
                        + " cached_input_tokens, cost_usd, latency_ms, agent_id, tenant_id, message_id"
                        + " FROM ai_usage WHERE user_id = ?")) {
                    ps.setString(1, user);
                    List<Map<String, Object>> rows = new ArrayList<>();
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            Map<String, Object> row = new java.util.HashMap<>();
                            row.put("provider", rs.getString("provider"));
                            row.put("model", rs.getString("model"));
                            row.put("input_tokens", rs.getLong("input_tokens"));
                            row.put("output_tokens", rs.getLong("output_tokens"));
                            row.put("cached_input_tokens", rs.getLong("cached_input_tokens"));
                            row.put("cost_usd", rs.getString("cost_usd"));
                            row.put("latency_ms", rs.getLong("latency_ms"));
                            row.put("agent_id", rs.getString("agent_id"));
                            row.put("tenant_id", rs.getString("tenant_id"));
                            row.put("message_id", rs.getString("message_id"));
                            rows.add(row);
                        }
                    }
                    return rows;
                }
            });
        }
    }
}
