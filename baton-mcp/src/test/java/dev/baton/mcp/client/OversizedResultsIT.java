package dev.baton.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.ToolCallState;
import dev.baton.core.tool.ToolCallOutcome;
import dev.baton.core.tool.ToolResultBound;
import dev.baton.mcp.config.McpSettings;
import dev.baton.mcp.pin.InMemoryToolPins;
import dev.baton.mcp.support.ToolCalls;
import dev.baton.runtime.config.Yaml;
import dev.baton.testkit.npm.NpmPackages;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A server (the official TypeScript SDK) answering with results of megabytes: whatever the shape — structured content
 * alone, or text — what the call gives back (and so what is stored, streamed and sent to the model) is within the one
 * bound, and says that it was cut.
 */
class OversizedResultsIT {
    final Principal alice = ToolCalls.user("alice", "mcp:oversized");
    McpClients clients;
    ToolCalls calls;

    @BeforeEach
    void start() {
        Path script = NpmPackages.copyScript(NpmPackages.require(), "/oversized/oversized-server.mjs");
        McpSettings settings = McpSettings.parse(Yaml.parse("""
                        servers:
                          oversized: { command: "%s", args: ["%s"], timeout: 30s, state: shared, sharedWith: [tester] }
                        """.formatted(NpmPackages.node(), script)), Map.of());
        clients = McpClients.start(settings, new InMemoryToolPins(), Clock.systemUTC());
        assertThat(clients.awaitFirstAttempts(Duration.ofSeconds(30))).isTrue();
        calls = new ToolCalls(clients.toolSources(), List.of("mcp:oversized/*"), Clock.systemUTC());
    }

    @AfterEach
    void stop() {
        if (clients != null) clients.close();
    }

    @Test
    void five_megabytes_of_structured_content_are_cut_to_the_bound_and_the_model_is_told() {
        ToolCallOutcome outcome = calls.call(alice, "oversized__big_structured", "{}", Duration.ofSeconds(30));

        assertBounded(outcome, "{\"rows\":[{\"id\":0,\"name\":\"row number 0\"");
    }

    @Test
    void five_megabytes_of_text_are_cut_to_the_same_bound() {
        ToolCallOutcome outcome = calls.call(alice, "oversized__big_text", "{}", Duration.ofSeconds(30));

        assertBounded(outcome, "{\"text\":\"yyyy");
    }

    private static void assertBounded(ToolCallOutcome outcome, String startsWith) {
        assertThat(outcome.state()).as(String.valueOf(outcome.error())).isEqualTo(ToolCallState.SUCCEEDED);
        JsonNode result = outcome.result();
        assertThat(result.path("truncated").asBoolean()).isTrue();
        assertThat(result.path("originalChars").asLong()).isGreaterThan(5_000_000);
        assertThat(result.path("partial").asText()).startsWith(startsWith);
        String sentToTheModel = outcome.toMessage().content();
        assertThat(sentToTheModel.length()).isLessThanOrEqualTo(ToolResultBound.MAX_CHARS);
        assertThat(sentToTheModel).contains("characters are shown");
    }
}
