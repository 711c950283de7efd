package dev.baton.runtime.turn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.conversation.Session;
import dev.baton.core.hook.ModulePipeline;
import dev.baton.core.model.ModelBinding;
import dev.baton.core.model.ModelGateway;
import dev.baton.core.model.ModelReply;
import dev.baton.core.model.TokenUsage;
import dev.baton.core.tool.ToolCatalog;
import dev.baton.core.turn.TurnOutcome;
import dev.baton.core.turn.TurnRequest;
import dev.baton.core.turn.TurnRunner;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TurnDispatcherTest {

    @Test
    void a_turn_that_fails_while_being_set_up_does_not_leave_its_session_busy() {
        RunningTurns running = new RunningTurns();
        // the runner is never reached: setting the turn up fails first
        try (TurnDispatcher dispatcher = new TurnDispatcher(null, running)) {
            assertThatThrownBy(() -> {
                        try (TurnDispatcher.SessionLock lock = dispatcher.lock("s-1", Duration.ofMinutes(1))) {
                            throw new IllegalArgumentException("session does not belong to the principal");
                        }
                    })
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(running.count()).isZero();
        assertThat(running.begin("s-1")).isNotNull(); // the next message is not refused with 409
    }

    @Test
    void a_finished_turn_leaves_no_deadline_queued() {
        Clock clock = Clock.systemUTC();
        InMemoryConversationStore store = new InMemoryConversationStore();
        Principal principal = Principal.of("t", "u", Set.of());
        ModelGateway model = new ModelGateway() {
            @Override
            public ModelReply stream(
                    dev.baton.core.model.ModelRequest request,
                    java.util.function.Consumer<dev.baton.core.model.ModelDelta> onDelta) {
                return new ModelReply("hi", List.of(), TokenUsage.ZERO, "m", "stop", "p");
            }

            @Override
            public String provider() {
                return "p";
            }
        };
        TurnRunner runner = new TurnRunner(
                store,
                reference -> new ModelBinding(reference, model, "m"),
                ToolCatalog.empty(),
                text -> 1,
                (provider, m, usage) -> BigDecimal.ZERO,
                clock,
                ModulePipeline.none(clock));
        AgentDefinition agent = AgentDefinition.of("a", "be brief", "p:m", List.of());
        try (TurnDispatcher dispatcher = new TurnDispatcher(runner, new RunningTurns())) {
            for (int i = 0; i < 50; i++) {
                Session session = Session.start("s-" + i, "t", "u", "a", null, Instant.now());
                String requestId = "r-" + i;
                store.createSession(session);
                TurnOutcome outcome;
                try (TurnDispatcher.SessionLock lock = dispatcher.lock(session.id(), Duration.ofMinutes(10))) {
                    outcome = dispatcher.run(
                            lock,
                            new TurnRequest(requestId, principal, session, agent, "hello", lock.cancellation()),
                            event -> {});
                }
                assertThat(outcome.succeeded()).isTrue();
            }
            // a deadline cancelled with its turn used to stay queued for its whole delay, holding the turn
            assertThat(dispatcher.pendingDeadlines()).isZero();
        }
    }
}
