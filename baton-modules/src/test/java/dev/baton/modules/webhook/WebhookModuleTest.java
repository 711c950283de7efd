package dev.baton.modules.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.hook.Hook;
import dev.baton.core.hook.HookResult;
import dev.baton.core.hook.Module;
import dev.baton.modules.TestContexts;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WebhookModuleTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SECRET = "whsec-0123456789abcdef";
    private static final Clock CLOCK = Clock.fixed(TestContexts.NOW, ZoneOffset.UTC);

    private final WebhookReceiver receiver = new WebhookReceiver();

    @AfterEach
    void stop() {
        receiver.close();
    }

    private Module module(String extraConfig) throws Exception {
        String config = "{\"url\": \"" + receiver.url() + "/hook\", \"secret\": \"" + SECRET + "\"" + extraConfig + "}";
        return new WebhookFactory(CLOCK, Map.of()).create(JSON.readTree(config));
    }

    /** The signature as a receiver in any language would compute it, independently of {@link WebhookSigner}. */
    private static String expectedSignature(String timestamp, byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
        return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
    }

    @Test
    void posts_the_signed_context_and_applies_a_block() throws Exception {
        receiver.answering(200, """
                {"action": "block", "reason": "homework fraud", "directResponse": "Let's work it out together.",
                 "patternsMatched": ["answer-request"], "extractions": [{"type": "intent", "data": {"kind": "fraud"}}]}
                """);

        HookResult result = module("").handle(TestContexts.beforeAi("Just give me the answers"));

        assertThat(result).isInstanceOfSatisfying(HookResult.Block.class, b -> {
            assertThat(b.reason()).isEqualTo("homework fraud");
            assertThat(b.directResponse()).isEqualTo("Let's work it out together.");
            assertThat(b.patternsMatched()).containsExactly("answer-request");
            assertThat(b.extractions()).singleElement().satisfies(x -> {
                assertThat(x.type()).isEqualTo("intent");
                assertThat(x.data().path("kind").asText()).isEqualTo("fraud");
            });
        });
        WebhookReceiver.Received got = receiver.received().getFirst();
        assertThat(got.path()).isEqualTo("/hook");
        String timestamp = got.header("X-Baton-Timestamp");
        assertThat(timestamp).isEqualTo(Long.toString(TestContexts.NOW.getEpochSecond()));
        assertThat(got.header("X-Baton-Signature")).isEqualTo(expectedSignature(timestamp, got.body()));
        assertThat(new WebhookSigner(SECRET)
                        .verify(Long.parseLong(timestamp) + 1, got.body(), got.header("X-Baton-Signature")))
                .as("the timestamp is part of what is signed")
                .isFalse();
        assertThat(got.header("X-Baton-Hook")).isEqualTo("chat:before_ai");
        assertThat(got.header("X-Request-ID")).isEqualTo("req-1");

        JsonNode body = JSON.readTree(got.body());
        assertThat(body.path("version").asInt()).isEqualTo(1);
        assertThat(body.path("hook").asText()).isEqualTo("chat:before_ai");
        assertThat(body.path("user").path("id").asText()).isEqualTo("user-1");
        assertThat(body.path("user").path("roles").toString()).isEqualTo("[\"student\"]");
        assertThat(body.path("scope").path("tenantId").asText()).isEqualTo("tenant-1");
        assertThat(body.path("agent").path("id").asText()).isEqualTo("tutor");
        assertThat(body.path("session").path("id").asText()).isEqualTo("session-1");
        assertThat(body.path("conversation").path("currentMessage").asText()).isEqualTo("Just give me the answers");
        assertThat(body.path("response").isNull()).isTrue();
    }

    @Test
    void a_call_made_again_for_the_same_request_carries_the_same_idempotency_key() throws Exception {
        receiver.answering(200, "{\"action\": \"continue\"}");
        Module webhook = module("");

        webhook.handle(TestContexts.beforeAi("hello"));
        // what an instance that took the turn over sends when the first died during the call
        webhook.handle(TestContexts.beforeAi("hello"));
        webhook.handle(TestContexts.afterAi("hello", "hi"));

        List<String> keys = receiver.received().stream()
                .map(r -> r.header("Idempotency-Key"))
                .toList();
        assertThat(keys.get(0)).startsWith("baton-hc-").hasSizeGreaterThan(40);
        assertThat(keys.get(1)).isEqualTo(keys.get(0));
        assertThat(keys.get(2)).as("another hook is another call").isNotEqualTo(keys.get(0));
        assertThat(keys.get(0)).as("ids never reach the header as they are").doesNotContain("req-1", "session-1");
    }

    @Test
    void a_call_made_while_a_span_is_current_carries_its_traceparent_and_none_otherwise() throws Exception {
        receiver.answering(200, "{\"action\": \"continue\"}");
        Module webhook = module("");
        SpanContext turn = SpanContext.create(
                "0af7651916cd43dd8448eb211c80319c",
                "b7ad6b7169203331",
                TraceFlags.getSampled(),
                TraceState.getDefault());

        try (Scope ignored = Context.current().with(Span.wrap(turn)).makeCurrent()) {
            webhook.handle(TestContexts.beforeAi("hello"));
        }
        webhook.handle(TestContexts.beforeAi("hello again"));

        assertThat(receiver.received().get(0).header("traceparent"))
                .isEqualTo("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        assertThat(receiver.received().get(1).header("traceparent")).isNull();
    }

    @Test
    void applies_replacements_guidance_extractions_and_audit_notes() throws Exception {
        receiver.answering(200, """
                {"action": "continue", "userMessage": "a kinder message", "guidance": ["Be encouraging."],
                 "extractions": [{"type": "sentiment", "data": {"score": -0.8}}],
                 "audit": [{"reason": "toned down", "patternsMatched": ["insult"], "originalContent": "forged"}],
                 "somethingNew": true}
                """);

        HookResult result = module("").handle(TestContexts.beforeAi("you stupid bot"));

        assertThat(result).isInstanceOfSatisfying(HookResult.Continue.class, c -> {
            assertThat(c.userMessage()).isEqualTo("a kinder message");
            assertThat(c.response()).isNull();
            assertThat(c.guidance()).containsExactly("Be encouraging.");
            assertThat(c.extractions().getFirst().data().path("score").asDouble())
                    .isEqualTo(-0.8);
            assertThat(c.audit()).singleElement().satisfies(a -> {
                assertThat(a.reason()).isEqualTo("toned down");
                assertThat(a.patternsMatched()).containsExactly("insult");
                assertThat(a.originalContent())
                        .as("Baton records the original itself")
                        .isNull();
            });
        });
    }

    @Test
    void replaces_the_answer_on_after_ai() throws Exception {
        receiver.answering(200, "{\"response\": \"[answer withheld]\"}");
        Module webhook = module(", \"hooks\": [\"chat:after_ai\"]");

        HookResult result = webhook.handle(TestContexts.afterAi("question", "the model's answer"));

        assertThat(webhook.descriptor().hooks()).containsExactly(Hook.AFTER_AI);
        assertThat(((HookResult.Continue) result).response()).isEqualTo("[answer withheld]");
        JsonNode body = JSON.readTree(receiver.received().getFirst().body());
        assertThat(body.path("response").asText()).isEqualTo("the model's answer");
        assertThat(body.path("hook").asText()).isEqualTo("chat:after_ai");
    }

    @Test
    void an_empty_answer_means_continue_unchanged() throws Exception {
        receiver.answering(204, "");

        assertThat(module("").handle(TestContexts.beforeAi("hello"))).isEqualTo(HookResult.proceed());
    }

    @Test
    void an_error_status_a_malformed_answer_or_a_block_without_response_is_a_failure() throws Exception {
        Module webhook = module("");
        for (var bad : List.of(
                Map.entry(500, "{}"),
                Map.entry(200, "not json"),
                Map.entry(200, "[1, 2]"),
                Map.entry(200, "{\"action\": \"explode\"}"),
                Map.entry(200, "{\"action\": \"block\"}"),
                Map.entry(200, "{\"guidance\": \"not a list\"}"),
                Map.entry(200, "{\"extractions\": [{\"type\": \"x\"}]}"))) {
            receiver.answering(bad.getKey(), bad.getValue());
            assertThatThrownBy(() -> webhook.handle(TestContexts.beforeAi("hello")))
                    .as("answer %s %s", bad.getKey(), bad.getValue())
                    .isInstanceOf(RuntimeException.class)
                    .hasMessageNotContaining("hello");
        }
    }

    @Test
    void a_slow_webhook_times_out() throws Exception {
        receiver.hanging();
        Module webhook = module(", \"timeout\": \"300ms\"");

        long started = System.nanoTime();
        assertThatThrownBy(() -> webhook.handle(TestContexts.beforeAi("hello")))
                .isInstanceOf(WebhookModule.WebhookFailure.class);
        assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(5_000);
    }

    @Test
    void redirects_are_not_followed() throws Exception {
        receiver.redirectingTo("/elsewhere");

        assertThatThrownBy(() -> module("").handle(TestContexts.beforeAi("hello")))
                .isInstanceOf(WebhookModule.WebhookFailure.class)
                .hasMessageContaining("302");
        assertThat(receiver.received())
                .extracting(WebhookReceiver.Received::path)
                .containsExactly("/hook");
    }

    @Test
    void an_unreachable_webhook_is_a_failure() throws Exception {
        Module webhook = module("");
        receiver.close();

        assertThatThrownBy(() -> webhook.handle(TestContexts.beforeAi("hello")))
                .isInstanceOf(WebhookModule.WebhookFailure.class)
                .hasMessageContaining("unreachable");
    }

    @Test
    void the_agent_is_sent_without_its_module_configuration() throws Exception {
        receiver.answering(204, "");
        JsonNode agent = JSON.readTree("{\"constraints\": {\"topics\": [\"algebra\"]},"
                + " \"modules\": [{\"id\": \"webhook\", \"config\": {\"secret\": \"" + SECRET + "\"}}]}");

        module("").handle(TestContexts.of(Hook.BEFORE_AI, agent, List.of(), "hello", null));

        String body = receiver.received().getFirst().bodyText();
        assertThat(body).doesNotContain(SECRET).contains("\"constraints\":{\"topics\":[\"algebra\"]}");
    }
}
