package dev.baton.modules;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.audit.AuditStore;
import dev.baton.core.hook.BeforeAiOutcome;
import dev.baton.core.hook.Hook;
import dev.baton.core.hook.ModuleFactory;
import dev.baton.core.hook.ModulePipeline;
import dev.baton.core.hook.ModuleRegistry;
import dev.baton.core.hook.OutputFilterChain;
import dev.baton.modules.pii.PiiRedactionFactory;
import dev.baton.modules.topic.TopicGuardFactory;
import dev.baton.modules.webhook.WebhookFactory;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The built-in modules run by core's real pipeline, configured the way an agent YAML configures them. */
class BuiltInModulesPipelineTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Clock CLOCK = Clock.fixed(TestContexts.NOW, ZoneOffset.UTC);
    /** Nothing listens on the discard port of 127.0.0.1: the webhook cannot be reached. */
    private static final String DEAD_URL = "http://127.0.0.1:9/hook";

    private static ModulePipeline pipeline() {
        List<ModuleFactory> factories =
                List.of(new PiiRedactionFactory(), new TopicGuardFactory(), new WebhookFactory());
        return new ModulePipeline(ModuleRegistry.of(factories, null), AuditStore.NONE, CLOCK);
    }

    private static BeforeAiOutcome beforeAi(String agentJson, String message) throws Exception {
        JsonNode agent = JSON.readTree(agentJson);
        return pipeline().beforeAi(TestContexts.of(Hook.BEFORE_AI, agent, List.of(), message, null));
    }

    @Test
    void pii_redaction_runs_before_the_topic_guard_which_sees_the_redacted_message() throws Exception {
        String agent = """
                {"constraints": {"topics": ["algebra"], "deny": ["\\\\[EMAIL\\\\]"]},
                 "modules": ["topic-guard", "pii-redaction"]}
                """;

        BeforeAiOutcome outcome = beforeAi(agent, "my algebra teacher is bob@example.com");

        assertThat(outcome).isInstanceOfSatisfying(BeforeAiOutcome.Blocked.class, b -> {
            assertThat(b.module()).isEqualTo("topic-guard");
            assertThat(b.audit()).first().satisfies(a -> {
                assertThat(a.module()).isEqualTo("pii-redaction");
                assertThat(a.audit().originalContent()).isEqualTo("my algebra teacher is bob@example.com");
            });
        });
    }

    @Test
    void an_unreachable_webhook_fails_open_by_default() throws Exception {
        String agent = "{\"modules\": [{\"id\": \"webhook\", \"config\": {\"url\": \"" + DEAD_URL
                + "\", \"secret\": \"0123456789abcdef\"}}]}";

        BeforeAiOutcome outcome = beforeAi(agent, "hello");

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        BeforeAiOutcome.Proceed.class,
                        p -> assertThat(p.userMessage()).isEqualTo("hello"));
    }

    @Test
    void an_unreachable_webhook_blocks_when_it_fails_closed() throws Exception {
        String agent = "{\"modules\": [{\"id\": \"webhook\", \"failClosed\": true, \"safeResponse\": \"Not now.\","
                + " \"config\": {\"url\": \"" + DEAD_URL + "\", \"secret\": \"0123456789abcdef\"}}]}";

        BeforeAiOutcome outcome = beforeAi(agent, "hello");

        assertThat(outcome).isInstanceOfSatisfying(BeforeAiOutcome.Blocked.class, b -> {
            assertThat(b.module()).isEqualTo("webhook");
            assertThat(b.response()).isEqualTo("Not now.");
        });
    }

    @Test
    void the_pii_output_filter_redacts_a_card_split_across_chunks_in_the_chain() throws Exception {
        JsonNode agent = JSON.readTree("{\"modules\": [\"pii-redaction\"]}");
        OutputFilterChain chain =
                pipeline().outputFilters(TestContexts.of(Hook.BEFORE_AI, agent, List.of(), "hi", null));

        StringBuilder client = new StringBuilder();
        for (String chunk : List.of("Card: 4111", " 1111", " 1111", " 1111", " expires soon.")) {
            client.append(chain.onChunk(chunk));
            assertThat(client.toString()).doesNotContain("4111");
        }
        client.append(chain.flush());

        assertThat(client.toString()).isEqualTo("Card: [CARD] expires soon.");
    }
}
