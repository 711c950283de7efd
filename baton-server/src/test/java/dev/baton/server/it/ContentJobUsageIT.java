package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.app.config.ConfigLoader;
import dev.baton.simulator.BundledScript;
import dev.baton.testkit.db.PostgresTestDatabase;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The model call of a content job (the learning agent's generateContent) is counted like a turn's: once the worker
 * has generated the material, {@code ai_usage} holds a priced row for it under the conversation whose tool call
 * started the job — so usage reports and budgets include it. On SQLite and PostgreSQL, with the bundled simulator.
 */
class ContentJobUsageIT {
    /** Prices for the simulator, so the row's cost is not zero. */
    private static final String PRICES = """
            prices:
              models:
                "simulator:*": { input: 2, output: 8 }
            """;

    @TempDir
    Path dir;

    @Test
    void a_content_job_records_its_model_usage_under_its_conversation_on_sqlite() throws Exception {
        generatesAndRecords(TestServer.sqliteUrl(dir));
    }

    @Test
    void a_content_job_records_its_model_usage_under_its_conversation_on_postgresql() throws Exception {
        PostgresTestDatabase pg = PostgresTestDatabase.create();
        try {
            generatesAndRecords(pg.url());
        } finally {
            pg.drop();
        }
    }

    private static void generatesAndRecords(String databaseUrl) throws Exception {
        JsonNode raw = ConfigLoader.yamlMapper().readTree(PRICES);
        try (TestServer t = LearningFixture.start(databaseUrl, BundledScript.create(), raw, Clock.systemUTC())) {
            String token = TestServer.token("ulla");
            JsonNode asked = chat(t, token, null, "I want to learn quantam fisics");
            String conversation = asked.path("conversationId").asText();
            JsonNode confirmed = chat(t, token, conversation, "it is");
            String jobId = confirmed.at("/toolCalls/1/result/jobId").asText();
            assertThat(jobId).isNotBlank();

            await().atMost(Duration.ofSeconds(30))
                    .until(() -> t.api.get("/v1/learning/content-jobs/" + jobId, token)
                            .body()
                            .path("status")
                            .asText()
                            .equals("completed"));

            // written before the job is marked completed
            List<UsageRow> after = usage(databaseUrl, conversation);
            List<UsageRow> generation =
                    after.stream().filter(u -> u.messageId() == null).toList();
            assertThat(generation).hasSize(1);
            UsageRow row = generation.getFirst();
            assertThat(row.userId()).isEqualTo("ulla");
            assertThat(row.model()).isNotBlank();
            assertThat(row.inputTokens()).isPositive();
            assertThat(row.outputTokens()).isPositive();
            assertThat(row.costUsd()).isPositive();
            // the turns' own model calls, each linked to its answer, are all the other rows
            assertThat(after.size()).isGreaterThan(1);
        }
    }

    private static JsonNode chat(TestServer t, String token, String conversation, String message) {
        String body = conversation == null
                ? "{\"agentId\":\"learning\",\"message\":\"" + message + "\"}"
                : "{\"conversationId\":\"" + conversation + "\",\"message\":\"" + message + "\"}";
        var r = t.api.post("/v1/chat", token, body);
        assertThat(r.status()).isEqualTo(200);
        return r.body();
    }

    record UsageRow(
            String userId, String messageId, String model, long inputTokens, long outputTokens, BigDecimal costUsd) {}

    private static List<UsageRow> usage(String databaseUrl, String sessionId) throws SQLException {
        try (Connection c = DriverManager.getConnection(databaseUrl);
                PreparedStatement ps = c.prepareStatement("SELECT user_id, message_id, model, input_tokens,"
                        + " output_tokens, cost_usd FROM ai_usage WHERE session_id = ? ORDER BY created_at")) {
            ps.setString(1, sessionId);
            List<UsageRow> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new UsageRow(
                            rs.getString("user_id"),
                            rs.getString("message_id"),
                            rs.getString("model"),
                            rs.getLong("input_tokens"),
                            rs.getLong("output_tokens"),
                            new BigDecimal(rs.getString("cost_usd"))));
                }
            }
            return rows;
        }
    }
}
