package dev.baton.runtime.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.auth.Principal;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.conversation.Session;
import dev.baton.runtime.Baton;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.session.SessionLifecycleStore;
import dev.baton.runtime.session.Sessions;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A runtime with no database runs experiments over {@link ExperimentStore#inMemory} (baton-testkit's
 * {@code ExperimentStoreContract} holds the store itself to the database's rules).
 */
class InMemoryExperimentsTest {
    private static final Principal ADMIN = Principal.of("acme", "ops", Set.of(Experiments.ADMIN));
    private static final Principal ANN = Principal.of("acme", "ann", Set.of(Sessions.WRITE, Sessions.READ));

    @Test
    void a_runtime_without_a_database_routes_new_sessions_by_an_experiment_kept_in_memory() {
        InMemoryConversationStore conversations = new InMemoryConversationStore();
        AgentDefinition tutor = AgentDefinition.of("tutor", "You help.", "simulator:x", List.of());
        AgentDefinition brief = AgentDefinition.of("tutor-v2", "Be brief.", "simulator:x", List.of());
        try (Baton baton = Baton.builder()
                .conversationStore(conversations)
                .sessionStore(SessionLifecycleStore.inMemory(conversations))
                .experimentStore(ExperimentStore.inMemory(conversations))
                .models(reference -> {
                    throw new IllegalArgumentException("no models in this test");
                })
                .tokenCounter(String::length)
                .agents(AgentRegistry.of(List.of(tutor, brief)))
                .build()) {
            Experiment e = new Experiment(
                    "brevity",
                    "tutor",
                    "control",
                    List.of(new Arm("control", "tutor", 0), new Arm("brief", "tutor-v2", 100)),
                    null,
                    RollbackTriggers.DEFAULTS,
                    null,
                    1);
            baton.experiments().create(ADMIN, e.id(), ExperimentDefinition.write(e));

            Session s = baton.sessions().start(ANN, "tutor", null);

            assertThat(s.agentId()).isEqualTo("tutor-v2");
            assertThat(baton.experiments()
                            .report(ADMIN, "brevity", Duration.ofHours(1))
                            .arms())
                    .extracting(ArmMetrics::arm, ArmMetrics::conversations)
                    .containsExactly(tuple("control", 0L), tuple("brief", 1L));
        }
    }
}
