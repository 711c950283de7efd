package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.app.config.ConfigLoader;
import dev.baton.simulator.Condition;
import dev.baton.simulator.Fault;
import dev.baton.simulator.Reply;
import dev.baton.simulator.Rule;
import dev.baton.simulator.SimulatorScript;
import dev.baton.testkit.time.SettableClock;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every model call passes the turns' admission: a learner a message would be refused (a used-up rate limit, a
 * used-up budget) is refused a content job the same way — over REST ({@code POST /v1/learning/content-jobs}) and
 * through the generateContent tool over {@code /mcp} — no job is queued and their spend does not rise; an admitted
 * job's model call is counted in the model-call metric like a turn's.
 *
 * <p>A call costs 0.02 USD (1000 input and 1000 output tokens at 10 USD per million each) unless the user's message
 * says "cheap" (1 and 1 tokens); a learner may send 3 messages a minute and spend 0.03 USD a day.
 */
class ModelCallAdmissionIT {
    @TempDir
    static Path dir;

    static final SettableClock clock = new SettableClock(Instant.parse("2025-06-03T10:00:00Z"));
    static final HttpClient http = HttpClient.newHttpClient();
    static TestServer t;

    @BeforeAll
    static void start() throws Exception {
        SimulatorScript script = SimulatorScript.builder()
                .rule(Rule.when(
                        new Condition.UserContains("cheap"),
                        Reply.text("cheap answer").withUsage(1, 1)))
                .always(Reply.text("an answer").withUsage(1000, 1000))
                .build();
        JsonNode raw = ConfigLoader.yamlMapper().readTree("""
                rateLimits:
                  perUser: { perMinute: 3 }
                prices:
                  models:
                    "simulator:*": { input: 10, output: 10 }
                budgets:
                  perUser: { dailyUsd: 0.03 }
                  maxCostPerTurnUsd: 0.02
                """);
        t = LearningFixture.start(TestServer.sqliteUrl(dir), script, raw, clock);
    }

    @AfterAll
    static void stop() {
        if (t != null) t.close();
    }

    @Test
    void a_learner_refused_by_the_rate_limit_is_refused_a_content_job_over_rest_and_over_mcp() throws Exception {
        String token = TestServer.token("rita");
        for (int i = 0; i < 3; i++)
            assertThat(chat(token, "cheap question " + i).status()).isEqualTo(200);
        ApiClient.Response refusedMessage = chat(token, "cheap question again");
        assertThat(refusedMessage.status()).as(refusedMessage.raw()).isEqualTo(429);
        BigDecimal spent = spentBy("rita");

        ApiClient.Response job = startJob(token, "cheap tricks");

        assertThat(job.status()).as(job.raw()).isEqualTo(429);
        assertThat(job.body().path("error").path("code").asText()).isEqualTo("rate_limited");
        assertThat(job.body().path("error").path("message").asText())
                .isEqualTo(refusedMessage.body().path("error").path("message").asText());
        assertThat(job.headers().firstValue("Retry-After")).isPresent();

        JsonNode overMcp = generateContentOverMcp(token, "cheap tricks");
        assertThat(overMcp.path("isError").asBoolean()).as(overMcp.toString()).isTrue();
        assertThat(overMcp.toString())
                .contains("rate_limited")
                .contains(refusedMessage.body().path("error").path("message").asText());

        assertThat(jobsOf(token)).isZero();
        assertThat(spentBy("rita")).isEqualByComparingTo(spent);
    }

    @Test
    void a_learner_past_their_budget_is_refused_a_content_job_over_rest_and_over_mcp_and_spends_nothing()
            throws Exception {
        String token = TestServer.token("bea");
        assertThat(chat(token, "dear question 1").status()).isEqualTo(200);
        assertThat(chat(token, "dear question 2").status()).isEqualTo(200);
        ApiClient.Response refusedMessage = chat(token, "dear question 3");
        assertThat(refusedMessage.status()).as(refusedMessage.raw()).isEqualTo(429);
        assertThat(refusedMessage.body().path("error").path("code").asText()).isEqualTo("budget_exceeded");
        BigDecimal spent = spentBy("bea");
        assertThat(spent).isEqualByComparingTo("0.04");
        // the rate limit fills up again; the daily budget does not
        clock.advance(Duration.ofMinutes(2));

        ApiClient.Response job = startJob(token, "expensive topic");

        assertThat(job.status()).as(job.raw()).isEqualTo(429);
        assertThat(job.body().path("error").path("code").asText()).isEqualTo("budget_exceeded");
        assertThat(job.body().path("error").path("message").asText())
                .isEqualTo(refusedMessage.body().path("error").path("message").asText());

        JsonNode overMcp = generateContentOverMcp(token, "expensive topic");
        assertThat(overMcp.path("isError").asBoolean()).as(overMcp.toString()).isTrue();
        assertThat(overMcp.toString()).contains("budget_exceeded");

        assertThat(jobsOf(token)).isZero();
        assertThat(spentBy("bea")).isEqualByComparingTo(spent);
    }

    @Test
    void a_job_whose_owner_spent_their_budget_after_starting_it_fails_without_a_model_call() throws Exception {
        // the one worker of this instance is busy with another learner's job, held at the model
        CountDownLatch release = new CountDownLatch(1);
        t.simulator.enqueueFault(Fault.holdAfter(0, release));
        String zed = TestServer.token("zed");
        String held = startJob(zed, "cheap held topic").body().path("jobId").asText();
        await().atMost(Duration.ofSeconds(30)).until(() -> status(zed, held).equals("running"));
        String token = TestServer.token("ula");
        ApiClient.Response job = startJob(token, "dear topic");
        assertThat(job.status()).as(job.raw()).isEqualTo(202);
        String jobId = job.body().path("jobId").asText();
        // admitted at the door with nothing spent; then two dear messages spend the daily budget
        assertThat(chat(token, "dear question 1").status()).isEqualTo(200);
        assertThat(chat(token, "dear question 2").status()).isEqualTo(200);
        BigDecimal spent = spentBy("ula");

        release.countDown();

        await().atMost(Duration.ofSeconds(30)).until(() -> status(token, jobId).equals("failed"));
        assertThat(t.api.get("/v1/learning/content-jobs/" + jobId, token)
                        .body()
                        .path("error")
                        .asText())
                .contains("daily budget");
        assertThat(spentBy("ula")).isEqualByComparingTo(spent);
        assertThat(status(zed, held)).isEqualTo("completed");
    }

    private static String status(String token, String jobId) {
        return t.api.get("/v1/learning/content-jobs/" + jobId, token)
                .body()
                .path("status")
                .asText();
    }

    @Test
    void an_admitted_content_job_is_counted_in_the_model_call_metric_and_in_usage() throws Exception {
        String token = TestServer.token("cara");
        PrometheusScrape before = MetricsIT.scrape(t);

        ApiClient.Response job = startJob(token, "cheap sorting algorithms");

        assertThat(job.status()).as(job.raw()).isEqualTo(202);
        String jobId = job.body().path("jobId").asText();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> t.api.get("/v1/learning/content-jobs/" + jobId, token)
                        .body()
                        .path("status")
                        .asText()
                        .equals("completed"));
        PrometheusScrape after = MetricsIT.scrape(t);
        double calls = after.find("baton_model_call_duration_seconds_count", "outcome", "ok").stream()
                        .mapToDouble(PrometheusScrape.Sample::value)
                        .sum()
                - before.find("baton_model_call_duration_seconds_count", "outcome", "ok").stream()
                        .mapToDouble(PrometheusScrape.Sample::value)
                        .sum();
        assertThat(calls).isEqualTo(1);
        assertThat(spentBy("cara")).isPositive();
    }

    private static ApiClient.Response chat(String token, String message) {
        return t.api.post("/v1/chat", token, "{\"agentId\":\"learning\",\"message\":\"" + message + "\"}");
    }

    private static ApiClient.Response startJob(String token, String topic) {
        return t.api.post("/v1/learning/content-jobs", token, "{\"topic\":\"" + topic + "\"}");
    }

    private static int jobsOf(String token) {
        ApiClient.Response jobs = t.api.get("/v1/learning/content-jobs", token);
        assertThat(jobs.status()).isEqualTo(200);
        return jobs.body().path("jobs").size();
    }

    /** The result of generateContent called over /mcp in a new MCP session with the learning agent's tools. */
    private static JsonNode generateContentOverMcp(String token, String topic) throws Exception {
        HttpResponse<String> initialized = mcp(token, null, """
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",
                 "capabilities":{},"clientInfo":{"name":"it","version":"1"}}}""");
        assertThat(initialized.statusCode()).as(initialized.body()).isEqualTo(200);
        String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
        HttpResponse<String> called = mcp(token, session, """
                {"jsonrpc":"2.0","id":2,"method":"tools/call",
                 "params":{"name":"generateContent","arguments":{"topic":"%s"}}}""".formatted(topic));
        assertThat(called.statusCode()).as(called.body()).isEqualTo(200);
        return ApiClient.JSON.readTree(called.body()).path("result");
    }

    private static HttpResponse<String> mcp(String token, String session, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + t.server.port() + "/mcp?agent=learning"))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) b.header("Mcp-Session-Id", session);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static BigDecimal spentBy(String user) throws Exception {
        try (Connection c = DriverManager.getConnection(t.databaseUrl);
                PreparedStatement ps = c.prepareStatement("SELECT cost_usd FROM ai_usage WHERE user_id = ?")) {
            ps.setString(1, user);
            BigDecimal sum = BigDecimal.ZERO;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) sum = sum.add(new BigDecimal(rs.getString(1)));
            }
            return sum;
        }
    }
}
