package dev.baton.server.it;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.app.config.BatonConfig;
import dev.baton.app.config.ModelSettings;
import dev.baton.core.agent.TurnLimits;
import dev.baton.simulator.Reply;
import dev.baton.simulator.SimulatorScript;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What the tests of a client that stops reading share: an answer far larger than any buffer between Baton and the
 * client, and a server whose stalled turn is ended by its request deadline (20 s): long enough that the other turns
 * of the test end first on a loaded machine too, shorter than the server's 30 s idle timeout, so that the deadline is
 * what ends the stalled turn.
 */
final class StalledTurnSetup {
    /** The message that gets the long answer; anything else gets a short one. */
    static final String PROMPT = "talk a lot";

    private StalledTurnSetup() {}

    /** 15 MB in 1 KB words, one a delta: cheap for the simulator to split. */
    static SimulatorScript script() {
        return SimulatorScript.builder()
                .whenUserSays(PROMPT, Reply.text(("x".repeat(999) + " ").repeat(15_000)))
                .fallback("Hello from the model.")
                .build();
    }

    /**
     * SQLite in {@code dir}, each SSE stream buffering at most {@code sseBufferBytes}. Building the 15 MB answer takes
     * the simulator seconds on a loaded machine: with the default 10 s time-to-first-token limit the model call could
     * time out before the stream ever stalled, so the limit here is longer than the request's deadline, and what is
     * left of the deadline bounds the model call instead.
     */
    static BatonConfig config(Path dir, int sseBufferBytes) {
        TurnLimits deadline = new TurnLimits(
                5, 10, 50, 20, 4000, 128_000, Duration.ofSeconds(60), Duration.ofSeconds(10), Duration.ofSeconds(20));
        ObjectNode raw = new ObjectMapper().createObjectNode();
        raw.putObject("server").put("sseBufferBytes", sseBufferBytes);
        raw.putObject("resilience").put("timeToFirstToken", "60s");
        return new BatonConfig(
                0,
                TestServer.sqliteUrl(dir),
                TestServer.SECRET,
                new ModelSettings("simulator:default", null, null, Map.of()),
                deadline,
                TestServer.ROLES,
                List.of(),
                BatonConfig.DEFAULT_MAX_BODY_BYTES,
                raw,
                null);
    }
}
