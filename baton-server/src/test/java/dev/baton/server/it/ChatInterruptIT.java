package dev.baton.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ctrl-C in {@code baton chat}: the first stops the answer being written, not the client; a second quits. */
class ChatInterruptIT {

    @TempDir
    static Path dir;

    static TestServer t;

    @BeforeAll
    static void start() {
        // a long answer at 20 words a second: it is still being written when the test presses Ctrl-C
        t = TestServer.start(
                dir,
                SimulatorScript.builder()
                        .always(Reply.text("word ".repeat(2_000).strip()))
                        .tokensPerSecond(20)
                        .build());
    }

    @AfterAll
    static void stop() {
        t.close();
    }

    @Test
    void the_first_ctrl_c_stops_the_answer_and_the_client_goes_on_and_a_second_quits() throws Exception {
        String token = TestServer.token("ivy");
        Map<String, String> env = Map.of("BATON_PORT", Integer.toString(t.server.port()), "BATON_TOKEN", token);
        try (BatonProcess chat = BatonProcess.start(dir, env, "chat")) {
            chat.awaitLine("Ctrl-C stops an answer", Duration.ofSeconds(60));
            chat.type("tell me a long story\n");
            chat.awaitText("baton> word", Duration.ofSeconds(30));

            chat.interrupt();
            chat.awaitLine("stopped; what was said so far is kept", Duration.ofSeconds(30));

            // still running: the next message is answered
            chat.type("and another\n");
            chat.awaitText("baton> word", Duration.ofSeconds(30));
            chat.interrupt();
            chat.awaitLine("stopping the answer", Duration.ofSeconds(30));
            chat.interrupt();

            assertThat(chat.awaitExit(Duration.ofSeconds(30)).exitCode()).isEqualTo(130);
        }
        // the stopped answers were kept as cancelled, the session was not lost
        String session = t.api.get("/v1/sessions?state=active&limit=1&agentId=tasks", token)
                .body()
                .path("sessions")
                .path(0)
                .path("id")
                .asText();
        assertThat(t.api.get("/v1/sessions/" + session + "/messages", token)
                        .body()
                        .path("messages")
                        .findValuesAsText("status"))
                .contains("cancelled");
    }
}
