package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.simulator.LlmSimulator;
import dev.baton.simulator.TaskAgentScript;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's commands as processes of the packaged {@code baton} against a running server, over the v1 API:
 * {@code sessions}, {@code approvals} (list, approve), {@code usage}, {@code audit}, {@code experiments}, {@code mcp}
 * and {@code mcp pins}; a refusal is one line with no stack trace.
 */
class OperatorCliIT {
    @TempDir
    static Path dir;

    static TestServer t;
    static String url;

    static final Map<String, Set<String>> ROLES = Map.of(
            "student", Set.of("tasks:read:self", "tasks:write:self", "sessions:read:self", "sessions:write:self"),
            "operator", Set.of("admin:audit", "admin:usage", "admin:mcp", "admin:experiments"));

    @BeforeAll
    static void start() {
        BatonConfig config = BatonConfig.of(
                0,
                TestServer.sqliteUrl(dir),
                TestServer.SECRET,
                new ModelSettings("simulator:default", null, null, Map.of()),
                TurnLimits.DEFAULTS,
                ROLES);
        t = TestServer.start(config, LlmSimulator.start(TaskAgentScript.create()), true, Clock.systemUTC());
        url = "http://127.0.0.1:" + t.server.port();
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    @Test
    void a_user_decides_a_held_call_and_an_operator_reads_usage_audit_experiments_and_mcp() throws Exception {
        String student = TestServer.token("sam", "student");
        String operator = TestServer.token("olga", "operator");
        String session = t.api.startSession(student, "tasks");
        assertThat(RateLimitIT.send(t, session, student, "add a task to buy milk")
                        .status())
                .isEqualTo(200);
        var held = RateLimitIT.send(t, session, student, "delete buy milk");
        assertThat(held.body().path("state").asText()).as(held.raw()).isEqualTo("awaiting_approval");

        BatonProcess.Run sessions = baton("sessions", "--token", student);
        assertThat(sessions.output()).contains("ID", "AGENT", session, "tasks", "active");

        BatonProcess.Run pending = baton("approvals", session, "--token", student);
        assertThat(pending.output()).contains("WHAT", "delete_task", "Delete the task 'buy milk'");
        JsonNode calls = ApiClient.JSON.readTree(
                baton("approvals", session, "--json", "--token", student).output());
        String call = calls.get(0).path("callId").asText();

        BatonProcess.Run approved =
                baton("approvals", "approve", session, call, "--comment", "yes, it is bought", "--token", student);
        assertThat(approved.output()).contains("deleted");
        assertThat(t.api.get("/v1/tasks", student).body().path("tasks")).isEmpty();

        BatonProcess.Run usage = baton("usage", "--group-by", "user", "--token", operator);
        assertThat(usage.output()).contains("model calls", "USER", "CALLS", "sam");

        BatonProcess.Run audit = baton("audit", session, "--token", operator);
        assertThat(audit.output()).contains("delete_task", "approved", "sam");

        assertThat(baton("experiments", "--token", operator).output()).contains("No experiments.");
        assertThat(baton("mcp", "--token", operator).output()).contains("No MCP servers are configured.");
        assertThat(baton("mcp", "pins", "--token", operator).output()).contains("No tools are pinned yet.");
    }

    @Test
    void refusals_are_one_line_without_a_stack_trace() throws Exception {
        String student = TestServer.token("stu", "student");
        BatonProcess.Run forbidden = run("usage", "--token", student);
        assertThat(forbidden.exitCode()).isEqualTo(8);
        assertThat(forbidden.hasStackTrace()).isFalse();
        assertThat(forbidden.output().strip().lines())
                .containsExactly(
                        "baton usage: the server answered HTTP 403: missing permission admin:usage (forbidden)");

        BatonProcess.Run unknown =
                run("audit", "0190b2d4-0000-7000-8000-000000000000", "--token", TestServer.token("op", "operator"));
        assertThat(unknown.exitCode()).isEqualTo(8);
        assertThat(unknown.hasStackTrace()).isFalse();
        assertThat(unknown.output()).contains("HTTP 404");

        BatonProcess.Run noSession = run("approvals", "--token", student);
        assertThat(noSession.exitCode()).isEqualTo(2);
        assertThat(noSession.output()).contains("name the session");

        BatonProcess.Run refused = run("sessions", "--token", "not-a-token");
        assertThat(refused.exitCode()).isEqualTo(5);
        assertThat(refused.hasStackTrace()).isFalse();
    }

    /** A command that must succeed. */
    private static BatonProcess.Run baton(String... args) throws Exception {
        BatonProcess.Run run = run(args);
        assertThat(run.exitCode()).as(run.output()).isZero();
        return run;
    }

    private static BatonProcess.Run run(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--url", url));
        return BatonProcess.run(dir, Map.of(), "", all.toArray(String[]::new));
    }
}
