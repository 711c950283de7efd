package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.simulator.SimulatorScript;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sessions are the caller's only within the caller's tenant (the same subject in another tenant is another user),
 * and query parameters the server cannot read are 400s, never 500s.
 */
class TenantScopeAndQueryInputIT {

    @TempDir
    static Path dir;

    static TestServer t;

    @BeforeAll
    static void start() {
        t = TestServer.start(dir, SimulatorScript.replyingWith("hello"));
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    @Test
    void the_same_subject_in_another_tenant_cannot_see_or_touch_the_session() {
        String home = LimitsFixture.token("sam", "tenant-home", "student", Instant.now());
        String away = LimitsFixture.token("sam", "tenant-away", "student", Instant.now());
        String session = t.api.startSession(home, "tasks");
        String path = "/v1/sessions/" + session;

        assertThat(t.api.get(path, away).status()).isEqualTo(404);
        assertThat(t.api.get("/v1/sessions", away).body().path("sessions")).isEmpty();
        assertThat(t.api.get(path + "/messages", away).status()).isEqualTo(404);
        assertThat(t.api.post(path + "/messages", away, "{\"content\":\"hi\"}").status())
                .isEqualTo(404);
        assertThat(t.api.post("/v1/chat", away, "{\"message\":\"hi\",\"conversationId\":\"" + session + "\"}")
                        .status())
                .isEqualTo(404);
        assertThat(t.api.post(path + "/complete", away, "{}").status()).isEqualTo(404);
        assertThat(t.api.delete(path, away).status()).isEqualTo(404);

        // the owner still has it, untouched
        var mine = t.api.get(path, home);
        assertThat(mine.status()).isEqualTo(200);
        assertThat(mine.body().path("state").asText()).isEqualTo("active");
        assertThat(mine.body().path("messageCount").asInt()).isZero();
    }

    @Test
    void a_cursor_the_server_did_not_issue_is_a_400_naming_it() {
        String token = TestServer.token("cursor-forger");
        t.api.startSession(token, "tasks");
        for (String cursor : new String[] {"not-a-cursor", "djF8bm90LWFuLWluc3RhbnR8eA", "%25%25"}) {
            var r = t.api.get("/v1/sessions?cursor=" + cursor, token);
            assertThat(r.status()).as(cursor).isEqualTo(400);
            assertThat(r.body().path("error").path("message").asText()).contains("cursor");
        }
    }
}
