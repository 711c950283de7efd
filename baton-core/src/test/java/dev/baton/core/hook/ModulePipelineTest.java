package dev.baton.core.hook;

import static dev.baton.core.hook.TestModules.module;
import static dev.baton.core.hook.TestModules.turn;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.baton.core.audit.AuditRecord;
import dev.baton.core.audit.AuditStore;
import dev.baton.core.audit.ExtractionRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ModulePipelineTest {
    static final Clock CLOCK = Clock.fixed(TestModules.NOW, ZoneOffset.UTC);

    final List<ExtractionRecord> saved = new CopyOnWriteArrayList<>();
    final AuditStore extractionSink = new AuditStore() {
        @Override
        public Optional<List<AuditRecord>> sessionAudit(String tenantId, String sessionId) {
            return Optional.empty();
        }

        @Override
        public List<ExtractionRecord> sessionExtractions(String tenantId, String sessionId) {
            return List.of();
        }

        @Override
        public void saveExtractions(List<ExtractionRecord> extractions) {
            saved.addAll(extractions);
        }
    };

    ModulePipeline pipeline(Module... modules) {
        return new ModulePipeline(ModuleSource.of(List.of(modules)), extractionSink, CLOCK);
    }

    @Test
    void modules_run_in_priority_order_lower_first_whatever_the_configured_order() {
        List<String> calls = new CopyOnWriteArrayList<>();
        ModulePipeline p = pipeline(
                module("analytics", 95, Set.of(Hook.BEFORE_AI), c -> record(calls, "analytics")),
                module("safety", 5, Set.of(Hook.BEFORE_AI), c -> record(calls, "safety")),
                module("default", 50, Set.of(Hook.BEFORE_AI), c -> record(calls, "default")),
                module("modifier", 30, Set.of(Hook.BEFORE_AI), c -> record(calls, "modifier")),
                module("after-only", 1, Set.of(Hook.AFTER_AI), c -> record(calls, "after-only")));

        p.beforeAi(turn("hello"));

        assertThat(calls).containsExactly("safety", "modifier", "default", "analytics");
    }

    @Test
    void a_modifier_sees_the_previous_modules_output_and_every_change_is_audited() {
        List<String> seen = new CopyOnWriteArrayList<>();
        ModulePipeline p = pipeline(
                module("redact", 10, Set.of(Hook.BEFORE_AI), c -> {
                    seen.add(c.conversation().currentMessage());
                    return HookResult.replaceUserMessage(
                                    c.conversation().currentMessage().replace("alice@example.com", "[EMAIL]"))
                            .withAudit("pii redacted", List.of("email"));
                }),
                module("shout", 30, Set.of(Hook.BEFORE_AI), c -> {
                    seen.add(c.conversation().currentMessage());
                    return HookResult.replaceUserMessage(
                            c.conversation().currentMessage().toUpperCase());
                }),
                module("guide", 60, Set.of(Hook.BEFORE_AI), c -> {
                    seen.add(c.conversation().currentMessage());
                    return HookResult.guidance("Be brief.")
                            .withExtraction("topic", JsonNodeFactory.instance.textNode("mail"));
                }));

        BeforeAiOutcome outcome = p.beforeAi(turn("mail alice@example.com"));

        assertThat(seen).containsExactly("mail alice@example.com", "mail [EMAIL]", "MAIL [EMAIL]");
        BeforeAiOutcome.Proceed proceed = (BeforeAiOutcome.Proceed) outcome;
        assertThat(proceed.userMessage()).isEqualTo("MAIL [EMAIL]");
        assertThat(proceed.modified()).isTrue();
        assertThat(proceed.guidance()).containsExactly("Be brief.");
        assertThat(proceed.audit())
                .extracting(a -> a.module() + "|" + a.audit().originalContent() + "|"
                        + a.audit().reason())
                .containsExactly(
                        "redact|mail alice@example.com|pii redacted",
                        // a module that changed the message without a note still leaves the original behind
                        "shout|mail [EMAIL]|user message modified");
        assertThat(proceed.audit().getFirst().audit().patternsMatched()).containsExactly("email");
        assertThat(proceed.extractions()).extracting(ModuleExtraction::module).containsExactly("guide");
    }

    @Test
    void a_block_stops_later_modules_and_keeps_the_users_original_message_in_the_audit() {
        List<String> calls = new CopyOnWriteArrayList<>();
        ModulePipeline p = pipeline(
                module("redact", 5, Set.of(Hook.BEFORE_AI), c -> HookResult.replaceUserMessage("redacted")),
                module(
                        "guard",
                        10,
                        Set.of(Hook.BEFORE_AI),
                        c -> HookResult.block(
                                "off topic", "I can only help with your tasks.", List.of("deny:weather"))),
                module("later", 20, Set.of(Hook.BEFORE_AI), c -> record(calls, "later")));

        BeforeAiOutcome outcome = p.beforeAi(turn("what's the weather?"));

        assertThat(outcome).isInstanceOf(BeforeAiOutcome.Blocked.class);
        BeforeAiOutcome.Blocked blocked = (BeforeAiOutcome.Blocked) outcome;
        assertThat(blocked.module()).isEqualTo("guard");
        assertThat(blocked.response()).isEqualTo("I can only help with your tasks.");
        assertThat(blocked.audit().getLast().audit().originalContent()).isEqualTo("what's the weather?");
        assertThat(blocked.audit().getLast().audit().patternsMatched()).containsExactly("deny:weather");
        assertThat(calls).isEmpty();
    }

    @Test
    void a_module_that_throws_is_skipped_counted_and_the_content_stays_as_it_was() {
        ModulePipeline p = pipeline(
                module("broken", 10, Set.of(Hook.BEFORE_AI), c -> {
                    throw new IllegalStateException("boom with secret content");
                }),
                module("guide", 20, Set.of(Hook.BEFORE_AI), c -> HookResult.guidance("still runs")));

        BeforeAiOutcome.Proceed outcome = (BeforeAiOutcome.Proceed) p.beforeAi(turn("hello"));

        assertThat(outcome.userMessage()).isEqualTo("hello");
        assertThat(outcome.modified()).isFalse();
        assertThat(outcome.guidance()).containsExactly("still runs");
        assertThat(p.failures().count("broken", Hook.BEFORE_AI)).isEqualTo(1);
        assertThat(p.failures().count(ModuleFailures.Kind.THREW)).isEqualTo(1);
    }

    @Test
    void a_module_that_times_out_is_skipped_and_counted_without_waiting_for_it() {
        CountDownLatch never = new CountDownLatch(1);
        Module slow = new TestModules.Lambda(
                new ModuleDescriptor("slow", 10, Duration.ofMillis(50), false, Set.of(Hook.BEFORE_AI), null), c -> {
                    await(never, 30);
                    return HookResult.replaceUserMessage("too late");
                });
        ModulePipeline p = pipeline(slow);

        long started = System.nanoTime();
        BeforeAiOutcome.Proceed outcome = (BeforeAiOutcome.Proceed) p.beforeAi(turn("hello"));
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

        assertThat(outcome.userMessage()).isEqualTo("hello");
        assertThat(p.failures().count(ModuleFailures.Kind.TIMED_OUT)).isEqualTo(1);
        assertThat(tookMs).isLessThan(5_000);
    }

    @Test
    void a_fail_closed_module_that_fails_blocks_the_turn_with_its_safe_response() {
        Module strict = new TestModules.Lambda(
                new ModuleDescriptor("strict", 5, null, false, Set.of(Hook.BEFORE_AI), null)
                        .failingClosed("Our safety check is unavailable, so I can't answer right now."),
                c -> {
                    throw new IllegalStateException("classifier down");
                });
        List<String> calls = new ArrayList<>();
        ModulePipeline p = pipeline(strict, module("later", 50, Set.of(Hook.BEFORE_AI), c -> record(calls, "later")));

        BeforeAiOutcome outcome = p.beforeAi(turn("hello"));

        BeforeAiOutcome.Blocked blocked = (BeforeAiOutcome.Blocked) outcome;
        assertThat(blocked.module()).isEqualTo("strict");
        assertThat(blocked.response()).isEqualTo("Our safety check is unavailable, so I can't answer right now.");
        assertThat(blocked.audit().getLast().audit().originalContent()).isEqualTo("hello");
        assertThat(blocked.reason()).contains("failed closed");
        assertThat(p.failures().count("strict", Hook.BEFORE_AI)).isEqualTo(1);
        assertThat(calls).isEmpty();
    }

    @Test
    void a_fail_closed_module_that_times_out_uses_the_default_safe_response() {
        CountDownLatch never = new CountDownLatch(1);
        Module strict = new TestModules.Lambda(
                new ModuleDescriptor("strict", 5, Duration.ofMillis(30), true, Set.of(Hook.BEFORE_AI), null), c -> {
                    await(never, 30);
                    return HookResult.proceed();
                });

        BeforeAiOutcome.Blocked blocked =
                (BeforeAiOutcome.Blocked) pipeline(strict).beforeAi(turn("hi"));

        assertThat(blocked.response()).isEqualTo(ModulePipeline.SAFE_RESPONSE);
    }

    @Test
    void after_ai_modules_replace_the_response_in_order_and_audit_the_original() {
        ModulePipeline p = pipeline(
                module("second", 70, Set.of(Hook.AFTER_AI), c -> HookResult.replaceResponse(c.response() + " [2]")),
                module("first", 20, Set.of(Hook.AFTER_AI), c -> HookResult.replaceResponse(c.response() + " [1]")));

        AfterAiOutcome outcome = p.afterAi(turn("hi").withResponse("Answer"));

        assertThat(outcome.response()).isEqualTo("Answer [1] [2]");
        assertThat(outcome.replaced()).isTrue();
        assertThat(outcome.blocked()).isFalse();
        assertThat(outcome.audit())
                .extracting(a -> a.module() + ":" + a.audit().originalContent())
                .containsExactly("first:Answer", "second:Answer [1]");
        assertThat(p.rewritesAnswers(TestModules.AGENT)).isTrue();
        assertThat(pipeline().rewritesAnswers(TestModules.AGENT)).isFalse();
    }

    @Test
    void on_message_runs_in_the_background_and_never_delays_the_caller() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        ModulePipeline p = pipeline(module("analytics", 95, Set.of(Hook.ON_MESSAGE), c -> {
            await(release, 10);
            return HookResult.proceed()
                    .withExtraction(
                            "length",
                            JsonNodeFactory.instance.numberNode(
                                    c.conversation().currentMessage().length()));
        }));

        var done = p.onMessage(turn("hello"), "message-1");

        // the module is still blocked, yet the caller already has control back
        assertThat(done).isNotDone();
        assertThat(saved).isEmpty();
        release.countDown();
        done.get(10, TimeUnit.SECONDS);
        assertThat(saved).singleElement().satisfies(x -> {
            assertThat(x.module()).isEqualTo("analytics");
            assertThat(x.messageId()).isEqualTo("message-1");
            assertThat(x.sessionId()).isEqualTo("session-1");
            assertThat(x.data().asInt()).isEqualTo(5);
        });
    }

    @Test
    void session_hooks_are_asynchronous_and_see_the_end_reason() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        ModulePipeline p = pipeline(module("lifecycle", 50, Set.of(Hook.SESSION_START, Hook.SESSION_END), c -> {
            seen.add(c.request().hook().wireName() + ":" + c.session().endReason() + ":"
                    + c.user().name());
            return HookResult.proceed();
        }));

        p.sessionStarted(HookContexts.forSession(
                        "req-1",
                        TestModules.ALICE,
                        TestModules.SESSION,
                        TestModules.AGENT,
                        null,
                        null,
                        TestModules.NOW))
                .get(10, TimeUnit.SECONDS);
        p.sessionEnded(HookContexts.forSession(
                        "job-1", null, TestModules.SESSION, TestModules.AGENT, null, "inactivity", TestModules.NOW))
                .get(10, TimeUnit.SECONDS);

        assertThat(seen).containsExactly("session:start:null:Alice", "session:end:inactivity:null");
    }

    @Test
    void a_module_returning_null_counts_as_a_failure() {
        ModulePipeline p = pipeline(module("lazy", 10, Set.of(Hook.AFTER_AI), c -> null));

        AfterAiOutcome outcome = p.afterAi(turn("hi").withResponse("Answer"));

        assertThat(outcome.response()).isEqualTo("Answer");
        assertThat(p.failures().total()).isEqualTo(1);
    }

    private static HookResult record(List<String> calls, String name) {
        calls.add(name);
        return HookResult.proceed();
    }

    private static void await(CountDownLatch latch, int seconds) {
        try {
            latch.await(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }
}
