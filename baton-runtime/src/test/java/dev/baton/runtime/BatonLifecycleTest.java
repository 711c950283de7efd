package dev.baton.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.agent.AgentDefinition;
import dev.baton.core.conversation.InMemoryConversationStore;
import dev.baton.core.conversation.Session;
import dev.baton.runtime.agent.AgentRegistry;
import dev.baton.runtime.config.ConfigException;
import dev.baton.runtime.config.Yaml;
import dev.baton.runtime.session.EndedSession;
import dev.baton.runtime.session.SessionLifecycleStore;
import dev.baton.runtime.session.SessionTerms;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a {@link Baton} starts in the background it stops on close, and building refuses a missing port. */
class BatonLifecycleTest {

    /** Sessions that start and never end: enough for a runtime whose turns these tests never run. */
    private static final class StartOnlySessions implements SessionLifecycleStore {
        @Override
        public void start(Session session, SessionTerms terms) {}

        @Override
        public Optional<SessionTerms> terms(String userId, String sessionId) {
            return Optional.empty();
        }

        @Override
        public Optional<EndedSession> complete(String userId, String sessionId, Instant now, String reason) {
            return Optional.empty();
        }

        @Override
        public Optional<EndedSession> completeIfExpired(String userId, String sessionId, Instant now) {
            return Optional.empty();
        }

        @Override
        public Optional<EndedSession> completeIfMessagesReached(String userId, String sessionId, Instant now) {
            return Optional.empty();
        }

        @Override
        public List<EndedSession> sweep(Instant now, Duration shortestInactivityTimeout, int limit) {
            return List.of();
        }
    }

    private static BatonBuilder builder() {
        InMemoryConversationStore store = new InMemoryConversationStore();
        return Baton.builder()
                .conversationStore(store)
                .sessionStore(new StartOnlySessions())
                .idempotencyStore(store)
                .models(reference -> {
                    throw new IllegalArgumentException("no models in this test");
                })
                .tokenCounter(String::length)
                .agents(AgentRegistry.of(List.of(AgentDefinition.of("a", "You help.", "simulator:x", List.of()))))
                .configure(Yaml.parse("lifecycle: {sweepInterval: 1h}\nidempotency: {interval: 1h}"));
    }

    private static long threadsNamed(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(name) && t.isAlive())
                .count();
    }

    @Test
    void the_background_jobs_started_run_until_the_runtime_is_closed() throws InterruptedException {
        long sweepsBefore = threadsNamed("session-sweep");
        Baton baton = builder().build();
        baton.startBackgroundJobs();
        baton.startBackgroundJobs(); // once only
        assertThat(threadsNamed("session-sweep")).isEqualTo(sweepsBefore + 1);
        Thread sweep = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("session-sweep"))
                .findFirst()
                .orElseThrow();

        baton.close();

        sweep.join(Duration.ofSeconds(30));
        assertThat(sweep.isAlive()).isFalse();
    }

    @Test
    void a_closed_runtime_starts_no_jobs() {
        long sweepsBefore = threadsNamed("session-sweep");
        Baton baton = builder().build();
        baton.close();

        baton.startBackgroundJobs();

        assertThat(threadsNamed("session-sweep")).isEqualTo(sweepsBefore);
    }

    @Test
    void building_without_a_required_port_names_it() {
        assertThatThrownBy(() -> Baton.builder().build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("conversationStore");
    }
}
